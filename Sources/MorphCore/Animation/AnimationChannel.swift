/// One animated number, the way SwiftUI animates a property: the model value
/// (`target`) changes at once, and what is on screen is the target plus the
/// offsets of the animations still running.
///
/// - A merging spring (`spring`, `interactiveSpring`) or a timing curve
///   replaces every running animation with one that starts from the presented
///   value (and, for springs, its velocity): SwiftUI merges springs, and a
///   timing curve restarts from what is on screen.
/// - An additive spring (`interpolatingSpring`) adds its own offset
///   (old target − new target) and lets the others run out.
///
/// Everything is closed form in time, so stepping by any dt gives the same
/// values: the clock is injected, never read.
public struct AnimationChannel: Hashable, Sendable {
  /// One running animation's contribution, relative to the target.
  public struct Offset: Hashable, Sendable {
    public var curve: AnimationCurve
    /// Offset and velocity when it started.
    public var x0: Double
    public var v0: Double
    public var start: Double
    /// When it counts as finished: its delay plus every play of the curve.
    public var end: Double
    /// The animation this offset belongs to, for completion callbacks.
    public var id: Int
    /// One play of the curve, in seconds (a spring's settling time).
    public var cycle: Double = 0
    /// A keyframe track's segments, worked out when it started.
    public var keyframes: ResolvedKeyframes?

    /// What the offset holds on the heap: itself, and a keyframe track's
    /// keyframes and segments.
    public var heldBytes: Int {
      var bytes = MemoryLayout<Offset>.stride
      if case .keyframes(let track) = curve {
        bytes += AnimationChannel.bytes(keyframes: track.keyframes.count)
      }
      return bytes
    }

    /// Where the curve is at `time`, its delay, speed and repeats applied.
    private func position(at time: Double) -> AnimationModifiers.Position {
      curve.modifiers.position(elapsed: time - start, cycle: cycle)
    }

    func value(at time: Double) -> Double {
      switch position(at: time) {
      case .waiting: return x0
      case .finished: return 0
      case .playing(let t, _): return curveValue(at: t)
      }
    }

    func velocity(at time: Double) -> Double {
      switch position(at: time) {
      case .waiting, .finished: return 0
      case .playing(let t, let reversed):
        return curveVelocity(at: t) * curve.modifiers.speed * (reversed ? -1 : 1)
      }
    }

    private func curveValue(at t: Double) -> Double {
      switch curve {
      case .spring(let s): return s.spring.displacement(x0: x0, v0: v0, t: t)
      case .timing(let timing): return x0 * (1 - timing.progress(at: t))
      case .keyframes:
        guard let k = keyframes else { return 0 }
        return k.value(at: t) - k.endValue
      }
    }

    private func curveVelocity(at t: Double) -> Double {
      switch curve {
      case .spring(let s): return s.spring.displacementVelocity(x0: x0, v0: v0, t: t)
      case .timing(let timing):
        // Numerical derivative of the curve: the Bézier has no cheap closed form.
        guard timing.duration > 0, t < timing.duration else { return 0 }
        let h = 1e-4
        let a = timing.progress(at: max(0, t - h))
        let b = timing.progress(at: min(timing.duration, t + h))
        let span = min(timing.duration, t + h) - max(0, t - h)
        return span > 0 ? -x0 * (b - a) / span : 0
      case .keyframes: return keyframes?.velocity(at: t) ?? 0
      }
    }
  }

  public private(set) var target: Double
  public private(set) var offsets: [Offset] = [] {
    didSet { heldBytes = offsets.reduce(0) { $0 + $1.heldBytes } }
  }
  /// What the running offsets hold on the heap (kept as they change).
  public private(set) var heldBytes = 0

  /// What a keyframe track of `count` keyframes holds once played: its
  /// keyframes and the segments worked out from them.
  public static func bytes(keyframes count: Int) -> Int {
    count * (MemoryLayout<Keyframe>.stride + MemoryLayout<ResolvedKeyframes.Segment>.stride)
  }

  public init(value: Double) {
    target = value
  }

  public var isAnimating: Bool { !offsets.isEmpty }

  /// What is on screen at `time`.
  public func presented(at time: Double) -> Double {
    offsets.reduce(target) { $0 + $1.value(at: time) }
  }

  public func velocity(at time: Double) -> Double {
    offsets.reduce(0) { $0 + $1.velocity(at: time) }
  }

  /// Sets the value with no animation; returns the ids of animations cut short.
  public mutating func set(_ value: Double) -> [Int] {
    let ended = offsets.map(\.id)
    target = value
    offsets = []
    return ended
  }

  /// Starts animating to `value` at `time`; returns the ids of animations
  /// this one replaced (they complete now).
  ///
  /// `velocity`, when given, is where a spring starts moving, in units per
  /// second of the value itself (a release speed handed on); a timing curve
  /// has no velocity of its own and ignores it. A keyframe track ignores
  /// `value`: its last keyframe sets the target.
  public mutating func animate(
    to value: Double, with curve: AnimationCurve, at time: Double, id: Int,
    velocity given: Double? = nil
  ) -> [Int] {
    let presented = presented(at: time)
    let velocity = velocity(at: time)
    var replaced: [Int] = []
    var offset: Offset
    switch curve {
    case .spring(let s) where s.combination == .additive:
      // SwiftUI's initialVelocity is in units of the change: progress per second.
      // An absolute velocity makes the sum of the running offsets move so.
      let x0 = target - value
      let v0 = given.map { $0 - velocity } ?? -s.initialVelocity * x0
      offset = Offset(curve: curve, x0: x0, v0: v0, start: time, end: time, id: id)
    case .spring:
      replaced = offsets.map(\.id)
      offsets = []
      offset = Offset(
        curve: curve, x0: presented - value, v0: given ?? velocity, start: time, end: time,
        id: id)
    case .timing:
      replaced = offsets.map(\.id)
      offsets = []
      offset = Offset(curve: curve, x0: presented - value, v0: 0, start: time, end: time, id: id)
    case .keyframes(let track):
      // Keyframes replace what runs, as a timing curve does, and start from
      // the presented value and its velocity; the track's end is the target.
      replaced = offsets.map(\.id)
      offsets = []
      let resolved = track.resolved(from: presented, velocity: given ?? velocity)
      offset = Offset(
        curve: curve, x0: presented - resolved.endValue, v0: given ?? velocity, start: time,
        end: time, id: id)
      offset.keyframes = resolved
      target = resolved.endValue
    }
    offset.cycle = Self.duration(of: offset)
    offset.end = time + curve.modifiers.duration(cycle: offset.cycle)
    if offset.keyframes == nil { target = value }
    offsets.append(offset)
    return replaced
  }

  /// How long one play of an offset's curve runs: a timing curve's
  /// duration, or a spring's settling time for its own start (ε = 0.001 of
  /// the start offset; an absolute ε when a pure kick starts on target).
  static func duration(of offset: Offset) -> Double {
    switch offset.curve {
    case .timing(let t): return max(0, t.duration)
    case .keyframes: return offset.keyframes?.duration ?? 0
    case .spring(let s):
      if offset.x0 == 0 && offset.v0 == 0 { return 0 }
      return s.spring.settlingDuration(
        target: 0, initial: offset.x0, initialVelocity: offset.v0, epsilon: 0.001)
    }
  }

  /// Drops offsets that have finished by `time`; returns their ids.
  public mutating func retire(at time: Double) -> [Int] {
    var freed = 0
    return retire(at: time, freed: &freed)
  }

  /// Drops finished offsets, adding what they held to `freed`; a tick where
  /// none has finished changes nothing.
  mutating func retire(at time: Double, freed: inout Int) -> [Int] {
    guard offsets.contains(where: { time >= $0.end }) else { return [] }
    let before = heldBytes
    defer { freed += before - heldBytes }
    var finished: [Int] = []
    offsets.removeAll { offset in
      guard time >= offset.end else { return false }
      finished.append(offset.id)
      return true
    }
    return finished
  }
}

/// The animated numbers of one component, keyed by state name, with
/// completion bookkeeping: each `animate` call gets an id that completes
/// once, when all of its keys have finished or been replaced.
public struct AnimationEngine: Sendable {
  public private(set) var channels: [String: AnimationChannel] = [:]
  /// The keys, sorted: the order completions are reported in, kept so a
  /// tick need not sort.
  private var order: [String] = []
  private var pending: [Int: Int] = [:]  // animation id → keys still running
  /// Timers (`self:after`): id → the moment it falls due. They share the animations'
  /// ids and clock, so a timer's callback runs at its logical time as a completion does.
  public private(set) var timers: [Int: Double] = [:]
  private var nextID = 1
  /// What the channels hold on the heap, kept as they change: what a host
  /// charges to a plugin's memory account.
  public private(set) var heldBytes = 0

  public init() {}

  /// What a key's channel costs before it animates: its entry and its key.
  public static func bytes(key: String) -> Int {
    MemoryLayout<String>.stride + MemoryLayout<AnimationChannel>.stride + 64 + key.utf8.count
  }

  /// At most how many bytes more the engine holds after playing `tracks`
  /// on their keys (each replaces what runs on its key).
  public static func bytes(playing tracks: [(key: String, track: KeyframeTrack)]) -> Int {
    tracks.reduce(0) {
      $0 + bytes(key: $1.key) + MemoryLayout<AnimationChannel.Offset>.stride
        + AnimationChannel.bytes(keyframes: $1.track.keyframes.count)
    }
  }

  /// At most how many bytes more the engine holds after animating `keys`.
  public static func bytes(animating keys: [String]) -> Int {
    keys.reduce(0) { $0 + bytes(key: $1) + MemoryLayout<AnimationChannel.Offset>.stride }
  }

  public func presented(_ key: String, at time: Double) -> Double? {
    channels[key]?.presented(at: time)
  }

  public func velocity(_ key: String, at time: Double) -> Double {
    channels[key]?.velocity(at: time) ?? 0
  }

  public func target(_ key: String) -> Double? { channels[key]?.target }

  public var isAnimating: Bool {
    !timers.isEmpty || channels.values.contains { $0.isAnimating }
  }

  /// Whether an animation that will end on its own is running, or a timer waits.
  public var hasFiniteAnimation: Bool {
    !timers.isEmpty || channels.values.contains { $0.offsets.contains { $0.end.isFinite } }
  }

  /// What a timer holds in the engine.
  public static let timerBytes = MemoryLayout<(Int, Double)>.stride * 2

  /// Starts a timer that completes `delay` seconds after `time` (SwiftUI's
  /// `DispatchQueue.main.asyncAfter` on the component's virtual clock); returns its id,
  /// which `advance` reports among the completed ids when it falls due. A delay of 0
  /// falls due at `time`, after the handler that set it returns.
  public mutating func schedule(after delay: Double, at time: Double) -> Int {
    let id = nextID
    nextID += 1
    timers[id] = time + max(0, delay)
    heldBytes += Self.timerBytes
    return id
  }

  /// Drops every timer (an unloaded component's).
  public mutating func cancelTimers() {
    heldBytes -= timers.count * Self.timerBytes
    timers = [:]
  }

  /// Whether a running animation repeats forever (deliberately endless, as
  /// a spinner's or a glow's is), or rides an undamped spring.
  public var hasEndlessAnimation: Bool {
    channels.values.contains { $0.offsets.contains { !$0.end.isFinite } }
  }

  /// The keys with running animations.
  public var animatingKeys: [String] {
    channels.filter { $0.value.isAnimating }.map(\.key).sorted()
  }

  /// Drops channels whose keys are not in `keys` (state removed by a reload).
  public mutating func keep(only keys: Set<String>) {
    channels = channels.filter { keys.contains($0.key) }
    order = channels.keys.sorted()
    heldBytes =
      channels.reduce(0) { $0 + Self.bytes(key: $1.key) + $1.value.heldBytes }
      + timers.count * Self.timerBytes
  }

  /// Declares a key with its initial value (or resets it).
  public mutating func define(_ key: String, value: Double) {
    store(key, AnimationChannel(value: value))
  }

  /// Puts a channel under `key`, keeping `order` when the key is new.
  private mutating func store(_ key: String, _ channel: AnimationChannel) {
    if let old = channels.updateValue(channel, forKey: key) {
      heldBytes += channel.heldBytes - old.heldBytes
    } else {
      order.insert(key, at: order.firstIndex { $0 > key } ?? order.endIndex)
      heldBytes += Self.bytes(key: key) + channel.heldBytes
    }
  }

  /// Sets a key at once; returns animation ids that thereby completed.
  public mutating func set(_ key: String, to value: Double) -> [Int] {
    var channel = channels[key] ?? AnimationChannel(value: value)
    let ended = channel.set(value)
    store(key, channel)
    return finish(ended)
  }

  /// Starts one animation over `changes`; returns its id and the ids of
  /// earlier animations that completed because this one replaced them.
  /// `velocities` gives keys a starting velocity (units per second).
  public mutating func animate(
    _ changes: [(key: String, value: Double)], with curve: AnimationCurve, at time: Double,
    velocities: [String: Double] = [:]
  ) -> (id: Int, completed: [Int]) {
    start(
      changes.map { (key: $0.key, value: $0.value, curve: curve) }, at: time, velocities: velocities
    )
  }

  /// Plays a keyframe track on each key (a timeline's tracks) as one
  /// animation: one id, complete when every track has finished.
  public mutating func play(_ tracks: [(key: String, curve: AnimationCurve)], at time: Double)
    -> (id: Int, completed: [Int])
  {
    start(tracks.map { (key: $0.key, value: 0, curve: $0.curve) }, at: time, velocities: [:])
  }

  private mutating func start(
    _ changes: [(key: String, value: Double, curve: AnimationCurve)], at time: Double,
    velocities: [String: Double]
  ) -> (id: Int, completed: [Int]) {
    let id = nextID
    nextID += 1
    var ended: [Int] = []
    pending[id] = changes.count
    for (key, value, curve) in changes {
      var channel = channels[key] ?? AnimationChannel(value: value)
      ended += channel.animate(
        to: value, with: curve, at: time, id: id, velocity: velocities[key])
      store(key, channel)
    }
    var completed = finish(ended)
    if changes.isEmpty { completed += finish([id]) }
    return (id, completed)
  }

  /// The earliest moment by `time` at which a running animation ends, if one
  /// does: where a host stops its clock so a completion runs at the logical
  /// time it belongs to, not at whichever sample comes after it.
  public func nextEnd(through time: Double) -> Double? {
    var earliest: Double?
    for due in timers.values where due <= time { earliest = min(earliest ?? due, due) }
    for channel in channels.values {
      for offset in channel.offsets where offset.end <= time {
        earliest = min(earliest ?? offset.end, offset.end)
      }
    }
    return earliest
  }

  /// Retires what has finished by `time`; returns completed animation ids.
  public mutating func advance(to time: Double) -> [Int] {
    var ended: [Int] = []
    var freed = 0
    for key in order where channels[key]?.isAnimating == true {
      ended += channels[key]?.retire(at: time, freed: &freed) ?? []
    }
    heldBytes -= freed
    var rang: [Int] = []
    if !timers.isEmpty {
      rang = timers.filter { $0.value <= time }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
        .map(\.key)
      for id in rang { timers[id] = nil }
      heldBytes -= rang.count * Self.timerBytes
    }
    return finish(ended) + rang
  }

  /// Counts down each id's running keys; an id completes when none are left.
  private mutating func finish(_ ids: [Int]) -> [Int] {
    var completed: [Int] = []
    for id in ids {
      guard let left = pending[id] else { continue }
      if left <= 1 {
        pending[id] = nil
        completed.append(id)
      } else {
        pending[id] = left - 1
      }
    }
    return completed
  }
}
