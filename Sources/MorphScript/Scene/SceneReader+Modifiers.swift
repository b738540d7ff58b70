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
          alignment: try defaulted(anchor(r, "alignment"))))
    case "padding":
      return .padding(
        EdgeInsets(
          top: try defaulted(number(r, "top")), leading: try defaulted(number(r, "leading")),
          bottom: try defaulted(number(r, "bottom")),
          trailing: try defaulted(number(r, "trailing"))))
    case "offset": return .offset(try point(r))
    case "position": return .position(try point(r))
    case "scale":
      let p = try point(r)
      return .scale(x: p.x, y: p.y, anchor: try defaulted(anchor(r, "anchor")))
    case "rotate":
      return .rotate(
        degrees: try defaulted(number(r, "degrees")), anchor: try defaulted(anchor(r, "anchor")))
    case "rotate3d":
      return .rotate3D(
        degrees: try defaulted(number(r, "degrees")), axis: try defaulted(vector(r, "axis")),
        anchor: try defaulted(anchor(r, "anchor")),
        perspective: try defaulted(length(r, "perspective")))
    case "opacity": return .opacity(min(1, max(0, try defaulted(number(r, "alpha")))))
    case "fill": return .fill(try defaulted(paint(r, "paint")))
    case "stroke": return .stroke(try readStroke(r))
    case "strokeBorder": return .strokeBorder(try readStroke(r))
    case "transformEffect":
      let m = try matrix(r, "matrix", count: 6)
      return .transform(
        ProjectiveTransform(AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]))
      )
    case "projectionEffect":
      let m = try matrix(r, "matrix", count: 9)
      return .transform(
        ProjectiveTransform(
          m11: m[0], m12: m[1], m13: m[2], m21: m[3], m22: m[4], m23: m[5], m31: m[6], m32: m[7],
          m33: m[8]))
    case "redacted":
      _ = try defaulted(choice(r, "reason", as: RedactionReason.self))
      return .redacted
    case "shadow":
      return .shadow(
        Shadow(
          color: try defaulted(color(r, "color")), radius: try defaulted(length(r, "radius")),
          offset: try point(r)))
    case "clip": return .clip(try defaulted(shape(r, "shape")))
    case "trim":
      return .trim(Trim(from: try defaulted(number(r, "from")), to: try defaulted(number(r, "to"))))
    case "blur": return .blur(try defaulted(length(r, "radius")))
    case "blend": return .blend(try defaulted(choice(r, "mode", as: BlendMode.self)))
    case "group": return .compositingGroup
    case "z": return .zIndex(try defaulted(number(r, "index")))
    case "id": return .id(try defaulted(string(r, "name")))
    case "transition":
      return .transition(
        ViewTransition(
          insertion: try defaulted(effects(r, "insertion")),
          removal: try defaulted(effects(r, "removal"))))
    case "matchedGeometry":
      return .matchedGeometry(
        MatchedGeometryKey(
          id: try defaulted(string(r, "name")), namespace: try defaulted(string(r, "namespace"))))
    case "overlay", "background", "mask":
      guard let node = try node(r, "node") else { throw fail(r.path, "no node") }
      let alignment = try defaulted(anchor(r, "alignment"))
      switch r.op.name {
      case "overlay": return .overlay(node, alignment)
      case "mask": return .mask(node, alignment)
      default: return .background(node, alignment)
      }
    case "onTap": return .handlers(Handlers(tap: try handler(r, "handler")))
    case "onDrag": return .handlers(Handlers(drag: try handler(r, "handler")))
    case "onLongPress": return .handlers(Handlers(longPress: try handler(r, "handler")))
    case "onDoubleTap": return .handlers(Handlers(doubleTap: try handler(r, "handler")))
    case "onAppear": return .lifecycle(LifecycleHooks(appear: try handler(r, "handler")))
    case "onDisappear": return .lifecycle(LifecycleHooks(disappear: try handler(r, "handler")))
    default: throw fail(r.path, "unknown modifier '\(r.op.name)'")
    }
  }

  /// `x` and `y` (offset, position, scale, a shadow's offset).
  private func point(_ r: Record) throws(ScriptError) -> Point {
    Point(try defaulted(number(r, "x")), try defaulted(number(r, "y")))
  }

  /// A stroke: what the record leaves out takes the schema's defaults (`Stroke`'s).
  private func readStroke(_ r: Record) throws(ScriptError) -> Stroke {
    Stroke(
      paint: try defaulted(paint(r, "color")), width: try defaulted(length(r, "width")),
      dash: try lengths(r, "dash") ?? [], dashPhase: try defaulted(number(r, "dashPhase")),
      cap: try defaulted(choice(r, "cap", as: LineCap.self)),
      join: try defaulted(choice(r, "join", as: LineJoin.self)))
  }
}
