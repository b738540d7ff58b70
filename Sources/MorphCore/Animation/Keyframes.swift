/// One keyframe of a track, as SwiftUI's keyframe types: each names the
/// value the track reaches at its end and how it gets there from the
/// previous keyframe's value.
public enum Keyframe: Hashable, Sendable {
  /// `LinearKeyframe`: along `curve` (linear unless given) over `duration`.
  case linear(to: Double, duration: Double, curve: UnitBezier)
  /// `SpringKeyframe`: a spring towards `to`, cut after `duration` (nil: the
  /// spring's settling duration); the next keyframe starts where and as fast
  /// as it was cut. `startVelocity` nil carries the velocity in.
  case spring(to: Double, duration: Double?, spring: Spring, startVelocity: Double?)
  /// `CubicKeyframe`: a cubic Hermite segment; velocities left nil make
  /// adjacent cubics a Catmull-Rom spline and match a neighbour of another kind.
  case cubic(to: Double, duration: Double, startVelocity: Double?, endVelocity: Double?)
  /// `MoveKeyframe`: jumps to `to` with no duration.
  case move(to: Double)

  public var target: Double {
    switch self {
    case .linear(let to, _, _), .spring(let to, _, _, _), .cubic(let to, _, _, _), .move(let to):
      return to
    }
  }
}

/// The keyframes of one value, played from wherever the value is.
public struct KeyframeTrack: Hashable, Sendable {
  public var keyframes: [Keyframe]
  /// Delay and speed (repeats come from how it is played).
  public var modifiers = AnimationModifiers.none

  public init(_ keyframes: [Keyframe]) {
    self.keyframes = keyframes
  }

  /// The track's segments for a start at `value` moving at `velocity`:
  /// what the engine plays and a timeline scrubs, worked out once.
  public func resolved(from value: Double, velocity: Double) -> ResolvedKeyframes {
    var segments: [ResolvedKeyframes.Segment] = []
    var start = 0.0
    var x = value
    var v = velocity
    for (i, keyframe) in keyframes.enumerated() {
      let segment = resolve(
        i, keyframe, start: start, from: x, velocity: v, previous: segments.last)
      segments.append(segment)
      start += segment.duration
      x = segment.value(at: segment.duration)
      v = segment.velocity(at: segment.duration)
    }
    return ResolvedKeyframes(initial: value, segments: segments)
  }

  private func resolve(
    _ i: Int, _ keyframe: Keyframe, start: Double, from x: Double, velocity v: Double,
    previous: ResolvedKeyframes.Segment?
  ) -> ResolvedKeyframes.Segment {
    switch keyframe {
    case .move(let to):
      return .init(start: start, duration: 0, from: to, to: to, shape: .hold)
    case .linear(let to, let d, let curve):
      return .init(start: start, duration: max(0, d), from: x, to: to, shape: .timing(curve))
    case .spring(let to, let d, let spring, let startVelocity):
      let v0 = startVelocity ?? v
      let duration =
        d
        ?? spring.settlingDuration(target: to, initial: x, initialVelocity: v0, epsilon: 0.001)
      return .init(
        start: start, duration: max(0, duration.isFinite ? duration : 0), from: x, to: to,
        shape: .spring(spring, velocity: v0))
    case .cubic(let to, let d, let startVelocity, let endVelocity):
      // A cubic after a cubic continues its tangent; after anything else
      // it starts at the velocity carried in.
      let m0 = startVelocity ?? v
      let m1 = endVelocity ?? joinVelocity(after: i, from: x, to: to, duration: d)
      return .init(
        start: start, duration: max(0, d), from: x, to: to,
        shape: .cubic(startVelocity: m0, endVelocity: m1))
    }
  }

  /// The velocity where cubic keyframe `i` (from `x` to `to`) meets the
  /// next: Catmull-Rom through its neighbours when the next is a cubic or a
  /// spring that takes its velocity from here, the next segment's starting
  /// velocity when it has its own, and rest at a move or the track's end.
  private func joinVelocity(after i: Int, from x: Double, to: Double, duration d: Double) -> Double
  {
    guard i + 1 < keyframes.count else { return 0 }
    switch keyframes[i + 1] {
    case .move: return 0
    case .linear(let next, let dn, let curve):
      return dn > 0 ? (next - to) / dn * curve.startGradient : 0
    case .spring(_, _, _, let startVelocity?): return startVelocity
    case .spring(let next, let dn, let spring, nil):
      return catmullRom(x, next, d + (dn ?? spring.duration))
    case .cubic(let next, let dn, _, _): return catmullRom(x, next, d + dn)
    }
  }

  private func catmullRom(_ before: Double, _ after: Double, _ span: Double) -> Double {
    span > 0 ? (after - before) / span : 0
  }
}

/// A track worked out for one start: consecutive segments from time 0.
public struct ResolvedKeyframes: Hashable, Sendable {
  public struct Segment: Hashable, Sendable {
    public enum Shape: Hashable, Sendable {
      case hold
      case timing(UnitBezier)
      case spring(Spring, velocity: Double)
      case cubic(startVelocity: Double, endVelocity: Double)
    }

    public var start: Double
    public var duration: Double
    public var from: Double
    public var to: Double
    public var shape: Shape

    /// The value `t` seconds into the segment (clamped to it).
    func value(at t: Double) -> Double {
      let t = min(max(t, 0), duration)
      switch shape {
      case .hold: return to
      case .timing(let curve):
        return duration > 0 ? from + (to - from) * curve(t / duration) : to
      case .spring(let spring, let v0):
        return to + spring.displacement(x0: from - to, v0: v0, t: t)
      case .cubic(let m0, let m1):
        guard duration > 0 else { return to }
        let s = t / duration
        let (h00, h10, h01, h11) = Self.hermite(s)
        return h00 * from + h10 * duration * m0 + h01 * to + h11 * duration * m1
      }
    }

    /// Units per second `t` seconds into the segment.
    func velocity(at t: Double) -> Double {
      let t = min(max(t, 0), duration)
      switch shape {
      case .hold: return 0
      case .timing(let curve):
        guard duration > 0 else { return 0 }
        return (to - from) * curve.slope(at: t / duration) / duration
      case .spring(let spring, let v0):
        return spring.displacementVelocity(x0: from - to, v0: v0, t: t)
      case .cubic(let m0, let m1):
        guard duration > 0 else { return 0 }
        let s = t / duration
        let d00 = 6 * s * s - 6 * s
        let d10 = 3 * s * s - 4 * s + 1
        let d01 = -6 * s * s + 6 * s
        let d11 = 3 * s * s - 2 * s
        return (d00 * from + d01 * to) / duration + d10 * m0 + d11 * m1
      }
    }

    static func hermite(_ s: Double) -> (Double, Double, Double, Double) {
      let s2 = s * s
      let s3 = s2 * s
      return (2 * s3 - 3 * s2 + 1, s3 - 2 * s2 + s, -2 * s3 + 3 * s2, s3 - s2)
    }
  }

  /// The value before the first keyframe.
  public let initial: Double
  public let segments: [Segment]

  /// Seconds until the last keyframe ends.
  public var duration: Double { segments.last.map { $0.start + $0.duration } ?? 0 }

  /// Where the track rests after its last keyframe (a spring cut short
  /// rests where it was cut).
  public var endValue: Double { segments.last.map { $0.value(at: $0.duration) } ?? initial }

  /// The value at `time` seconds (before 0: the start; after the end: the end).
  public func value(at time: Double) -> Double {
    guard let segment = segment(at: time) else { return initial }
    return segment.value(at: time - segment.start)
  }

  public func velocity(at time: Double) -> Double {
    guard let segment = segment(at: time), time < duration else { return 0 }
    return segment.velocity(at: time - segment.start)
  }

  /// The last segment that has started by `time`.
  private func segment(at time: Double) -> Segment? {
    segments.last { $0.start <= time }
  }
}

/// A keyframe for a value of any animatable kind: one number keyframe per
/// component, each interpolated on its own (a spring's velocity per component).
public struct ValueKeyframe: Hashable, Sendable {
  public let kind: AnimatableKind
  public let components: [Keyframe]

  public init(kind: AnimatableKind, components: [Keyframe]) {
    self.kind = kind
    self.components = components
  }

  /// A number keyframe.
  public init(_ keyframe: Keyframe) {
    self.init(kind: .number, components: [keyframe])
  }

  /// A `SpringKeyframe` for every component. With no duration a composite's
  /// components all run for the spring's own settling duration
  /// (`Spring.settlingDuration()`, as SwiftUI's), so they stay in step even
  /// when some start on target; a number settles from where it starts.
  public static func spring(
    kind: AnimatableKind, to: [Double], duration: Double?, spring: Spring,
    startVelocity: [Double?]
  ) -> ValueKeyframe {
    let shared = duration ?? (kind == .number ? nil : spring.settlingDuration())
    let components = to.indices.map {
      Keyframe.spring(
        to: to[$0], duration: shared, spring: spring,
        startVelocity: $0 < startVelocity.count ? startVelocity[$0] : nil)
    }
    return ValueKeyframe(kind: kind, components: components)
  }

  /// The value the track reaches at this keyframe's end, component by component.
  public var target: [Double] { components.map(\.target) }
}

/// Why keyframes cannot make a track: one line naming the track and keyframe.
public struct KeyframeError: Error, CustomStringConvertible, Sendable {
  public let description: String
}

/// Tracks of keyframes for several keys, as SwiftUI's `KeyframeTimeline`:
/// each track plays from its key's value; `components(_:at:)` scrubs it
/// from the timeline's initial values. A track animates one kind of value
/// (a number, point, size, rect, colour or array) as one number track per
/// component.
public struct KeyframeTimeline: Sendable {
  public struct Track: Sendable {
    public let key: String
    public let kind: AnimatableKind
    /// One number track per component of `kind`, in its order.
    public let components: [KeyframeTrack]
  }

  /// Tracks sorted by key.
  public let tracks: [Track]
  /// Each key's value before the timeline starts, for scrubbing.
  public let initial: [String: [Double]]
  /// Delay and speed, applied to every track when played.
  public var modifiers = AnimationModifiers.none
  private let scrubbed: [String: [ResolvedKeyframes]]

  /// Tracks of keyframes of any kind; every keyframe of a track, and its
  /// initial value, must be of one kind.
  public init(
    values: [String: [ValueKeyframe]], initial: [String: (AnimatableKind, [Double])] = [:]
  )
    throws(KeyframeError)
  {
    var tracks: [Track] = []
    for key in values.keys.sorted() {
      tracks.append(try Self.track(key, values[key] ?? []))
    }
    var starts: [String: [Double]] = [:]
    for track in tracks {
      guard let (kind, value) = initial[track.key] else { continue }
      guard kind == track.kind, value.count == kind.count else {
        throw KeyframeError(
          description:
            "initial value for '\(track.key)' is \(kind); its track animates \(track.kind)")
      }
      starts[track.key] = value
    }
    self.init(tracks: tracks, initial: starts)
  }

  /// Tracks of number keyframes.
  public init(tracks: [String: [Keyframe]], initial: [String: Double] = [:]) {
    let built = tracks.keys.sorted().map {
      Track(key: $0, kind: .number, components: [KeyframeTrack(tracks[$0] ?? [])])
    }
    self.init(tracks: built, initial: initial.mapValues { [$0] })
  }

  private init(tracks: [Track], initial: [String: [Double]]) {
    self.tracks = tracks
    self.initial = initial
    var scrubbed: [String: [ResolvedKeyframes]] = [:]
    for track in tracks {
      let start = initial[track.key] ?? Array(repeating: 0, count: track.components.count)
      scrubbed[track.key] = zip(track.components, start).map {
        $0.resolved(from: $1, velocity: 0)
      }
    }
    self.scrubbed = scrubbed
  }

  /// One track from keyframes that must all be of the first one's kind.
  private static func track(_ key: String, _ keyframes: [ValueKeyframe]) throws(KeyframeError)
    -> Track
  {
    guard let kind = keyframes.first?.kind else {
      throw KeyframeError(description: "track '\(key)' has no keyframes")
    }
    for (i, k) in keyframes.enumerated() where k.kind != kind || k.components.count != kind.count {
      throw KeyframeError(
        description: "track '\(key)' keyframe \(i + 1) is \(k.kind), but keyframe 1 is \(kind)")
    }
    let components = (0..<kind.count).map { c in KeyframeTrack(keyframes.map { $0.components[c] }) }
    return Track(key: key, kind: kind, components: components)
  }

  public var keys: [String] { tracks.map(\.key) }

  /// How many keyframes the timeline holds, counting each component.
  public var keyframeCount: Int {
    tracks.reduce(0) { $0 + $1.components.reduce(0) { $0 + $1.keyframes.count } }
  }

  public func kind(_ key: String) -> AnimatableKind? { tracks.first { $0.key == key }?.kind }

  /// The longest track's duration, from the initial values.
  public var duration: Double { scrubbed.values.joined().map(\.duration).max() ?? 0 }

  /// Key `key`'s components `time` seconds into the timeline (modifiers aside).
  public func components(_ key: String, at time: Double) -> [Double]? {
    scrubbed[key]?.map { $0.value(at: time) }
  }

  /// A number track's value `time` seconds into the timeline (modifiers aside).
  public func value(_ key: String, at time: Double) -> Double? {
    guard kind(key) == .number else { return nil }
    return components(key, at: time)?.first
  }
}
