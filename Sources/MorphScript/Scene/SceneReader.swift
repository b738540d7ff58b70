import CLua
import CMorphLua
import MorphCore

/// Reads the node tree a chunk built (records made by `Lua/nodes.lua`, laid
/// out as `NodeSchema` declares) into a `ViewNode`. Raw access only, so a
/// tampered tree can fail but never run code; anything malformed is a
/// `ScriptError` naming where in the tree and which field.
struct SceneReader {
  let lua: OpaquePointer
  /// Where `NodeSchema.pushOpNumbers`' table sits on the stack while reading.
  let opNumbers: Int32
  /// Handler functions found in the tree; a node's `Handlers` index into this.
  var handlers: [LuaRef] = []
  private var depth = 0
  private var count = 0

  static let maxDepth = 200
  static let maxNodes = 200_000

  /// A reader of trees needs `opNumbers`; one that only asks `isNode` does not.
  init(lua: OpaquePointer, opNumbers: Int32 = 0) {
    self.lua = lua
    self.opNumbers = opNumbers
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
    guard let op = op(of: index), op.role == .node || op.role == .shape else {
      throw fail(path, "unknown node '\(opName(index))'")
    }
    let record = Record(table: index, op: op, at: path)
    let content = try readContent(record)
    let modifiers = try readModifiers(index, path: path)
    return ViewNode(content, modifiers: modifiers)
  }

  /// The declared op of the record at `index`, found through the Lua table
  /// of op numbers (no Swift string is made on this path).
  func op(of index: Int32) -> NodeSchema.Op? {
    guard morph_rawgetfield(lua, index, "op") == LUA_TSTRING else {
      morph_pop(lua, 1)
      return nil
    }
    lua_rawget(lua, opNumbers)
    defer { morph_pop(lua, 1) }
    return NodeSchema.op(number: Int(morph_tointeger(lua, -1)))
  }

  /// The `op` of the record at `index`, or "" when it has none (for messages).
  func opName(_ index: Int32) -> String {
    defer { morph_pop(lua, 1) }
    guard morph_rawgetfield(lua, index, "op") == LUA_TSTRING else { return "" }
    return state.stringValue(at: -1)
  }

  /// Lua's type name, or the value itself for numbers (so `nan` and `-5.0` show).
  func typeName(_ index: Int32) -> String {
    if lua_type(lua, index) == LUA_TNUMBER {
      let value = morph_tonumber(lua, index)
      return value.isNaN ? "nan" : "\(value)"
    }
    return String(cString: lua_typename(lua, lua_type(lua, index)))
  }

  private mutating func readContent(_ r: Record) throws(ScriptError) -> ViewContent {
    switch r.op.name {
    case "rect", "circle", "ellipse", "capsule", "roundedRect", "shape":
      return .shape(try readShape(r))
    case "text": return .text(try readText(r))
    case "zstack", "vstack", "hstack":
      let axis: StackAxis =
        r.op.name == "zstack" ? .z : r.op.name == "vstack" ? .vertical : .horizontal
      return .stack(
        axis, spacing: try length(r, "spacing"), alignment: try defaulted(anchor(r, "alignment")),
        children: try children(r, "children"))
    case "image":
      guard let source = try image(r, "source") else { throw fail(r.path, "image has no source") }
      return .image(
        ImageSpec(
          source: source, resizable: try defaulted(boolean(r, "resizable")),
          contentMode: try choice(r, "contentMode", as: ContentMode.self),
          interpolation: try defaulted(choice(r, "interpolation", as: ImageInterpolation.self))))
    case "empty": return .empty
    case "spacer": return .spacer(minLength: try defaulted(length(r, "minLength")))
    default: throw fail(r.path, "unknown node '\(r.op.name)'")
    }
  }

  /// A text node's string and style; `measureText` reads its style with this too.
  func readText(_ r: Record) throws(ScriptError) -> TextRun {
    var run = TextRun(
      string: try defaulted(string(r, "text")), style: try choice(r, "style", as: TextStyle.self),
      size: try fontSize(r, "size"), weight: try choice(r, "weight", as: FontWeight.self),
      color: try defaulted(paint(r, "color")).representativeColor)
    run.italic = try defaulted(flag(r, "italic"))
    run.monospacedDigit = try defaulted(flag(r, "monospacedDigit"))
    // UIKit's rule: tracking wins over kerning when both are given.
    let kerning = try number(r, "kerning")
    run.tracking = try number(r, "tracking") ?? kerning ?? 0
    run.lineSpacing = try defaulted(length(r, "lineSpacing"))
    run.lineLimit = try count(r, "lineLimit")
    run.truncation = try defaulted(choice(r, "truncation", as: TextTruncation.self))
    run.alignment = try defaulted(choice(r, "alignment", as: TextAlignment.self))
    return run
  }

  /// A shape node's outline (also what `clip` reads from its shape node).
  func readShape(_ r: Record) throws(ScriptError) -> ShapeSpec {
    switch r.op.name {
    case "rect": return .rect
    case "circle": return .circle
    case "ellipse": return .ellipse
    case "capsule": return .capsule
    case "roundedRect":
      return .roundedRect(
        radius: try defaulted(length(r, "radius")),
        style: try defaulted(choice(r, "style", as: CornerStyle.self)))
    case "shape":
      if let p = try path(r, "path") { return .path(p) }
      guard let resolve = try function(r, "resolve") else {
        throw fail(r.path, "custom shape has no path")
      }
      // Layout calls it with the shape's frame, under the plugin's limits.
      return .custom(
        ShapeFunction { [weak state] size throws(SceneError) in
          guard let state else { throw SceneError("the plugin's Lua state is gone") }
          return try state.shapePath(resolve, in: size)
        })
    default: throw fail(r.path, "'\(r.op.name)' is not a shape")
    }
  }
}
