import MorphCore

/// Driving a component: time, frames, input, accessibility.
extension ComponentInstance {
  /// The on-screen value of a numeric state key at the current time.
  public func presented(_ key: String) -> Double? { engine.presented(key, at: time) }

  /// Where a numeric state key is headed.
  public func target(_ key: String) -> Double? { engine.target(key) }

  /// Whether the picture may change with time alone: an animation runs, or
  /// the body reads the clock.
  public var isAnimating: Bool { engine.isAnimating || transitions.isAnimating || readsClock }

  /// Whether something is moving that will come to rest by itself: what
  /// waiting to settle waits for. Deliberately endless motion — a
  /// `repeatForever`, an undamped spring, a body that reads `self.time` — is
  /// not.
  public var isSettling: Bool { engine.hasFiniteAnimation || transitions.hasFiniteAnimation }

  /// Whether the component moves forever on purpose.
  public var isContinuous: Bool { engine.hasEndlessAnimation || readsClock }

  /// The model value of any state key (numbers, strings, booleans, tables…).
  public func stateValue(_ key: String) -> LuaValue {
    if let number = engine.target(key) { return .number(number) }
    return (try? runtime.value(instance, key)) ?? .nil
  }

  /// The progress value now (the progress key's presented value).
  public var progress: Double? { progressKey.flatMap(presented) }

  /// Moves the clock forward (never back) and runs completions that fell due.
  ///
  /// Time is the only input to what is drawn: the clock stops at each moment an
  /// animation or a transition ends on the way, and runs that moment's `done`
  /// callbacks and `onDisappear` hooks there, so what they start is timed from the
  /// logical end, not from whichever sample (a tick, a frame, a test's moment) came
  /// next. Reading the state at more moments, or fewer, changes nothing.
  public func advance(to newTime: Double) throws(ScriptError) {
    guard newTime.isFinite else {
      throw ScriptError(kind: .value, message: "time must be finite, got \(newTime)")
    }
    let end = max(time, newTime)
    var rounds = 0
    while let due = nextEnd(through: end) {
      // An end at the moment the clock already stands on is a zero-length animation
      // started by a callback: a chain of them must not loop forever.
      if due <= time {
        rounds += 1
        guard rounds < Self.maxRoundsAtOneMoment else {
          throw ScriptError(
            kind: .runtime, chunk: path,
            message:
              "animations kept ending at once at \(time) s (\(Self.maxRoundsAtOneMoment) rounds)")
        }
      } else {
        rounds = 0
      }
      try step(to: due)
    }
    try step(to: end)
  }

  /// How many rounds of completions may follow each other at one moment.
  static let maxRoundsAtOneMoment = 100

  /// The earliest end of an animation or transition by `time`.
  private func nextEnd(through time: Double) -> Double? {
    switch (engine.nextEnd(through: time), transitions.nextEnd(through: time)) {
    case (let a?, let b?): return min(a, b)
    case (let a?, nil): return a
    case (nil, let b): return b
    }
  }

  /// Puts the clock at `moment` and runs what falls due there.
  private func step(to moment: Double) throws(ScriptError) {
    time = max(time, moment)
    completed += engine.advance(to: time)
    transitions.advance(to: time)
    settleEngineMemory()
    // Only completion callbacks and the `onDisappear` of nodes whose removal just ended
    // need Lua, so a quiet tick makes no call.
    if !lifecycle.isEmpty {
      _ = try runHooks(lifecycle.ended(leaving: Set(transitions.leavingIDs)))
    }
    try runCompletions()
    meetChange()
  }

  /// SwiftUI updates the body after each state change, so a change of structure starts
  /// its transition, and the `onAppear` of a node it inserts runs, at the moment of the
  /// change, whether or not a frame is drawn before the next one (`render --time` draws
  /// one frame only; a test reads the state at its own moments).
  func meetChange() {
    guard pendingTransaction != nil else { return }
    runBody()
  }

  /// Runs a body, with the hooks its change of structure sets off, and lays it out
  /// (`layOut`) without drawing it.
  /// A body that fails here fails again, and is reported, at the next frame.
  func runBody() {
    let failures = hookFailures
    do {
      let view = try view()
      if let layOut { layOut(view) } else { unlaidView = view }
    } catch {
      // A hook runs once: its failure waits for the next frame to be reported (a body's
      // fails again there by itself).
      if hookFailures != failures { unreportedFailure = error }
    }
  }

  /// Controlled mode: puts the progress key at `value` with no animation,
  /// then runs the component's `controlled(self, value)` if it has one (as
  /// a parent writing a binding would); without one, no Lua runs.
  public func setProgress(_ value: Double) throws(ScriptError) {
    guard let key = progressKey else {
      throw ScriptError(
        kind: .value, chunk: path,
        message:
          "the component declares no 'progress' key: play it in time instead (render --time T, "
          + "export --duration S), or declare `progress = \"key\"` naming a number in state")
    }
    try setNumber(key, value)
    if hasController {
      try transacting { () throws(ScriptError) in
        try runtime.callHandler(instance, named: "controlled", .number(value))
      }
      try runCompletions()
    }
  }

  /// Sets a numeric state key at once, as `self.key = value` would: one
  /// engine call, and Lua only for the completions it causes.
  public func setNumber(_ key: String, _ value: Double) throws(ScriptError) {
    guard value.isFinite else {
      throw ScriptError(kind: .value, message: "\(key) must be finite, got \(value)")
    }
    guard engine.target(key) != nil else {
      let declared = engine.channels.keys.sorted().joined(separator: ", ")
      throw ScriptError(
        kind: .value, chunk: path,
        message: "no numeric state key '\(key)'; numeric keys: \(declared)")
    }
    setState(key, to: value)
    try runCompletions()
  }

  /// The view tree for the current time.
  public func view() throws(ScriptError) -> SceneView {
    try hooked { () throws(ScriptError) in
      let node = try located { () throws(ScriptError) in try runtime.body(instance) }
      return (try state.readView(node, path: path, body: bodyLocation), ())
    }.view
  }

  /// How many bodies one frame may run while `onAppear`/`onDisappear` handlers keep
  /// changing state.
  static let maxHookRounds = 100

  /// A body read by `read`, with its transitions, and the `onAppear`/`onDisappear` its
  /// change of structure sets off run as transactions. SwiftUI's `onAppear` completes
  /// before the first frame is drawn, so when they change state the body runs again and
  /// the frame shows it.
  private func hooked<T>(_ read: () throws(ScriptError) -> (SceneView, T))
    throws(ScriptError) -> (view: SceneView, extra: T)
  {
    if let failure = unreportedFailure {
      unreportedFailure = nil
      throw failure
    }
    for _ in 0..<Self.maxHookRounds {
      readsClock = false
      readsSize = false
      let (raw, extra) = try read()
      let view = try transitioned(raw)
      let hooked = raw.root.hasLifecycleHooks
      guard !isUnloaded, hooked || !lifecycle.isEmpty else { return (view, extra) }
      let due = lifecycle.update(
        hooked ? raw.root.lifecycleSites : [], handlers: raw.handlers,
        leaving: Set(transitions.leavingIDs))
      guard try runHooks(due) else { return (view, extra) }
    }
    // Reported once, as a failing hook is: the next frame does not go round again.
    hookFailures += 1
    throw ScriptError(
      kind: .runtime, chunk: path,
      message:
        "onAppear/onDisappear kept changing state (\(Self.maxHookRounds) bodies in one frame)")
  }

  /// Runs `onAppear`/`onDisappear` handlers as one transaction, and the completions they
  /// cause; returns whether they changed state. All run even when one fails; the
  /// first error is thrown after them.
  func runHooks(_ hooks: [LuaRef]) throws(ScriptError) -> Bool {
    guard !hooks.isEmpty else { return false }
    // A change still waiting for its body stays pending unless a hook changes state.
    let earlier = pendingTransaction
    pendingTransaction = nil
    // What the body read: a hook reading `self.time` or `self.size` runs once, so the
    // picture does not follow the clock or the offer for it.
    let (bodyReadsClock, bodyReadsSize) = (readsClock, readsSize)
    defer { (readsClock, readsSize) = (bodyReadsClock, bodyReadsSize) }
    var failure: ScriptError?
    // One transaction for all of them, as the hooks of one update are: one hook's plain
    // assignment does not take another's animation from the change of structure.
    try transacting { () throws(ScriptError) in
      for hook in hooks {
        do throws(ScriptError) {
          try located { () throws(ScriptError) in try runtime.callHook(instance, hook) }
        } catch {
          failure = failure ?? error
        }
      }
    }
    defer { if pendingTransaction == nil { pendingTransaction = earlier } }
    try runCompletions()
    if let failure {
      hookFailures += 1
      throw failure
    }
    return pendingTransaction != nil
  }

  /// `view` with the transitions its change of structure starts or continues; the
  /// pending transaction is spent on it.
  private func transitioned(_ view: SceneView) throws(ScriptError) -> SceneView {
    var view = view
    let transaction = pendingTransaction
    pendingTransaction = nil
    do {
      view.root = try transitions.resolve(view.root, transaction: transaction, at: time)
    } catch {
      // A custom transition's function failed: its own line, else the plugin.
      throw ScriptError(
        kind: .runtime, chunk: error.location?.file ?? path, line: error.location?.line,
        message: error.message)
    }
    return view
  }

  /// Gives the component the layout of the host that draws it, and lays out with it the
  /// body the component ran at load (no second run): matched geometry then has the frames
  /// of every moment a change happens at (load included), so a glide starts from where the
  /// node was at that moment, never from whichever frame a sampler drew last
  /// (docs/motion.md).
  public func attachLayout(_ layOut: @escaping (SceneView) -> Void) {
    self.layOut = layOut
    if let view = unlaidView { layOut(view) }
    unlaidView = nil
  }

  /// Runs a layout of the last view with the matched geometry its transactions move.
  public func layingOut<T>(_ body: (inout MatchedGeometry) throws(SceneError) -> T)
    throws(SceneError) -> T
  {
    try body(&transitions.geometry)
  }

  /// The view tree and the accessibility description for the current
  /// time, from one call into Lua.
  public func frameContent() throws(ScriptError) -> (view: SceneView, accessibility: Accessibility?)
  {
    let (view, accessibility) = try hooked { () throws(ScriptError) in
      let (node, accessibility) = try located { () throws(ScriptError) in
        try runtime.frame(instance)
      }
      return (try state.readView(node, path: path, body: bodyLocation), accessibility)
    }
    return (view, accessibility)
  }

  /// The component's accessibility description, if it declares one.
  public func accessibility() throws(ScriptError) -> Accessibility? {
    try located { () throws(ScriptError) in try runtime.accessibility(instance) }
  }

  /// Calls a node's handler (from the last `view()`).
  public func handle(_ handler: LuaRef, _ event: InputEvent) throws(ScriptError) {
    try transacting { () throws(ScriptError) in
      try runtime.callHandler(instance, handler, event)
    }
    try runCompletions()
    meetChange()
  }

  /// Calls the component's own `tap` or `drag`; returns false when it has none.
  @discardableResult
  public func handle(component name: String, _ event: InputEvent) throws(ScriptError) -> Bool {
    guard hasHandler(name) else { return false }
    try transacting { () throws(ScriptError) in
      try runtime.callHandler(instance, named: name, event)
    }
    try runCompletions()
    meetChange()
    return true
  }

  public func hasHandler(_ name: String) -> Bool { runtime.hasFunction(definition, name) }

  /// Runs completion callbacks until none are left; a callback may animate
  /// again, and an animation that completes at once runs its callback here.
  func runCompletions() throws(ScriptError) {
    var rounds = 0
    while !completed.isEmpty {
      let batch = completed.filter { awaited.remove($0) != nil }
      completed = []
      guard !batch.isEmpty else { break }
      try transacting { () throws(ScriptError) in try runtime.complete(instance, batch) }
      rounds += 1
      guard rounds < 100 else {
        throw ScriptError(
          kind: .runtime, chunk: path,
          message: "completion callbacks kept finishing at once (100 rounds)")
      }
    }
  }
}
