import MorphCore

/// Hot reload: new code, same state.
extension ComponentInstance {
  /// Everything a reload replaces, so a failed one can be undone.
  public struct Snapshot {
    let definition: LuaRef
    let instance: LuaRef
    let engine: AnimationEngine
    let declared: ComponentDefinition
    let transitions: TransitionTracker
    let pendingTransaction: Transaction?
  }

  public func snapshot() -> Snapshot {
    Snapshot(
      definition: definition, instance: instance, engine: engine, declared: declared,
      transitions: transitions, pendingTransaction: pendingTransaction)
  }

  /// Loads `source` as the component's new code in the same Lua state. State
  /// keys that still exist keep their model and presented values, velocity
  /// and running animations; new keys start at their initial value; then the
  /// component's `reload(self, old)` runs. On any error nothing changes.
  public func reload(source: String) throws(ScriptError) {
    try reload(source: Array(source.utf8))
  }

  /// `reload` with the source bytes as the file holds them.
  public func reload(source: [UInt8]) throws(ScriptError) {
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

  private func replaceCode(_ source: [UInt8]) throws(ScriptError) {
    let def = try definition(fromSource: source)
    let overrides = try parsedProps()
    let fresh = try located { () throws(ScriptError) in
      try runtime.instantiate(def, overrides: overrides)
    }
    // The old code's `save` runs against the old engine; numbers then carry
    // over in the engine itself, keys that are new (or changed kind) start
    // at their declared value.
    let (previous, saved) = try located { () throws(ScriptError) in
      try runtime.transfer(from: instance, to: fresh)
    }
    let numbers = try located { () throws(ScriptError) in try runtime.numbers(fresh) }
    var newEngine = engine
    for (key, value) in numbers where newEngine.target(key) == nil {
      newEngine.define(key, value: value)
    }
    newEngine.keep(only: Set(numbers.map(\.key)))
    definition = def
    instance = fresh
    engine = newEngine
    settleEngineMemory()
    try readDefinition()
    try located { () throws(ScriptError) in
      try runtime.reloadHook(fresh, previous: previous, saved: saved)
    }
    try runCompletions()
  }

  public func restore(_ s: Snapshot) {
    definition = s.definition
    instance = s.instance
    engine = s.engine
    transitions = s.transitions
    pendingTransaction = s.pendingTransaction
    settleEngineMemory()
    declared = s.declared
  }
}
