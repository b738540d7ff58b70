import CLua
import CMorphLua
import MorphCore

/// Hot reload: new code, same state.
extension ComponentInstance {
  /// Everything a reload replaces, so a failed one can be undone.
  public struct Snapshot {
    let definition: LuaRef
    let instance: LuaRef
    let engine: AnimationEngine
    let name: String
    let size: Size
    let progressKey: String?
    let summary: String?
  }

  public func snapshot() -> Snapshot {
    Snapshot(
      definition: definitionRef, instance: instanceRef, engine: engine, name: name, size: size,
      progressKey: progressKey, summary: summary)
  }

  /// Loads `source` as the component's new code in the same Lua state. State
  /// keys that still exist keep their model and presented values, velocity
  /// and running animations; new keys start at their initial value; then the
  /// component's `reload(self, old)` runs. On any error nothing changes.
  public func reload(source: String) throws(ScriptError) {
    let before = snapshot()
    let imported = state.importedFiles
    do {
      // Edited modules must be read again; a failed reload keeps the old list.
      try state.forgetImports()
      try replaceCode(source)
    } catch {
      restore(before)
      state.importedFiles = imported
      throw error
    }
  }

  private func replaceCode(_ source: String) throws(ScriptError) {
    let old = instanceRef
    let oldEngine = engine
    let chunk = try state.load(source, chunkName: path)
    guard case .table(let def) = try state.call(chunk).first ?? .nil else {
      throw ScriptError(
        kind: .value, chunk: path, message: "the plugin must return morph.component{ … }")
    }
    let overrides = try parsedProps()
    let fresh = try callRuntimeRef(
      "instantiate", [.table(def), overrides, .boolean(reduceMotion)])
    let results = try callRuntime("transfer", [.table(old), .table(fresh)])
    let carried = stringList(results.first ?? .nil)
    adopt(definition: def, instance: fresh)
    var newEngine = AnimationEngine(continuingFrom: oldEngine)
    for key in try numericKeys() where !carried.contains(key) {
      newEngine.define(key, value: targetValue(key) ?? 0)
    }
    newEngine.keep(only: Set(try numericKeys()))
    replaceEngine(newEngine)
    let previous = results.count > 1 ? results[1] : .nil
    let saved = results.count > 2 ? results[2] : .nil
    try callRuntime("reload_hook", [.table(fresh), previous, saved])
    try runCompletions([])
  }

  public func restore(_ s: Snapshot) {
    adopt(definition: s.definition, instance: s.instance)
    replaceEngine(s.engine)
  }

  private func stringList(_ value: LuaValue) -> [String] {
    guard case .table(let t) = value else { return [] }
    state.push(t)
    defer { morph_pop(state.lua, 1) }
    return (0..<Int(lua_rawlen(state.lua, -1))).map { i in
      lua_rawgeti(state.lua, -1, lua_Integer(i + 1))
      defer { morph_pop(state.lua, 1) }
      return state.stringValue(at: -1)
    }
  }
}

extension AnimationEngine {
  /// A copy that keeps every channel and the completion bookkeeping.
  public init(continuingFrom other: AnimationEngine) {
    self = other
  }
}
