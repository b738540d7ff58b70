import Foundation
import MorphCore

/// What a session has played, for an inspector: every numeric state key's
/// presented value, model value (target) and velocity, sampled on a fixed
/// grid of the component's clock (`interval`), with the input events and
/// reloads as markers. Bounded: the newest `capacity` samples (60 s at 60
/// per second) of at most `keyCapacity` keys (the first by name), and
/// `markerCapacity` markers; older ones are dropped.
public struct SessionHistory: Sendable {
  /// One key at one moment.
  public struct Reading: Codable, Equatable, Sendable {
    public var value: Double
    public var target: Double
    public var velocity: Double
  }

  public struct Sample: Equatable, Sendable {
    public var time: Double
    /// By key, in the order of `keys` at the time (a key a reload added is
    /// missing from earlier samples).
    public var readings: [String: Reading]
  }

  /// Something that happened at a moment: an input event, a reload, new props.
  public struct Marker: Codable, Equatable, Sendable {
    public var time: Double
    /// `down`, `move`, `up`, `hover`, `leave`, `tap`, `progress`, `reload` or `props`.
    public var kind: String
    public var x: Double?
    public var y: Double?
    /// A `progress` marker's value.
    public var value: Double?
  }

  /// Seconds between samples: the preview's frame rate.
  public static let interval = 1.0 / 60
  /// 60 seconds of samples.
  public static let capacity = 3600
  public static let markerCapacity = 2000
  /// Keys recorded: a plugin with more records the first, by name, so a
  /// sample stays small (3600 × 32 readings is a few megabytes).
  public static let keyCapacity = 32

  /// The numeric state keys seen so far, sorted.
  public private(set) var keys: [String] = []
  private var ring: [Sample] = []
  /// Where the oldest sample is in `ring` once it is full.
  private var head = 0
  /// Samples recorded since the history began (or was cleared): the page
  /// asks for those after the count it has.
  public private(set) var recorded = 0
  /// Starts again at every clear, so a reader knows to drop what it has.
  public private(set) var epoch = 0
  public private(set) var markers: [Marker] = []
  /// Markers made since the history began (or was cleared).
  public private(set) var marked = 0

  public init() {}

  /// When the newest sample was taken.
  public var lastTime: Double? {
    ring.isEmpty ? nil : ring[(head + ring.count - 1) % ring.count].time
  }

  /// The samples kept, oldest first.
  public var samples: [Sample] { Array(ring[head...] + ring[..<head]) }

  /// The samples recorded after the first `count` (those still kept); any
  /// `count` at all, a reader's, is safe (none below 0, none past the end).
  public func samples(after count: Int) -> ArraySlice<Sample> {
    let kept = samples
    return kept.dropFirst(Self.skipped(after: count, made: recorded, kept: kept.count))
  }

  /// The markers made after the first `count` (those still kept), for any `count`.
  public func markers(after count: Int) -> ArraySlice<Marker> {
    markers.dropFirst(Self.skipped(after: count, made: marked, kept: markers.count))
  }

  /// How many of the `kept` newest of `made` items a reader that has the
  /// first `count` already has. Computed without overflow for every `count`
  /// (a reader's number may be Int.min or Int.max): `made - kept`, the
  /// items dropped, is never negative, and `count` is compared before it
  /// is subtracted from.
  static func skipped(after count: Int, made: Int, kept: Int) -> Int {
    let dropped = made - kept
    guard count > dropped else { return 0 }
    return count - dropped < kept ? count - dropped : kept
  }

  /// The engine's keys at `time`.
  mutating func sample(_ engine: AnimationEngine, at time: Double) {
    var readings: [String: Reading] = [:]
    let recorded =
      engine.channels.count <= Self.keyCapacity
      ? Array(engine.channels.keys) : Array(engine.channels.keys.sorted().prefix(Self.keyCapacity))
    for key in recorded {
      let channel = engine.channels[key]!
      readings[key] = Reading(
        value: channel.presented(at: time), target: channel.target,
        velocity: channel.velocity(at: time))
    }
    if readings.count != keys.count || readings.keys.contains(where: { !keys.contains($0) }) {
      keys = Array(Set(keys).union(readings.keys).sorted().prefix(Self.keyCapacity))
    }
    append(Sample(time: time, readings: readings))
  }

  private mutating func append(_ sample: Sample) {
    recorded += 1
    guard ring.count == Self.capacity else { return ring.append(sample) }
    ring[head] = sample
    head = (head + 1) % Self.capacity
  }

  mutating func mark(_ marker: Marker) {
    if markers.count == Self.markerCapacity { markers.removeFirst(Self.markerCapacity / 4) }
    markers.append(marker)
    marked += 1
  }

  /// Forgets everything after `time` (playing on from an earlier moment).
  /// A reader starts again (a new epoch).
  mutating func truncate(after time: Double) {
    let keptMarkers = markers.filter { $0.time <= time }
    let kept = samples.filter { $0.time <= time + 1e-12 }
    guard kept.count != ring.count || keptMarkers.count != markers.count else { return }
    ring = kept
    head = 0
    markers = keptMarkers
    recorded = kept.count
    marked = keptMarkers.count
    epoch += 1
  }

  /// Starts again (a fresh instance at time 0).
  mutating func clear() {
    ring = []
    head = 0
    markers = []
    recorded = 0
    marked = 0
    epoch += 1
  }
}

/// A running animation as an inspector lists it.
public struct RunningAnimation: Codable, Equatable, Sendable {
  public var key: String
  /// `spring`, `timing` or `keyframes`.
  public var kind: String
  public var start: Double
  /// When it ends (infinity for an endless one).
  public var end: Double
  /// The curve's numbers: a spring's `duration` and `bounce` (and
  /// `additive` 1 for an interpolating spring), a timing curve's `duration`
  /// and Bézier `x1 y1 x2 y2`, a track's `duration` and `keyframes`; any
  /// `delay`, `speed` and `repeats` (−1: forever).
  public var parameters: [String: Double]
  /// The curve as Lua would write it: `easeInOut(duration: 0.35)`,
  /// `spring(duration: 0.5, bounce: 0.3)`, with its modifiers (`.repeatForever()`).
  public var curve: String

  /// Every animation running in `engine`, by key.
  public static func running(in engine: AnimationEngine) -> [RunningAnimation] {
    engine.channels.keys.sorted().flatMap { key in
      engine.channels[key]!.offsets.map { RunningAnimation(key: key, offset: $0) }
    }
  }

  init(key: String, offset: AnimationChannel.Offset) {
    self.key = key
    start = offset.start
    end = offset.end
    var parameters: [String: Double] = [:]
    switch offset.curve {
    case .spring(let s):
      kind = "spring"
      parameters["duration"] = s.spring.duration
      parameters["bounce"] = s.spring.bounce
      if s.combination == .additive { parameters["additive"] = 1 }
    case .timing(let t):
      kind = "timing"
      parameters["duration"] = t.duration
      parameters["x1"] = t.bezier.p1x
      parameters["y1"] = t.bezier.p1y
      parameters["x2"] = t.bezier.p2x
      parameters["y2"] = t.bezier.p2y
    case .keyframes(let track):
      kind = "keyframes"
      parameters["duration"] = offset.keyframes?.duration ?? 0
      parameters["keyframes"] = Double(track.keyframes.count)
    }
    let modifiers = offset.curve.modifiers
    if modifiers.delay != 0 { parameters["delay"] = modifiers.delay }
    if modifiers.speed != 1 { parameters["speed"] = modifiers.speed }
    if modifiers.plays != 1 { parameters["repeats"] = Double(modifiers.plays ?? -1) }
    self.parameters = parameters
    curve = Self.describe(kind: kind, parameters)
  }

  /// `curve` from the numbers.
  static func describe(kind: String, _ p: [String: Double]) -> String {
    func n(_ value: Double?) -> String {
      guard let value else { return "?" }
      return String(format: "%.3f", value).replacingOccurrences(
        of: #"\.?0+$"#, with: "", options: .regularExpression)
    }
    var text: String
    switch kind {
    case "spring":
      text = "spring(duration: \(n(p["duration"])), bounce: \(n(p["bounce"])))"
      if p["additive"] != nil {
        text = "interpolating" + text.prefix(1).uppercased() + text.dropFirst()
      }
    case "timing":
      let bezier = UnitBezier(p["x1"] ?? 0, p["y1"] ?? 0, p["x2"] ?? 1, p["y2"] ?? 1)
      let named = UnitBezier.presets.first {
        abs($0.curve.p1x - bezier.p1x) < 1e-9 && abs($0.curve.p1y - bezier.p1y) < 1e-9
          && abs($0.curve.p2x - bezier.p2x) < 1e-9 && abs($0.curve.p2y - bezier.p2y) < 1e-9
      }
      text =
        named.map { "\($0.name)(duration: \(n(p["duration"])))" }
        ?? "timing(\(n(p["x1"])), \(n(p["y1"])), \(n(p["x2"])), \(n(p["y2"])), duration: \(n(p["duration"])))"
    default:
      text = "keyframes(\(n(p["keyframes"])) keys, duration: \(n(p["duration"])))"
    }
    if let delay = p["delay"] { text += ".delay(\(n(delay)))" }
    if let speed = p["speed"] { text += ".speed(\(n(speed)))" }
    if let repeats = p["repeats"] {
      text += repeats < 0 ? ".repeatForever()" : ".repeatCount(\(n(repeats)))"
    }
    return text
  }
}
