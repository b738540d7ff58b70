/// A spring as SwiftUI animates with it: the physical spring plus how a new
/// animation combines with a running one.
public struct SpringAnimation: Hashable, Sendable {
  /// How a retargeted animation treats the one already running.
  public enum Combination: String, Sendable {
    /// `spring(...)`: the new spring starts from the current value and
    /// velocity (SwiftUI merges springs).
    case merge
    /// `interpolatingSpring(...)`: the new animation is added on top of the
    /// running one, which finishes on its own.
    case additive
  }

  public var spring: Spring
  public var combination: Combination
  /// SwiftUI's `blendDuration` (kept for fidelity; the engine merges velocity).
  public var blendDuration: Double
  /// Extra velocity given at the start (interpolatingSpring's initialVelocity).
  public var initialVelocity: Double
  /// Delay, speed and repeats.
  public var modifiers = AnimationModifiers.none

  public init(
    _ spring: Spring, combination: Combination = .merge, blendDuration: Double = 0,
    initialVelocity: Double = 0
  ) {
    self.spring = spring
    self.combination = combination
    self.blendDuration = blendDuration
    self.initialVelocity = initialVelocity
  }
}

/// Any curve an animation can follow.
public enum AnimationCurve: Hashable, Sendable {
  case spring(SpringAnimation)
  case timing(TimingCurve)
  /// A keyframe track: it sets its own target (its last keyframe's value).
  case keyframes(KeyframeTrack)

  /// Delay, speed and repeats of either kind.
  public var modifiers: AnimationModifiers {
    get {
      switch self {
      case .spring(let s): return s.modifiers
      case .timing(let t): return t.modifiers
      case .keyframes(let k): return k.modifiers
      }
    }
    set {
      switch self {
      case .spring(var s):
        s.modifiers = newValue
        self = .spring(s)
      case .timing(var t):
        t.modifiers = newValue
        self = .timing(t)
      case .keyframes(var k):
        k.modifiers = newValue
        self = .keyframes(k)
      }
    }
  }
}
