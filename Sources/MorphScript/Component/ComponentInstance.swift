import CMorphLua
import Foundation
import MorphCore

/// How to start a component.
public struct ComponentOptions: Sendable {
  /// Prop overrides as (key, value) pairs; values are Lua literals or JSON, else plain strings.
  public var props: [(key: String, value: String)]
  public var reduceMotion: Bool
  public var limits: ScriptLimits
  /// Where the plugin's `print` writes, from its first line on; nil keeps the
  /// Lua state's default. A host whose standard output carries data (JSON,
  /// frames, images) sends it elsewhere.
  public var output: (@Sendable (String) -> Void)?
  /// What `morph.measureText` measures with: the font layout draws with.
  public var textMeasure: TextMeasuring

  public init(
    props: [(key: String, value: String)] = [], reduceMotion: Bool = false,
    limits: ScriptLimits = .standard, output: (@Sendable (String) -> Void)? = nil,
    textMeasure: TextMeasuring = ApproximateTextMeasure()
  ) {
    self.props = props
    self.reduceMotion = reduceMotion
    self.limits = limits
    self.output = output
    self.textMeasure = textMeasure
  }
}

/// A running plugin: its Lua state, its instance (props and non-numeric
/// state, the `self` handlers see) and the animation engine, which alone owns
/// every numeric state value.
///
/// Time only moves when the host says so (`advance(to:)`), so a run is a
/// pure function of the plugin, its props and the input it was given.
public final class ComponentInstance: AnimationHost {
  public let path: String
  public let state: LuaState
  public let options: ComponentOptions
  /// What the definition declares (name, size, progress key and range, …).
  public internal(set) var declared = ComponentDefinition(name: "")
  public var name: String { declared.name }
  public var size: Size { declared.size }
  public var progressKey: String? { declared.progressKey }
  /// The component's one-line `description`, if it has one.
  public var summary: String? { declared.summary }
  public var progressRange: ClosedRange<Double> { declared.progressRange }
  public var dragMinimumDistance: Double { declared.dragMinimumDistance }
  var hasController: Bool { declared.hasController }
  /// Whether the last `body` read `self.time`: its picture then changes
  /// with the clock alone, so the host keeps drawing.
  public internal(set) var readsClock = false
  /// Whether the last `body` read `self.size`: a new offer (`offer(_:)`) then changes
  /// its picture.
  public internal(set) var readsSize = false
  /// What a host offered other than the declared `size` (a resized view).
  private var offer: Size?
  /// The size the body is offered and laid out in (`self.size`): the declared `size`
  /// until a host offers another.
  public var offeredSize: Size { offer ?? declared.size }
  /// Whether `animate` applies changes at once (reduced motion, as the front end asks).
  public var reduceMotion: Bool
  public internal(set) var time: Double = 0
  public internal(set) var engine = AnimationEngine()
  /// Insertions and removals of nodes with a transition (docs/design.md, Transitions).
  public internal(set) var transitions = TransitionTracker()
  /// Which nodes with `onAppear`/`onDisappear` the last body showed, and which removed
  /// ones still draw.
  var lifecycle = NodeLifecycle()
  /// Whether `unload()` ran: no lifecycle hook runs after it.
  public internal(set) var isUnloaded = false
  /// A failure met where nothing could report it (the body a handler's animated change
  /// runs at once): the next frame reports it.
  var unreportedFailure: ScriptError?
  /// How many runs of hooks have failed, to tell their failures from a body's.
  var hookFailures = 0
  /// What changed state since the last body, and under which animation: the next body's
  /// change of structure runs under it (SwiftUI's transaction).
  var pendingTransaction: Transaction?
  /// Lays a body out where its host draws it (set by `attachLayout`): at load and at each
  /// change, so matched geometry glides from the frames shown at the moment of the change,
  /// whichever frames were drawn before it.
  var layOut: ((SceneView) -> Void)?
  /// The last body run before a host attached its layout (at load): the host lays it out
  /// when it attaches, with no second run of the body.
  var unlaidView: SceneView?
  /// What the handler running now has changed (nil: no handler runs).
  private var run: Run?

  /// One handler run's transaction as it builds up.
  struct Run {
    var changed = false
    /// The last `animate` or `play`'s curve.
    var animation: AnimationCurve?
    /// The last curve of an `animate` that set a key that is not a number: what a body
    /// branches on, so it wins over a later timer's curve.
    var valueAnimation: AnimationCurve?
    /// An `animate` is setting such a key; its curve comes next.
    var awaitingCurve = false
  }
  var definition: LuaRef
  var instance: LuaRef
  let runtime: ComponentRuntime
  /// Animations that completed and whose callbacks have not run yet.
  var completed: [Int] = []
  /// Animations with a `done` callback: only their completions enter Lua,
  /// so an animation without one costs no Lua call from start to end.
  var awaited: Set<Int> = []
  private var propsTable: LuaValue?
  /// What the engine held when last charged to the plugin's memory account.
  private var engineCharge = 0

  /// Charges the engine's keyframes, segments and channels to the plugin's
  /// memory account, or gives back what it no longer holds. A plugin's own
  /// changes reserve their growth first (`ComponentHostFunctions.charging`),
  /// so this only settles the difference.
  func settleEngineMemory() {
    let delta = engine.heldBytes - engineCharge
    guard delta != 0, morph_charge(state.lua, Int64(delta)) != 0 else { return }
    engineCharge = engine.heldBytes
  }

  /// Turns reduce motion on or off for this and later handlers.
  public func setReduceMotion(_ on: Bool) { reduceMotion = on }

  /// The prop overrides as a Lua table, parsed once.
  func parsedProps() throws(ScriptError) -> LuaValue {
    if let cached = propsTable { return cached }
    let table = try runtime.props(options.props)
    propsTable = table
    return table
  }

  /// Loads the plugin at `path` (or `source`, named `path`), which must be
  /// a component.
  public convenience init(
    path: String, source: String? = nil, options: ComponentOptions = ComponentOptions()
  ) throws(ScriptError) {
    let file = try ScriptFile(
      path: path, source: source, limits: options.limits, output: options.output,
      textMeasure: options.textMeasure)
    guard case .table(let def) = file.result, file.isComponent else {
      throw Self.notAComponent(path, file.result)
    }
    try self.init(file: file, definition: def, options: options)
  }

  /// Where its `body` function was written: what an error of the whole frame (the frame
  /// budget) is placed at; the file alone when Lua cannot tell.
  public var bodyLocation: FilePosition {
    state.definition(of: "body", in: definition) ?? FilePosition(file: path)
  }

  /// Instantiates the definition a file that already ran returned.
  init(file: ScriptFile, definition: LuaRef, options: ComponentOptions) throws(ScriptError) {
    path = file.path
    self.options = options
    reduceMotion = options.reduceMotion
    state = file.state
    runtime = try ComponentRuntime(state: state)
    self.definition = definition
    instance = definition
    state.animationHost = self
    instance = try located { () throws(ScriptError) in
      try runtime.instantiate(definition, overrides: try parsedProps())
    }
    for (key, value) in try located({ () throws(ScriptError) in try runtime.numbers(instance) }) {
      engine.define(key, value: value)
    }
    settleEngineMemory()
    try readDefinition()
    try appear()
    // SwiftUI runs the first body, and the `onAppear` of what it shows, before the first
    // frame: at load, so every host (one drawing its first frame later, or a test that
    // never draws) starts those hooks at time 0.
    runBody()
  }

  /// SwiftUI's `onAppear`: the component's `appear(self)`, once per load, after its
  /// state exists and before any body runs, so whatever it animates starts on the first
  /// frame in every host (a hot reload keeps the instance and does not come here).
  private func appear() throws(ScriptError) {
    guard declared.hasAppear else { return }
    try transacting { () throws(ScriptError) in
      try runtime.callHandler(instance, named: "appear", .nil)
    }
    try runCompletions()
  }

  /// The instance is unloaded (replaced by a fresh load, its file closed, its run, view or
  /// test case over): the component's `disappear(self)`, then the `onDisappear` of every
  /// node still shown or still drawing its removal, each once; later calls do nothing. A
  /// hot reload that keeps state is no unload. All run even when one fails; the first
  /// error is thrown after them.
  public func unload() throws(ScriptError) {
    guard !isUnloaded else { return }
    isUnloaded = true
    // A timer belongs to the instance: it never fires once the component is gone (nor
    // one its `disappear` sets).
    defer { engine.cancelTimers() }
    var failure: ScriptError?
    if declared.hasDisappear {
      do {
        try transacting { () throws(ScriptError) in
          try runtime.callHandler(instance, named: "disappear", .nil)
        }
      } catch {
        failure = error
      }
    }
    do {
      _ = try runHooks(lifecycle.unload())
    } catch {
      failure = failure ?? error
    }
    if let failure { throw failure }
  }

  /// Runs new code for this component and returns its definition.
  func definition(fromSource source: [UInt8]) throws(ScriptError) -> LuaRef {
    let result = try state.call(try state.load(source, chunkName: path)).first ?? .nil
    guard case .table(let def) = result, runtime.isComponent(def) else {
      throw Self.notAComponent(path, result)
    }
    return def
  }

  static func notAComponent(_ path: String, _ result: LuaValue) -> ScriptError {
    ScriptError(
      kind: .value, chunk: path,
      message: "the plugin must return morph.component{ … }, got \(result.typeName)")
  }

  /// Runs a step of the Lua side; an error with no place is blamed on the plugin.
  func located<T>(_ body: () throws(ScriptError) -> T) throws(ScriptError) -> T {
    do {
      return try body()
    } catch {
      throw error.locatedIn(path)
    }
  }

  /// Reads what the definition declares (`ComponentDefinition`), all at once.
  func readDefinition() throws(ScriptError) {
    var read = runtime.fields(of: definition, defaultName: BundledPlugins.baseName(ofPath: path))
    read.hasController = runtime.hasFunction(definition, "controlled")
    read.hasAppear = runtime.hasFunction(definition, "appear")
    read.hasDisappear = runtime.hasFunction(definition, "disappear")
    if let range = try located({ () throws(ScriptError) in try runtime.progressRange(instance) }) {
      read.progressRange = range
    }
    declared = read
  }

  // MARK: AnimationHost

  func presentedValue(_ key: String) -> Double? { engine.presented(key, at: time) }

  func targetValue(_ key: String) -> Double? { engine.target(key) }

  func velocityValue(_ key: String) -> Double { engine.velocity(key, at: time) }

  func schedule(after delay: Double) -> Int {
    engine.schedule(after: delay, at: time)
  }

  func readClock() -> Double {
    readsClock = true
    return time
  }

  func readOfferedSize() -> Size {
    readsSize = true
    return offeredSize
  }

  /// Offers the body `size` (nil: the declared size again), as a resized window or
  /// canvas does; returns whether the picture may change (the offer changed and the
  /// last body read it — layout itself follows the offer either way).
  @discardableResult
  public func offer(_ size: Size?) throws(ScriptError) -> Bool {
    if let size {
      for (name, v) in [("width", size.width), ("height", size.height)] {
        guard v.isFinite, v > 0, v <= SceneError.maxCanvasSide else {
          throw ScriptError(
            kind: .value,
            message: "offered \(name) must be in (0, \(Int(SceneError.maxCanvasSide))], got \(v)")
        }
      }
    }
    let before = offeredSize
    offer = size
    return offeredSize != before && readsSize
  }

  func setState(_ key: String, to value: Double) {
    completed += engine.set(key, to: value)
    noteChange(animation: nil)
  }

  func noteValueChange(byAnimate: Bool) {
    noteChange(animation: nil)
    if byAnimate { run?.awaitingCurve = true }
  }

  /// Runs a handler (or `appear`, or completions) as one transaction: its changes run
  /// under the last animation an `animate` that set a key that is not a number used,
  /// else the last `animate` or `play`'s, or under none when it only assigned (SwiftUI's
  /// `withAnimation` versus a plain state change). A run that changes nothing leaves the
  /// pending transaction as it was.
  func transacting<T>(_ body: () throws(ScriptError) -> T) throws(ScriptError) -> T {
    let outer = run
    run = Run()
    defer {
      if let finished = run, finished.changed {
        pendingTransaction = Transaction(
          animation: finished.valueAnimation ?? finished.animation, time: time)
      }
      run = outer
    }
    return try located(body)
  }

  /// State changed, animated by `animation` or not.
  private func noteChange(animation: AnimationCurve?) {
    guard var current = run else {
      pendingTransaction = Transaction(animation: animation, time: time)
      return
    }
    current.changed = true
    if let animation { current.animation = animation }
    if current.awaitingCurve, animation != nil || reduceMotion {
      current.valueAnimation = animation
      current.awaitingCurve = false
    }
    run = current
  }

  func animate(
    _ changes: [(key: String, value: Double)], with curve: AnimationCurve,
    velocities: [String: Double]
  ) -> Int {
    noteChange(animation: reduceMotion ? nil : curve)
    if reduceMotion {
      // Reduce motion: the changes apply at once and the animation completes now.
      for (key, value) in changes { completed += engine.set(key, to: value) }
      let (id, done) = engine.animate([], with: curve, at: time)
      completed += done
      return id
    }
    let (id, done) = engine.animate(changes, with: curve, at: time, velocities: velocities)
    completed += done
    return id
  }

  func awaitCompletion(_ id: Int) { awaited.insert(id) }

  /// The animation a `play` puts its transaction under: ease in-out over the timeline's
  /// duration (a timeline has no one curve; its tracks end together at most that late).
  static func transactionCurve(of timeline: KeyframeTimeline) -> AnimationCurve? {
    guard timeline.duration > 0, timeline.duration.isFinite else { return nil }
    return .timing(TimingCurve(bezier: .easeInOut, duration: timeline.duration))
  }

  /// Plays `timeline`, each track's component `i` on engine channel
  /// `channels[key][i]` (a composite key's channels are named by the component).
  func play(_ timeline: KeyframeTimeline, plays: Int?, channels: [String: [String]]) -> Int {
    // `play`'s repeat wraps the timeline alone: the timeline's own delay (a stagger's)
    // and speed apply once, around all of its plays.
    var modifiers = AnimationModifiers.none
    if let plays {
      if plays > 1 { modifiers = modifiers.repeatCount(plays, autoreverses: false) }
    } else {
      modifiers = modifiers.repeatForever(autoreverses: false)
    }
    modifiers = modifiers.then(timeline.modifiers)
    var tracks: [(key: String, track: KeyframeTrack)] = []
    for track in timeline.tracks {
      for (channel, component) in zip(channels[track.key] ?? [], track.components) {
        tracks.append((channel, component))
      }
    }
    noteChange(animation: reduceMotion ? nil : Self.transactionCurve(of: timeline))
    if reduceMotion {
      // Reduce motion: each track's last value at once.
      for (key, track) in tracks {
        let from = engine.presented(key, at: time) ?? 0
        completed += engine.set(key, to: track.resolved(from: from, velocity: 0).endValue)
      }
      let (id, done) = engine.play([], at: time)
      completed += done
      return id
    }
    let curves = tracks.map { key, track in
      var curve = AnimationCurve.keyframes(track)
      curve.modifiers = modifiers
      return (key: key, curve: curve)
    }
    let (id, done) = engine.play(curves, at: time)
    completed += done
    return id
  }

}
