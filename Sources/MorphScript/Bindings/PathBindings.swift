import CLua
import CMorphLua
import MorphCore

/// `morph.path` (a builder) and `morph.paths.*` (ready-made shapes).
enum PathBindings {
  static let type = ObjectType<Path>(name: "morph.Path")

  /// Paths live in Swift, outside Lua's heap; what each holds is charged to
  /// the plugin's memory cap, so `p:append(p)` twenty times cannot take gigabytes.
  static func bytes(elements: Int) -> Int {
    64 + elements * MemoryLayout<Path.Element>.stride
  }

  /// Roughly what one point of `flatten`'s result costs in Lua: a table of two
  /// numbers and its slot in the polyline.
  static let luaBytesPerPoint = 112

  /// Pushes a new path, charged to the memory cap.
  static func push(_ a: LuaArgs, _ path: Path) throws(ArgumentError) {
    try a.push(path, as: type, bytes: bytes(elements: path.elements.count))
  }

  /// Refuses to flatten `path` when its points could not fit under the cap.
  static func checkFlattenFits(
    _ a: LuaArgs, _ path: Path, tolerance: Double, bytesPerPoint: Int
  ) throws(ArgumentError) {
    let (bytes, overflow) = path.flattenedPointCount(tolerance: tolerance)
      .multipliedReportingOverflow(by: bytesPerPoint)
    guard !overflow, morph_fits(a.lua, bytes) != 0 else { throw a.outOfMemory() }
  }

  static func open(_ lua: OpaquePointer) {
    type.define(lua, methods: methods, properties: nil, extra: meta)
    register(lua, [newPath])
    morph_newtable(lua)
    register(lua, shapes)
    morph_rawsetfield(lua, -2, "paths")
  }

  /// `morph.path()` is written in Lua on top of this (it calls a builder).
  static let newPath = HostFunction(name: "newPath") { lua in
    hostCall(lua, "newPath") { a in
      try push(a, Path())
      return 1
    }
  }

  static func point(_ a: LuaArgs, _ i: Int32) throws -> Point {
    Point(try a.finite(i), try a.finite(i + 1))
  }

  static func rect(_ a: LuaArgs, _ i: Int32) throws -> Rect {
    let r = Rect(
      x: try a.finite(i), y: try a.finite(i + 1), width: try a.finite(i + 2),
      height: try a.finite(i + 3))
    guard r.width >= 0 else { throw a.error(i + 2, "width must be >= 0, got \(r.width)") }
    guard r.height >= 0 else { throw a.error(i + 3, "height must be >= 0, got \(r.height)") }
    return r
  }

  static let shapes: [HostFunction] = [
    HostFunction(
      name: "rect",
      doc: """
        @param x number
        @param y number
        @param w number
        @param h number
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "rect") { a in
        try push(a, Path.rect(try rect(a, 1)))
        return 1
      }
    },
    HostFunction(
      name: "roundedRect",
      doc: """
        Rounded rectangle; style "continuous" (default, SwiftUI's smooth corners) or "circular".
        @param x number
        @param y number
        @param w number
        @param h number
        @param radius number
        @param style? morph.CornerStyle
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "roundedRect") { a in
        let r = try rect(a, 1)
        let radius = try a.finite(5)
        guard radius >= 0 else { throw a.error(5, "radius must be >= 0, got \(radius)") }
        let style = a.isNoneOrNil(6) ? .continuous : try a.choice(6, CornerStyle.self)
        try push(a, Path.roundedRect(r, radius: radius, style: style))
        return 1
      }
    },
    HostFunction(
      name: "circle",
      doc: """
        @param cx number
        @param cy number
        @param radius number
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "circle") { a in
        let c = try point(a, 1)
        let radius = try a.finite(3)
        guard radius >= 0 else { throw a.error(3, "radius must be >= 0, got \(radius)") }
        let box = Rect(x: c.x - radius, y: c.y - radius, width: 2 * radius, height: 2 * radius)
        try push(a, Path.circle(in: box))
        return 1
      }
    },
    HostFunction(
      name: "ellipse",
      doc: """
        @param x number
        @param y number
        @param w number
        @param h number
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "ellipse") { a in
        try push(a, Path.ellipse(in: try rect(a, 1)))
        return 1
      }
    },
    HostFunction(
      name: "capsule",
      doc: """
        @param x number
        @param y number
        @param w number
        @param h number
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "capsule") { a in
        try push(a, Path.capsule(in: try rect(a, 1)))
        return 1
      }
    },
  ]

  /// Builder methods change the path in place and return it, so they chain.
  static func build(
    _ name: String, _ lua: OpaquePointer?, _ body: (LuaArgs, inout Path) throws -> Void
  )
    -> Int32
  {
    hostCall(lua, name, method: true) { a in
      let box = try a.box(1, type)
      try body(a, &box.value)
      try a.recharge(box, bytes: bytes(elements: box.value.elements.count))
      lua_settop(a.lua, 1)
      return 1
    }
  }

  static let methods: [HostFunction] = [
    HostFunction(
      name: "move",
      doc: """
        @param x number
        @param y number
        @return morph.Path
        """
    ) { lua in build("move", lua) { a, p in p.move(to: try point(a, 2)) }
    },
    HostFunction(
      name: "line",
      doc: """
        @param x number
        @param y number
        @return morph.Path
        """
    ) { lua in build("line", lua) { a, p in p.line(to: try point(a, 2)) }
    },
    HostFunction(
      name: "quad",
      doc: """
        A quadratic curve to (x, y) with control point (cx, cy) (canvas order).
        @param cx number
        @param cy number
        @param x number
        @param y number
        @return morph.Path
        """
    ) { lua in
      build("quad", lua) { a, p in p.quad(to: try point(a, 4), control: try point(a, 2)) }
    },
    HostFunction(
      name: "cubic",
      doc: """
        A cubic curve to (x, y) with control points (c1x, c1y), (c2x, c2y).
        @param c1x number
        @param c1y number
        @param c2x number
        @param c2y number
        @param x number
        @param y number
        @return morph.Path
        """
    ) { lua in
      build("cubic", lua) { a, p in
        p.cubic(to: try point(a, 6), c1: try point(a, 2), c2: try point(a, 4))
      }
    },
    HostFunction(
      name: "arc",
      doc: """
        An arc around (cx, cy); degrees clockwise from +x on the y-down canvas (SwiftUI's addArc).
        @param cx number
        @param cy number
        @param radius number
        @param startDegrees number
        @param endDegrees number
        @param clockwise? boolean SwiftUI's flag: false sweeps increasing angles
        @return morph.Path
        """
    ) { lua in
      build("arc", lua) { a, p in
        let radius = try a.finite(4)
        guard radius >= 0 else { throw a.error(4, "radius must be >= 0, got \(radius)") }
        p.arc(
          center: try point(a, 2), radius: radius, startDegrees: try a.finite(5),
          endDegrees: try a.finite(6), clockwise: try a.boolean(7, default: false))
      }
    },
    HostFunction(
      name: "close",
      doc: """
        @return morph.Path
        """
    ) { lua in build("close", lua) { _, p in p.close() } },
    HostFunction(
      name: "rect",
      doc: """
        @param x number
        @param y number
        @param w number
        @param h number
        @return morph.Path
        """
    ) { lua in build("rect", lua) { a, p in p.addRect(try rect(a, 2)) } },
    HostFunction(
      name: "ellipse",
      doc: """
        @param x number
        @param y number
        @param w number
        @param h number
        @return morph.Path
        """
    ) { lua in
      build("ellipse", lua) { a, p in p.addEllipse(in: try rect(a, 2)) }
    },
    HostFunction(
      name: "append",
      doc: """
        @param other morph.Path
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "append", method: true) { a in
        let box = try a.box(1, type)
        // Read before the change: `p:append(p)` reads the path it changes.
        let other = try a.object(2, type)
        let count = box.value.elements.count + other.elements.count
        try a.recharge(box, bytes: bytes(elements: count))
        box.value.append(other)
        lua_settop(a.lua, 1)
        return 1
      }
    },
    HostFunction(
      name: "bounds",
      doc: """
        Tight bounds (curve extrema included); nothing for an empty path.
        @return number x, number y, number w, number h
        """
    ) { lua in
      hostCall(lua, "bounds", method: true) { a in
        guard let b = try a.object(1, type).bounds else { return 0 }
        for v in [b.minX, b.minY, b.width, b.height] { a.push(v) }
        return 4
      }
    },
    HostFunction(
      name: "transformed",
      doc: """
        A transformed copy: (x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty).
        @param a number
        @param b number
        @param c number
        @param d number
        @param tx number
        @param ty number
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "transformed", method: true) { a in
        let t = AffineTransform(
          a: try a.finite(2), b: try a.finite(3), c: try a.finite(4), d: try a.finite(5),
          tx: try a.finite(6), ty: try a.finite(7))
        try push(a, try a.object(1, type).transformed(by: t))
        return 1
      }
    },
    HostFunction(
      name: "translated",
      doc: """
        @param x number
        @param y number
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "translated", method: true) { a in
        let t = AffineTransform.translation(try a.finite(2), try a.finite(3))
        try push(a, try a.object(1, type).transformed(by: t))
        return 1
      }
    },
    HostFunction(
      name: "scaled",
      doc: """
        @param sx number
        @param sy? number default sx
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "scaled", method: true) { a in
        let sx = try a.finite(2)
        let t = AffineTransform.scale(sx, a.isNoneOrNil(3) ? sx : try a.finite(3))
        try push(a, try a.object(1, type).transformed(by: t))
        return 1
      }
    },
    HostFunction(
      name: "rotated",
      doc: """
        Rotated copy, clockwise degrees, about (ax, ay) (default the origin).
        @param degrees number
        @param ax? number
        @param ay? number
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "rotated", method: true) { a in
        let anchor = a.isNoneOrNil(3) ? Point.zero : try point(a, 3)
        let t = AffineTransform.about(anchor, .rotation(degrees: try a.finite(2)))
        try push(a, try a.object(1, type).transformed(by: t))
        return 1
      }
    },
    HostFunction(
      name: "trimmed",
      doc: """
        The part between two fractions of the arc length (SwiftUI's `trimmedPath(from:to:)`):
        both clamped to 0…1; `from >= to` gives an empty path; each piece starts its own subpath.
        @param from? number default 0
        @param to? number default 1
        @return morph.Path
        """
    ) { lua in
      hostCall(lua, "trimmed", method: true) { a in
        let from = a.isNoneOrNil(2) ? 0 : try a.finite(2)
        let to = a.isNoneOrNil(3) ? 1 : try a.finite(3)
        try push(a, Trim(from: from, to: to).apply(to: try a.object(1, type)))
        return 1
      }
    },
    HostFunction(
      name: "length",
      doc: """
        The arc length in points (every segment, `close` lines too).
        @return number
        """
    ) { lua in
      hostCall(lua, "length", method: true) { a in
        a.push(try a.object(1, type).arcLength)
        return 1
      }
    },
    HostFunction(
      name: "contains",
      doc: """
        Non-zero winding containment.
        @param x number
        @param y number
        @return boolean
        """
    ) { lua in
      hostCall(lua, "contains", method: true) { a in
        let path = try a.object(1, type)
        try checkFlattenFits(
          a, path, tolerance: 0.25, bytesPerPoint: MemoryLayout<Point>.stride)
        a.push(path.contains(try point(a, 2)))
        return 1
      }
    },
    HostFunction(
      name: "flatten",
      doc: """
        Polylines within `tolerance` points of the curves (default 0.25): `{ { {x, y}, … }, … }`.
        @param tolerance? number
        @return number[][][]
        """
    ) { lua in
      hostCall(lua, "flatten", method: true) { a in
        let tolerance = try a.number(2, default: 0.25)
        guard tolerance >= 0.001 else {
          throw a.error(2, "tolerance must be >= 0.001, got \(tolerance)")
        }
        let path = try a.object(1, type)
        try checkFlattenFits(a, path, tolerance: tolerance, bytesPerPoint: luaBytesPerPoint)
        pushPolylines(a.lua, path.flattened(tolerance: tolerance))
        return 1
      }
    },
  ]

  /// `{ { {x, y}, {x, y}, … }, … }`: one array of points per subpath.
  static func pushPolylines(_ lua: OpaquePointer, _ polylines: [[Point]]) {
    lua_createtable(lua, Int32(polylines.count), 0)
    for (i, line) in polylines.enumerated() {
      lua_createtable(lua, Int32(line.count), 0)
      for (j, p) in line.enumerated() {
        lua_createtable(lua, 2, 0)
        lua_pushnumber(lua, p.x)
        lua_rawseti(lua, -2, 1)
        lua_pushnumber(lua, p.y)
        lua_rawseti(lua, -2, 2)
        lua_rawseti(lua, -2, lua_Integer(j + 1))
      }
      lua_rawseti(lua, -2, lua_Integer(i + 1))
    }
  }

  static let meta: [HostFunction] = [
    HostFunction(name: "__tostring") { lua in
      hostCall(lua, "tostring") { a in
        let p = try a.object(1, type)
        if let b = p.bounds {
          a.push(
            "path(\(p.elements.count) elements, bounds \(b.minX) \(b.minY) \(b.width) \(b.height))")
        } else {
          a.push("path(empty)")
        }
        return 1
      }
    },
    HostFunction(name: "__len") { lua in
      hostCall(lua, "#") { a in
        lua_pushinteger(a.lua, lua_Integer(try a.object(1, type).elements.count))
        return 1
      }
    },
  ]
}
