import CLua
import CMorphLua
import MorphCore

/// Reading `mods`: each record is `{ op = "frame", width = …, … }` as
/// `Lua/nodes.lua` appended it, with the fields `NodeSchema` declares.
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
      guard let op = op(of: record), op.role == .modifier else {
        let name = opName(record)
        throw fail("\(path):\(name)", "unknown modifier '\(name)'")
      }
      result.append(try readModifier(Record(table: record, op: op, at: path)))
    }
    return result
  }

  private mutating func readModifier(_ r: Record) throws(ScriptError) -> Modifier {
    switch r.op.name {
    case "frame":
      return .frame(
        FrameSpec(
          width: try length(r, "width"), height: try length(r, "height"),
          minWidth: try extent(r, "minWidth"), maxWidth: try extent(r, "maxWidth"),
          minHeight: try extent(r, "minHeight"), maxHeight: try extent(r, "maxHeight"),
          alignment: try anchor(r, "alignment") ?? .center))
    case "padding":
      return .padding(
        EdgeInsets(
          top: try number(r, "top") ?? 0, leading: try number(r, "leading") ?? 0,
          bottom: try number(r, "bottom") ?? 0, trailing: try number(r, "trailing") ?? 0))
    case "offset": return .offset(try point(r))
    case "position": return .position(try point(r))
    case "scale":
      let p = try point(r)
      return .scale(x: p.x, y: p.y, anchor: try anchor(r, "anchor") ?? .center)
    case "rotate":
      return .rotate(
        degrees: try number(r, "degrees") ?? 0, anchor: try anchor(r, "anchor") ?? .center)
    case "rotate3d":
      return .rotate3D(
        degrees: try number(r, "degrees") ?? 0, axis: try vector(r, "axis") ?? Vector3(0, 1, 0),
        anchor: try anchor(r, "anchor") ?? .center, perspective: try length(r, "perspective") ?? 1)
    case "opacity": return .opacity(min(1, max(0, try number(r, "alpha") ?? 1)))
    case "fill": return .fill(try paint(r, "paint") ?? .color(.black))
    case "stroke": return .stroke(try readStroke(r))
    case "shadow":
      var shadow = Shadow(radius: try length(r, "radius") ?? 0)
      if let color = try color(r, "color") { shadow.color = color }
      shadow.offset = Point(try number(r, "x") ?? 0, try number(r, "y") ?? 0)
      return .shadow(shadow)
    case "clip": return .clip(try shape(r, "shape") ?? .rect)
    case "trim": return .trim(Trim(from: try number(r, "from") ?? 0, to: try number(r, "to") ?? 1))
    case "blur": return .blur(try length(r, "radius") ?? 0)
    case "blend": return .blend(try choice(r, "mode", as: BlendMode.self) ?? .normal)
    case "group": return .compositingGroup
    case "z": return .zIndex(try number(r, "index") ?? 0)
    case "id": return .id(try string(r, "name") ?? "")
    case "overlay", "background", "mask":
      guard let node = try node(r, "node") else { throw fail(r.path, "no node") }
      let alignment = try anchor(r, "alignment") ?? .center
      switch r.op.name {
      case "overlay": return .overlay(node, alignment)
      case "mask": return .mask(node, alignment)
      default: return .background(node, alignment)
      }
    case "onTap": return .handlers(Handlers(tap: try handler(r, "handler")))
    case "onDrag": return .handlers(Handlers(drag: try handler(r, "handler")))
    case "onLongPress": return .handlers(Handlers(longPress: try handler(r, "handler")))
    case "onDoubleTap": return .handlers(Handlers(doubleTap: try handler(r, "handler")))
    default: throw fail(r.path, "unknown modifier '\(r.op.name)'")
    }
  }

  /// `x` and `y` (offset, position, scale).
  private func point(_ r: Record) throws(ScriptError) -> Point {
    Point(try number(r, "x") ?? 0, try number(r, "y") ?? 0)
  }

  /// A stroke: what the record leaves out keeps `Stroke`'s defaults.
  private func readStroke(_ r: Record) throws(ScriptError) -> Stroke {
    var stroke = Stroke(paint: try paint(r, "color") ?? .color(.black))
    if let width = try length(r, "width") { stroke.width = width }
    if let dash = try lengths(r, "dash") { stroke.dash = dash }
    if let phase = try number(r, "dashPhase") { stroke.dashPhase = phase }
    if let cap = try choice(r, "cap", as: LineCap.self) { stroke.cap = cap }
    if let join = try choice(r, "join", as: LineJoin.self) { stroke.join = join }
    return stroke
  }
}
