import CLua
import CMorphLua
import MorphCore

/// Reading `mods`: each record is `{ name, arg1, arg2, … }` as `Lua/nodes.lua`
/// appended it.
extension SceneReader {
  mutating func readModifiers(_ index: Int32, path: String) throws(ScriptError) -> [Modifier] {
    guard morph_rawgetfield(lua, index, "mods") == LUA_TTABLE else {
      morph_pop(lua, 1)
      return []
    }
    defer { morph_pop(lua, 1) }
    let mods = lua_gettop(lua)
    var result: [Modifier] = []
    for i in 0..<Int(lua_rawlen(lua, mods)) {
      guard lua_rawgeti(lua, mods, lua_Integer(i + 1)) == LUA_TTABLE else {
        morph_pop(lua, 1)
        throw fail(path, "modifier \(i + 1) is not a table")
      }
      defer { morph_pop(lua, 1) }
      let record = lua_gettop(lua)
      let name = arg(record, 0).flatMap { _ in state.stringValue(at: -1) } ?? ""
      morph_pop(lua, 1)
      let location = "\(path):\(name)"
      result.append(try readModifier(name, record, path: location))
    }
    return result
  }

  /// Pushes argument `k` (0 = the name) of a record; returns its type or nil for nil.
  func arg(_ record: Int32, _ k: Int) -> Int32? {
    let type = lua_rawgeti(lua, record, lua_Integer(k + 1))
    return type == LUA_TNIL ? nil : type
  }

  func numberArg(_ record: Int32, _ k: Int) -> Double? {
    defer { morph_pop(lua, 1) }
    guard arg(record, k) == LUA_TNUMBER else { return nil }
    return morph_tonumber(lua, -1)
  }

  func finiteArg(_ record: Int32, _ k: Int, path: String) throws(ScriptError) -> Double {
    guard let v = numberArg(record, k), v.isFinite else {
      throw fail(path, "argument \(k) must be a finite number")
    }
    return v
  }

  /// A size argument: nil, a number >= 0 (infinity allowed for max sizes).
  func sizeArg(_ record: Int32, _ k: Int, path: String) throws(ScriptError) -> Double? {
    guard let v = numberArg(record, k) else { return nil }
    guard !v.isNaN, v >= 0 else { throw fail(path, "argument \(k) must be >= 0") }
    return v
  }

  func stringArg(_ record: Int32, _ k: Int) -> String? {
    defer { morph_pop(lua, 1) }
    guard arg(record, k) == LUA_TSTRING else { return nil }
    return state.stringValue(at: -1)
  }

  func anchorArg(_ record: Int32, _ k: Int, path: String) throws(ScriptError) -> Alignment {
    _ = arg(record, k)
    defer { morph_pop(lua, 1) }
    return try readAnchor(-1, path: path)
  }

  /// A name (`"bottom"`) or `{x, y}`; nil means centre.
  func readAnchor(_ index: Int32, path: String) throws(ScriptError) -> Alignment {
    switch lua_type(lua, index) {
    case LUA_TNIL, LUA_TNONE: return .center
    case LUA_TSTRING:
      let name = state.stringValue(at: index)
      guard let match = Alignment.named.first(where: { $0.0 == name }) else {
        throw fail(path, "unknown anchor '\(name)'")
      }
      return match.1
    case LUA_TTABLE:
      let table = lua_absindex(lua, index)
      lua_rawgeti(lua, table, 1)
      lua_rawgeti(lua, table, 2)
      defer { morph_pop(lua, 2) }
      let x = morph_tonumber(lua, -2)
      let y = morph_tonumber(lua, -1)
      guard x.isFinite, y.isFinite else { throw fail(path, "anchor must be finite") }
      return Alignment(x: x, y: y)
    default:
      throw fail(path, "anchor expected")
    }
  }

  func paintArg(_ record: Int32, _ k: Int, path: String) throws(ScriptError) -> Paint {
    _ = arg(record, k)
    defer { morph_pop(lua, 1) }
    return try readPaint(-1, path: path)
  }

  /// A `morph.Color` or a gradient table from `morph.linearGradient`.
  func readPaint(_ index: Int32, path: String) throws(ScriptError) -> Paint {
    let index = lua_absindex(lua, index)
    if let color = ColorBindings.type.value(lua, at: index) { return .color(color) }
    guard lua_type(lua, index) == LUA_TTABLE,
      morph_rawgetfield(lua, index, "stops") == LUA_TTABLE
    else {
      morph_pop(lua, 1)
      throw fail(path, "colour or gradient expected, got \(typeName(index))")
    }
    let stopsTable = lua_gettop(lua)
    var stops: [LinearGradient.Stop] = []
    for i in 0..<Int(lua_rawlen(lua, stopsTable)) {
      lua_rawgeti(lua, stopsTable, lua_Integer(i + 1))
      let stop = lua_gettop(lua)
      lua_rawgeti(lua, stop, 1)
      let color = ColorBindings.type.value(lua, at: -1)
      lua_rawgeti(lua, stop, 2)
      let location = morph_tonumber(lua, -1)
      morph_pop(lua, 3)
      guard let color, location.isFinite else {
        throw fail(path, "gradient stop \(i + 1) is malformed")
      }
      stops.append(LinearGradient.Stop(color: color, location: location))
    }
    morph_pop(lua, 1)
    morph_rawgetfield(lua, index, "from")
    let start = try readAnchor(-1, path: path)
    morph_rawgetfield(lua, index, "to")
    let end = try readAnchor(-1, path: path)
    morph_pop(lua, 2)
    return .linearGradient(
      LinearGradient(stops: stops, start: Point(start.x, start.y), end: Point(end.x, end.y)))
  }

  mutating func nodeArg(_ record: Int32, _ k: Int, path: String) throws(ScriptError) -> ViewNode {
    _ = arg(record, k)
    defer { morph_pop(lua, 1) }
    return try read(-1, path: path)
  }

  /// Stores a handler function and returns its id.
  mutating func handlerArg(_ record: Int32, _ k: Int, path: String) throws(ScriptError) -> Int {
    guard arg(record, k) == LUA_TFUNCTION else {
      morph_pop(lua, 1)
      throw fail(path, "handler must be a function")
    }
    handlers.append(LuaRef(popping: state))
    return handlers.count - 1
  }

  private mutating func readModifier(_ name: String, _ r: Int32, path: String)
    throws(ScriptError) -> Modifier
  {
    switch name {
    case "frame":
      let spec = FrameSpec(
        width: try sizeArg(r, 1, path: path), height: try sizeArg(r, 2, path: path),
        minWidth: try sizeArg(r, 4, path: path), maxWidth: try sizeArg(r, 5, path: path),
        minHeight: try sizeArg(r, 6, path: path), maxHeight: try sizeArg(r, 7, path: path),
        alignment: try anchorArg(r, 3, path: path))
      for fixed in [spec.width, spec.height] {
        if let v = fixed, !v.isFinite { throw fail(path, "a fixed frame size must be finite") }
      }
      return .frame(spec)
    case "padding":
      return .padding(
        EdgeInsets(
          top: try finiteArg(r, 1, path: path), leading: try finiteArg(r, 2, path: path),
          bottom: try finiteArg(r, 3, path: path), trailing: try finiteArg(r, 4, path: path)))
    case "offset":
      return .offset(Point(try finiteArg(r, 1, path: path), try finiteArg(r, 2, path: path)))
    case "position":
      return .position(Point(try finiteArg(r, 1, path: path), try finiteArg(r, 2, path: path)))
    case "scale":
      return .scale(
        x: try finiteArg(r, 1, path: path), y: try finiteArg(r, 2, path: path),
        anchor: try anchorArg(r, 3, path: path))
    case "rotate":
      return .rotate(
        degrees: try finiteArg(r, 1, path: path), anchor: try anchorArg(r, 2, path: path))
    case "rotate3d":
      return .rotate3D(
        degrees: try finiteArg(r, 1, path: path),
        axis: Vector3(
          try finiteArg(r, 2, path: path), try finiteArg(r, 3, path: path),
          try finiteArg(r, 4, path: path)),
        anchor: try anchorArg(r, 5, path: path), perspective: try finiteArg(r, 6, path: path))
    case "opacity":
      return .opacity(min(1, max(0, try finiteArg(r, 1, path: path))))
    case "fill":
      return .fill(try paintArg(r, 1, path: path))
    case "stroke":
      return .stroke(try readStroke(r, path: path))
    case "shadow":
      guard case .color(let color) = try paintArg(r, 1, path: path) else {
        throw fail(path, "shadow colour must be a colour")
      }
      return .shadow(
        Shadow(
          color: color, radius: max(0, try finiteArg(r, 2, path: path)),
          offset: Point(try finiteArg(r, 3, path: path), try finiteArg(r, 4, path: path))))
    case "clip":
      _ = arg(r, 1)
      defer { morph_pop(lua, 1) }
      guard case .shape(let shape) = try read(-1, path: path).content else {
        throw fail(path, "clip needs a shape")
      }
      return .clip(shape)
    case "blend":
      guard let mode = stringArg(r, 1).flatMap(BlendMode.init(rawValue:)) else {
        throw fail(path, "unknown blend mode")
      }
      return .blend(mode)
    case "group": return .compositingGroup
    case "z": return .zIndex(try finiteArg(r, 1, path: path))
    case "id": return .id(stringArg(r, 1) ?? "")
    case "overlay":
      return .overlay(try nodeArg(r, 1, path: path), try anchorArg(r, 2, path: path))
    case "background":
      return .background(try nodeArg(r, 1, path: path), try anchorArg(r, 2, path: path))
    case "onTap": return .handlers(Handlers(tap: try handlerArg(r, 1, path: path)))
    case "onDrag": return .handlers(Handlers(drag: try handlerArg(r, 1, path: path)))
    case "onLongPress": return .handlers(Handlers(longPress: try handlerArg(r, 1, path: path)))
    case "onDoubleTap": return .handlers(Handlers(doubleTap: try handlerArg(r, 1, path: path)))
    default: throw fail(path, "unknown modifier '\(name)'")
    }
  }

  private func readStroke(_ r: Int32, path: String) throws(ScriptError) -> Stroke {
    let paint = try paintArg(r, 1, path: path)
    let width = max(0, try finiteArg(r, 2, path: path))
    var dash: [Double] = []
    if arg(r, 3) == LUA_TTABLE {
      let table = lua_gettop(lua)
      for i in 0..<Int(lua_rawlen(lua, table)) {
        lua_rawgeti(lua, table, lua_Integer(i + 1))
        let d = morph_tonumber(lua, -1)
        morph_pop(lua, 1)
        guard d.isFinite, d >= 0 else { throw fail(path, "dash lengths must be finite and >= 0") }
        dash.append(d)
      }
    }
    morph_pop(lua, 1)
    return Stroke(
      paint: paint, width: width, dash: dash, dashPhase: try finiteArg(r, 4, path: path),
      cap: stringArg(r, 5).flatMap(LineCap.init(rawValue:)) ?? .butt,
      join: stringArg(r, 6).flatMap(LineJoin.init(rawValue:)) ?? .miter)
  }
}
