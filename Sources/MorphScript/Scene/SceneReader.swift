import CLua
import CMorphLua
import MorphCore

/// Reads the node tree a chunk built (tables made by `Lua/nodes.lua`) into a
/// `ViewNode`. Raw access only, so a tampered tree can fail but never run
/// code; anything malformed is a `ScriptError` naming where in the tree.
struct SceneReader {
  let lua: OpaquePointer
  /// Handler functions found in the tree; a node's `Handlers` index into this.
  var handlers: [LuaRef] = []
  private var depth = 0
  private var count = 0

  static let maxDepth = 200
  static let maxNodes = 200_000

  init(lua: OpaquePointer) {
    self.lua = lua
  }

  var state: LuaState { LuaState.owner(of: lua) }

  func fail(_ path: String, _ message: String) -> ScriptError {
    ScriptError(kind: .value, message: "\(path): \(message)")
  }

  /// Whether the value at `index` is a node made by `morph`.
  func isNode(_ index: Int32) -> Bool {
    guard lua_type(lua, index) == LUA_TTABLE, lua_getmetatable(lua, index) != 0 else {
      return false
    }
    defer { morph_pop(lua, 2) }
    return morph_rawgetfield(lua, -1, "__name") == LUA_TSTRING
      && state.stringValue(at: -1) == "morph.Node"
  }

  /// Reads the node at `index` (a stack index).
  mutating func read(_ index: Int32, path: String) throws(ScriptError) -> ViewNode {
    let index = lua_absindex(lua, index)
    guard isNode(index) else {
      throw fail(path, "node expected, got \(typeName(index))")
    }
    depth += 1
    count += 1
    defer { depth -= 1 }
    guard depth <= Self.maxDepth else {
      throw fail(path, "node tree is deeper than \(Self.maxDepth) levels (a node inside itself?)")
    }
    guard count <= Self.maxNodes else {
      throw fail(path, "node tree has more than \(Self.maxNodes) nodes")
    }
    // Each level keeps a few values on the Lua stack; Lua only promises 20.
    guard lua_checkstack(lua, 16) != 0 else { throw fail(path, "node tree is too deep") }
    let content = try readContent(index, path: path)
    let modifiers = try readModifiers(index, path: path)
    return ViewNode(content, modifiers: modifiers)
  }

  func typeName(_ index: Int32) -> String {
    String(cString: lua_typename(lua, lua_type(lua, index)))
  }

  // MARK: Fields

  func string(_ table: Int32, _ key: String) -> String? {
    defer { morph_pop(lua, 1) }
    guard morph_rawgetfield(lua, table, key) == LUA_TSTRING else { return nil }
    return state.stringValue(at: -1)
  }

  func number(_ table: Int32, _ key: String) -> Double? {
    defer { morph_pop(lua, 1) }
    guard morph_rawgetfield(lua, table, key) == LUA_TNUMBER else { return nil }
    return morph_tonumber(lua, -1)
  }

  /// A finite number at `key`, or a clear error.
  func finite(_ table: Int32, _ key: String, path: String) throws(ScriptError) -> Double {
    guard let v = number(table, key), v.isFinite else {
      throw fail(path, "field '\(key)' must be a finite number")
    }
    return v
  }

  private mutating func readContent(_ index: Int32, path: String) throws(ScriptError)
    -> ViewContent
  {
    let kind = string(index, "kind") ?? ""
    switch kind {
    case "shape": return .shape(try readShape(index, path: path))
    case "text":
      let text = string(index, "text") ?? ""
      let size = try finite(index, "size", path: path)
      let weight = FontWeight(rawValue: string(index, "weight") ?? "") ?? .regular
      var color = Color.black
      if morph_rawgetfield(lua, index, "color") != LUA_TNIL {
        color = try readPaint(-1, path: path + ".color").representativeColor
      }
      morph_pop(lua, 1)
      return .text(TextRun(string: text, size: size, weight: weight, color: color))
    case "zstack", "vstack", "hstack":
      let axis: StackAxis = kind == "zstack" ? .z : kind == "vstack" ? .vertical : .horizontal
      let spacing = number(index, "spacing")
      morph_rawgetfield(lua, index, "alignment")
      let alignment = try readAnchor(-1, path: path)
      morph_pop(lua, 1)
      let children = try readChildren(index, path: path + "." + kind)
      return .stack(axis, spacing: spacing, alignment: alignment, children: children)
    case "empty": return .empty
    case "spacer": return .spacer(minLength: max(0, number(index, "minLength") ?? 0))
    default: throw fail(path, "unknown node kind '\(kind)'")
    }
  }

  private mutating func readChildren(_ index: Int32, path: String) throws(ScriptError)
    -> [ViewNode]
  {
    guard morph_rawgetfield(lua, index, "children") == LUA_TTABLE else {
      morph_pop(lua, 1)
      throw fail(path, "stack has no children table")
    }
    defer { morph_pop(lua, 1) }
    let table = lua_gettop(lua)
    let n = lua_rawlen(lua, table)
    var children: [ViewNode] = []
    children.reserveCapacity(Int(n))
    for i in 0..<Int(n) {
      lua_rawgeti(lua, table, lua_Integer(i + 1))
      defer { morph_pop(lua, 1) }
      children.append(try read(-1, path: "\(path)[\(i + 1)]"))
    }
    return children
  }

  private func readShape(_ index: Int32, path: String) throws(ScriptError) -> ShapeSpec {
    switch string(index, "shape") ?? "" {
    case "rect": return .rect
    case "circle": return .circle
    case "ellipse": return .ellipse
    case "capsule": return .capsule
    case "roundedRect":
      let radius = try finite(index, "radius", path: path)
      let style = CornerStyle(rawValue: string(index, "style") ?? "") ?? .continuous
      return .roundedRect(radius: max(0, radius), style: style)
    case "path":
      morph_rawgetfield(lua, index, "path")
      defer { morph_pop(lua, 1) }
      guard let p = PathBindings.type.value(lua, at: -1) else {
        throw fail(path, "custom shape has no morph.Path")
      }
      guard p.isFinite else { throw fail(path, "custom shape path has non-finite points") }
      return .path(p)
    case let other: throw fail(path, "unknown shape '\(other)'")
    }
  }
}
