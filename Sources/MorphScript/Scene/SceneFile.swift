import CLua
import CMorphLua
import Foundation
import MorphCore

/// A Lua file that describes a scene without behaviour: it returns a node,
/// or a table `{ name = , size = {w, h}, body = node | function(progress) }`.
/// The component model builds on the same reading.
public final class SceneFile {
  public let path: String

  /// Where its `body` function was written (the file alone for a node): what an error of
  /// the whole frame (the frame budget) is placed at.
  public var bodyLocation: FilePosition {
    guard case .function(let ref) = body else { return FilePosition(file: path) }
    return state.definition(of: ref) ?? FilePosition(file: path)
  }
  public let state: LuaState
  public private(set) var name: String
  /// The canvas the scene declares (default `DocumentDefaults.size`).
  public private(set) var size: Size
  private var body: LuaValue

  /// Loads and runs the file once. Errors carry `path:line`.
  public convenience init(path: String, limits: ScriptLimits = .standard) throws(ScriptError) {
    try self.init(file: try ScriptFile(path: path, limits: limits))
  }

  /// The scene a file that already ran returned.
  init(file: ScriptFile) throws(ScriptError) {
    path = file.path
    state = file.state
    name = BundledPlugins.baseName(ofPath: path)
    size = DocumentDefaults.size
    body = .nil
    try adopt(file.result)
  }

  private func adopt(_ value: LuaValue) throws(ScriptError) {
    guard case .table(let ref) = value else {
      throw ScriptError(
        kind: .value, chunk: path,
        message:
          "the file must return morph.component{ … }, a node or a scene table, got \(value.typeName)"
      )
    }
    let lua = state.lua
    state.push(ref)
    defer { morph_pop(lua, 1) }
    if SceneReader(lua: lua).isNode(-1) {
      body = value
      return
    }
    if morph_rawgetfield(lua, -1, "name") == LUA_TSTRING { name = state.stringValue(at: -1) }
    morph_pop(lua, 1)
    if morph_rawgetfield(lua, -1, "size") == LUA_TTABLE {
      let (w, h) = state.numberPair(at: -1)
      guard w.isFinite, h.isFinite, w > 0, h > 0 else {
        morph_pop(lua, 1)
        throw ScriptError(kind: .value, chunk: path, message: "size must be {width, height} > 0")
      }
      size = Size(w, h)
    }
    morph_pop(lua, 1)
    morph_rawgetfield(lua, -1, "body")
    body = state.value(at: -1)
    morph_pop(lua, 1)
    switch body {
    case .function: return
    case .table(let r):
      state.push(r)
      defer { morph_pop(lua, 1) }
      if SceneReader(lua: lua).isNode(-1) { return }
    default: break
    }
    throw ScriptError(
      kind: .value, chunk: path, message: "scene table needs a 'body' (a node or a function)")
  }

  /// The view tree at `progress` (passed to a `body` function), with the
  /// handler functions the tree refers to.
  public func view(progress: Double = 0) throws(ScriptError) -> SceneView {
    try state.readView(try bodyValue(progress: progress), path: path, body: bodyLocation)
  }

  /// What `body` gives at `progress`, still in Lua (benchmarks time it alone).
  public func bodyValue(progress: Double) throws(ScriptError) -> LuaValue {
    guard case .function(let f) = body else { return body }
    do {
      return try state.call(f, [.number(progress)]).first ?? .nil
    } catch {
      throw error.locatedIn(path)
    }
  }
}

/// A view tree read from Lua, with the handlers its nodes point at.
public struct SceneView {
  public var root: ViewNode
  public var handlers: [LuaRef]
}

extension LuaState {
  /// Reads a node tree from a Lua value into Swift.
  /// `body`, when given, is where the body function was written: a value that is no
  /// node is blamed on it (nil most often means a `return` is missing).
  public func readView(_ value: LuaValue, path: String, body: FilePosition? = nil)
    throws(ScriptError) -> SceneView
  {
    guard case .table(let ref) = value else {
      let hint = value.typeName == "nil" ? " (is its `return` missing?)" : ""
      throw ScriptError(
        kind: .value, chunk: body?.file ?? path, line: body?.line,
        message: "body must return a node, got \(value.typeName)\(hint)")
    }
    guard let nodeOpNumbers else {
      throw ScriptError(kind: .runtime, message: "the node schema is not installed")
    }
    push(ref)
    push(nodeOpNumbers)
    defer { morph_pop(lua, 2) }
    var reader = SceneReader(lua: lua, opNumbers: lua_gettop(lua))
    do {
      let root = try reader.read(-2, path: "body")
      return SceneView(root: root, handlers: reader.handlers)
    } catch {
      throw error.locatedIn(path)
    }
  }
}

extension LuaState {
  /// The modifiers a custom transition's function (`m.transition.custom`, wrapped by
  /// `Lua/nodes.lua`) puts on a probe node at `phase`; its failure names the plugin's line.
  func transitionModifiers(_ function: LuaRef, phase: Double) throws(SceneError) -> [Modifier] {
    do throws(ScriptError) {
      guard case .table(let probe)? = try call(function, [.number(phase)]).first,
        let nodeOpNumbers
      else { throw ScriptError(kind: .value, message: "custom transition returned no node") }
      push(probe)
      push(nodeOpNumbers)
      defer { morph_pop(lua, 2) }
      var reader = SceneReader(lua: lua, opNumbers: lua_gettop(lua))
      return try reader.readModifiers(lua_gettop(lua) - 1, path: "transition")
    } catch {
      throw SceneError(error.message, at: error.location)
    }
  }
}

extension LuaValue {
  /// Lua's name for the value's type.
  public var typeName: String {
    switch self {
    case .nil: return "nil"
    case .boolean: return "boolean"
    case .number, .integer: return "number"
    case .string: return "string"
    case .table: return "table"
    case .function: return "function"
    case .other: return "userdata"
    }
  }
}

extension ScriptError {
  /// The error with `path` as its chunk when Lua could not tell where it happened.
  func locatedIn(_ path: String) -> ScriptError {
    var located = self
    if located.chunk == nil { located.chunk = path }
    return located
  }
}
