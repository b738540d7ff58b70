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
    HostFunction(name: "rect") { lua in
      hostCall(lua, "rect") { a in
        try push(a, Path.rect(try rect(a, 1)))
        return 1
      }
    },
    HostFunction(name: "roundedRect") { lua in
      hostCall(lua, "roundedRect") { a in
        let r = try rect(a, 1)
        let radius = try a.finite(5)
        guard radius >= 0 else { throw a.error(5, "radius must be >= 0, got \(radius)") }
        let style = a.isNoneOrNil(6) ? .continuous : try a.choice(6, CornerStyle.self)
        try push(a, Path.roundedRect(r, radius: radius, style: style))
        return 1
      }
    },
    HostFunction(name: "circle") { lua in
      hostCall(lua, "circle") { a in
        let c = try point(a, 1)
        let radius = try a.finite(3)
        guard radius >= 0 else { throw a.error(3, "radius must be >= 0, got \(radius)") }
        let box = Rect(x: c.x - radius, y: c.y - radius, width: 2 * radius, height: 2 * radius)
        try push(a, Path.circle(in: box))
        return 1
      }
    },
    HostFunction(name: "ellipse") { lua in
      hostCall(lua, "ellipse") { a in
        try push(a, Path.ellipse(in: try rect(a, 1)))
        return 1
      }
    },
    HostFunction(name: "capsule") { lua in
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
    HostFunction(name: "move") { lua in build("move", lua) { a, p in p.move(to: try point(a, 2)) }
    },
    HostFunction(name: "line") { lua in build("line", lua) { a, p in p.line(to: try point(a, 2)) }
    },
    HostFunction(name: "quad") { lua in
      build("quad", lua) { a, p in p.quad(to: try point(a, 4), control: try point(a, 2)) }
    },
    HostFunction(name: "cubic") { lua in
      build("cubic", lua) { a, p in
        p.cubic(to: try point(a, 6), c1: try point(a, 2), c2: try point(a, 4))
      }
    },
    HostFunction(name: "arc") { lua in
      build("arc", lua) { a, p in
        let radius = try a.finite(4)
        guard radius >= 0 else { throw a.error(4, "radius must be >= 0, got \(radius)") }
        p.arc(
          center: try point(a, 2), radius: radius, startDegrees: try a.finite(5),
          endDegrees: try a.finite(6), clockwise: try a.boolean(7, default: false))
      }
    },
    HostFunction(name: "close") { lua in build("close", lua) { _, p in p.close() } },
    HostFunction(name: "rect") { lua in build("rect", lua) { a, p in p.addRect(try rect(a, 2)) } },
    HostFunction(name: "ellipse") { lua in
      build("ellipse", lua) { a, p in p.addEllipse(in: try rect(a, 2)) }
    },
    HostFunction(name: "append") { lua in
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
    HostFunction(name: "bounds") { lua in
      hostCall(lua, "bounds", method: true) { a in
        guard let b = try a.object(1, type).bounds else { return 0 }
        for v in [b.minX, b.minY, b.width, b.height] { a.push(v) }
        return 4
      }
    },
    HostFunction(name: "transformed") { lua in
      hostCall(lua, "transformed", method: true) { a in
        let t = AffineTransform(
          a: try a.finite(2), b: try a.finite(3), c: try a.finite(4), d: try a.finite(5),
          tx: try a.finite(6), ty: try a.finite(7))
        try push(a, try a.object(1, type).transformed(by: t))
        return 1
      }
    },
    HostFunction(name: "translated") { lua in
      hostCall(lua, "translated", method: true) { a in
        let t = AffineTransform.translation(try a.finite(2), try a.finite(3))
        try push(a, try a.object(1, type).transformed(by: t))
        return 1
      }
    },
    HostFunction(name: "scaled") { lua in
      hostCall(lua, "scaled", method: true) { a in
        let sx = try a.finite(2)
        let t = AffineTransform.scale(sx, a.isNoneOrNil(3) ? sx : try a.finite(3))
        try push(a, try a.object(1, type).transformed(by: t))
        return 1
      }
    },
    HostFunction(name: "rotated") { lua in
      hostCall(lua, "rotated", method: true) { a in
        let anchor = a.isNoneOrNil(3) ? Point.zero : try point(a, 3)
        let t = AffineTransform.about(anchor, .rotation(degrees: try a.finite(2)))
        try push(a, try a.object(1, type).transformed(by: t))
        return 1
      }
    },
    HostFunction(name: "trimmed") { lua in
      hostCall(lua, "trimmed", method: true) { a in
        let from = a.isNoneOrNil(2) ? 0 : try a.finite(2)
        let to = a.isNoneOrNil(3) ? 1 : try a.finite(3)
        try push(a, Trim(from: from, to: to).apply(to: try a.object(1, type)))
        return 1
      }
    },
    HostFunction(name: "length") { lua in
      hostCall(lua, "length", method: true) { a in
        a.push(try a.object(1, type).arcLength)
        return 1
      }
    },
    HostFunction(name: "contains") { lua in
      hostCall(lua, "contains", method: true) { a in
        let path = try a.object(1, type)
        try checkFlattenFits(
          a, path, tolerance: 0.25, bytesPerPoint: MemoryLayout<Point>.stride)
        a.push(path.contains(try point(a, 2)))
        return 1
      }
    },
    HostFunction(name: "flatten") { lua in
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
