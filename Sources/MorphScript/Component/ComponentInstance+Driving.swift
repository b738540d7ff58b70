import CLua
import CMorphLua
import MorphCore

/// Driving a component: time, frames, input, accessibility.
extension ComponentInstance {
  /// The on-screen value of a numeric state key at the current time.
  public func presented(_ key: String) -> Double? { engine.presented(key, at: time) }

  /// Where a numeric state key is headed.
  public func target(_ key: String) -> Double? { engine.target(key) }

  public var isAnimating: Bool { engine.isAnimating }

  /// The model value of any state key (numbers, strings, booleans, tables…).
  public func stateValue(_ key: String) -> LuaValue { targetLuaValue(key) }

  /// The progress value now (the progress key's presented value).
  public var progress: Double? { progressKey.flatMap(presented) }

  /// Moves the clock forward (never back) and runs completions that fell due.
  public func advance(to newTime: Double) throws(ScriptError) {
    guard newTime.isFinite else {
      throw ScriptError(kind: .value, message: "time must be finite, got \(newTime)")
    }
    time = max(time, newTime)
    let done = engineAdvance()
    // Only Lua code queues instant completions, so a quiet tick needs no call.
    if !done.isEmpty { try runCompletions(done) }
  }

  private func engineAdvance() -> [Int] {
    var copy = engine
    let done = copy.advance(to: time)
    replaceEngine(copy)
    return done
  }

  /// Controlled mode: puts the progress key at `value` with no animation.
  public func setProgress(_ value: Double) throws(ScriptError) {
    guard let key = progressKey else {
      throw ScriptError(
        kind: .value, chunk: path, message: "the component declares no 'progress' key")
    }
    guard value.isFinite else {
      throw ScriptError(kind: .value, message: "progress must be finite, got \(value)")
    }
    try setNumber(key, value)
  }

  /// Sets a numeric state key at once, as `self.key = value` would.
  public func setNumber(_ key: String, _ value: Double) throws(ScriptError) {
    syncPresented()
    try callRuntime("assign", [.table(instanceRef), .string(key), .number(value)])
    try runCompletions([])
  }

  /// The view tree for the current time.
  public func view() throws(ScriptError) -> SceneView {
    syncPresented()
    let node = try callRuntime("body", [.table(instanceRef)]).first ?? .nil
    return try state.readView(node, path: path)
  }

  /// The component's accessibility description, if it declares one.
  public func accessibility() throws(ScriptError) -> Accessibility? {
    syncPresented()
    guard case .table(let t)? = try callRuntime("accessibility", [.table(instanceRef)]).first
    else { return nil }
    let lua = state.lua
    state.push(t)
    defer { morph_pop(lua, 1) }
    func text(_ key: String) -> String? {
      defer { morph_pop(lua, 1) }
      let type = morph_rawgetfield(lua, -1, key)
      return type == LUA_TSTRING || type == LUA_TNUMBER ? state.stringValue(at: -1) : nil
    }
    var result = Accessibility(label: text("label"), value: text("value"), hint: text("hint"))
    if morph_rawgetfield(lua, -1, "traits") == LUA_TTABLE {
      for i in 0..<Int(lua_rawlen(lua, -1)) {
        lua_rawgeti(lua, -1, lua_Integer(i + 1))
        if lua_type(lua, -1) == LUA_TSTRING { result.traits.append(state.stringValue(at: -1)) }
        morph_pop(lua, 1)
      }
    }
    morph_pop(lua, 1)
    return result
  }

  /// Calls a node's handler (from the last `view()`).
  public func handle(_ handler: LuaRef, _ event: InputEvent) throws(ScriptError) {
    syncPresented()
    try callRuntime("handler", [.table(instanceRef), .function(handler), eventTable(event)])
    try runCompletions([])
  }

  /// Calls the component's own `tap` or `drag`; returns false when it has none.
  @discardableResult
  public func handle(component name: String, _ event: InputEvent) throws(ScriptError) -> Bool {
    guard hasHandler(name) else { return false }
    syncPresented()
    try callRuntime("call", [.table(instanceRef), .string(name), eventTable(event)])
    try runCompletions([])
    return true
  }

  public func hasHandler(_ name: String) -> Bool {
    let lua = state.lua
    state.push(definitionRef)
    defer { morph_pop(lua, 2) }
    return morph_rawgetfield(lua, -1, name) == LUA_TFUNCTION
  }

  /// Writes the presented value of every animating key into Lua.
  func syncPresented() {
    let lua = state.lua
    state.push(instanceRef)
    morph_rawgetfield(lua, -1, "presented")
    for key in engine.animatingKeys {
      lua_pushnumber(lua, engine.presented(key, at: time) ?? 0)
      morph_rawsetfield(lua, -2, key)
    }
    // Keys that just settled show their target exactly.
    for (key, channel) in engine.channels where !channel.isAnimating {
      lua_pushnumber(lua, channel.target)
      morph_rawsetfield(lua, -2, key)
    }
    morph_pop(lua, 2)
  }

  /// Runs completion callbacks (and those queued by instant changes) until
  /// none are left; a callback may animate again.
  func runCompletions(_ ids: [Int]) throws(ScriptError) {
    var batch = ids + takeCompleted()
    var rounds = 0
    while true {
      syncPresented()
      try callRuntime("complete", [.table(instanceRef), state.makeArray(batch)])
      batch = takeCompleted()
      rounds += 1
      let pending = try callRuntime("has_pending", [.table(instanceRef)]).first
      if batch.isEmpty, case .boolean(false)? = pending { return }
      guard rounds < 100 else {
        throw ScriptError(
          kind: .runtime, chunk: path,
          message: "completion callbacks kept finishing at once (100 rounds)")
      }
    }
  }

  /// The event as the Lua table handlers receive.
  func eventTable(_ e: InputEvent) throws(ScriptError) -> LuaValue {
    let code = """
      local phase, x, y, sx, sy, tx, ty, vx, vy, px, py, t = ...
      return {
        phase = phase, x = x, y = y, time = t,
        location = { x = x, y = y }, startLocation = { x = sx, y = sy },
        translation = { x = tx, y = ty }, velocity = { x = vx, y = vy },
        predictedEndTranslation = { x = px, y = py },
      }
      """
    if eventBuilder == nil { eventBuilder = try state.load(code, chunkName: "=event") }
    guard let builder = eventBuilder else { return .nil }
    let p = e.predictedEndTranslation
    let phase: LuaValue = e.phase.map { .string($0.rawValue) } ?? .nil
    let numbers = [
      e.location.x, e.location.y, e.startLocation.x, e.startLocation.y, e.translation.x,
      e.translation.y, e.velocity.x, e.velocity.y, p.x, p.y, e.time,
    ].map { LuaValue.number($0) }
    return try state.call(builder, [phase] + numbers).first ?? .nil
  }
}
