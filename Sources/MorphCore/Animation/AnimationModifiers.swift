/// How an animation's curve is played, as SwiftUI's `Animation` modifiers
/// set it: `delay(_:)`, `speed(_:)`, `repeatCount(_:autoreverses:)` and
/// `repeatForever(autoreverses:)`. Immutable; each modifier returns a copy.
public struct AnimationModifiers: Hashable, Sendable {
  /// Seconds before the curve starts; the value holds where it was.
  public private(set) var delay: Double = 0
  /// How fast the curve plays (2 is twice as fast). The delay is not scaled.
  public private(set) var speed: Double = 1
  /// How many times the curve plays; `nil` is forever.
  public private(set) var plays: Int? = 1
  /// Whether every other play runs backwards.
  public private(set) var autoreverses = false

  public init() {}

  public static let none = AnimationModifiers()

  public func delayed(by seconds: Double) -> AnimationModifiers {
    var copy = self
    copy.delay += max(0, seconds)
    return copy
  }

  public func speed(_ factor: Double) -> AnimationModifiers {
    var copy = self
    copy.speed *= factor
    return copy
  }

  public func repeatCount(_ count: Int, autoreverses: Bool) -> AnimationModifiers {
    var copy = self
    copy.plays = max(1, count)
    copy.autoreverses = autoreverses
    return copy
  }

  public func repeatForever(autoreverses: Bool) -> AnimationModifiers {
    var copy = self
    copy.plays = nil
    copy.autoreverses = autoreverses
    return copy
  }

  /// Whether the animation never finishes on its own.
  public var isEndless: Bool { plays == nil }

  /// Where a curve of `cycle` seconds is, `elapsed` seconds after it was
  /// started: `.waiting` during the delay, `.playing(t, reversed)` at curve
  /// time `t`, `.finished` once every play of a repeating curve is done (it
  /// then sits on its target, as SwiftUI's does). A single play goes on
  /// along its curve, which ends at the target by itself.
  public func position(elapsed: Double, cycle: Double) -> Position {
    let local = (elapsed - delay) * speed
    guard local >= 0 else { return .waiting }
    guard plays != 1, cycle > 0, cycle.isFinite else { return .playing(local, reversed: false) }
    if let plays, local >= Double(plays) * cycle { return .finished }
    let index = (local / cycle).rounded(.down)
    let t = local - index * cycle
    let reversed = autoreverses && index.truncatingRemainder(dividingBy: 2) == 1
    return .playing(reversed ? cycle - t : t, reversed: reversed)
  }

  /// Seconds from the start until every play is done (infinite when endless).
  public func duration(cycle: Double) -> Double {
    guard let plays else { return .infinity }
    guard speed > 0 else { return .infinity }
    return delay + Double(plays) * cycle / speed
  }

  public enum Position: Equatable, Sendable {
    case waiting
    case playing(Double, reversed: Bool)
    case finished
  }
}
