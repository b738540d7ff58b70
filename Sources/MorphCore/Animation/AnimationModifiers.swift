/// How an animation's curve is played, as SwiftUI's `Animation` modifiers
/// set it: `delay(_:)`, `speed(_:)`, `repeatCount(_:autoreverses:)` and
/// `repeatForever(autoreverses:)`. Immutable; each modifier returns a copy.
///
/// Order matters, as in SwiftUI, where each modifier wraps the animation it is
/// called on: a modifier applies to everything written before it. So
/// `linear(1).delay(0.25).repeatForever()` waits before every pass (a period of
/// 1.25 s) and `linear(1).repeatForever().delay(0.25)` waits once;
/// `delay(1).speed(2)` halves the delay too and `speed(2).delay(1)` does not.
/// docs/motion.md, Delay, speed and repeat, has the worked examples.
public struct AnimationModifiers: Hashable, Sendable {
  /// One modifier, in the order written (the first wraps the curve itself).
  public enum Step: Hashable, Sendable {
    /// Seconds before what it wraps starts; the value holds where it was.
    case delay(Double)
    /// How fast what it wraps plays (2 is twice as fast).
    case speed(Double)
    /// How many times what it wraps plays (`nil`: forever), every other play
    /// backwards when `autoreverses`.
    case repeating(Int?, autoreverses: Bool)
  }

  /// The modifiers in the order they were applied.
  public private(set) var steps: [Step] = []

  /// The most modifiers one curve may carry: the chain is walked on every
  /// evaluation, and adjacent delays or speeds merge, so only a plugin that
  /// alternates them endlessly reaches it.
  public static let maxSteps = 32

  public init() {}

  public static let none = AnimationModifiers()

  public func delayed(by seconds: Double) -> AnimationModifiers {
    var copy = self
    let seconds = max(0, seconds)
    if case .delay(let d)? = steps.last {
      copy.steps[steps.count - 1] = .delay(d + seconds)
    } else {
      copy.steps.append(.delay(seconds))
    }
    return copy
  }

  public func speed(_ factor: Double) -> AnimationModifiers {
    var copy = self
    if case .speed(let s)? = steps.last {
      copy.steps[steps.count - 1] = .speed(s * factor)
    } else {
      copy.steps.append(.speed(factor))
    }
    return copy
  }

  public func repeatCount(_ count: Int, autoreverses: Bool) -> AnimationModifiers {
    var copy = self
    copy.steps.append(.repeating(max(1, count), autoreverses: autoreverses))
    return copy
  }

  public func repeatForever(autoreverses: Bool) -> AnimationModifiers {
    var copy = self
    copy.steps.append(.repeating(nil, autoreverses: autoreverses))
    return copy
  }

  /// These modifiers, then `outer`'s around them.
  public func then(_ outer: AnimationModifiers) -> AnimationModifiers {
    var copy = self
    copy.steps += outer.steps
    return copy
  }

  /// The same without its repeats (a transition plays its curve once).
  public var once: AnimationModifiers {
    var copy = AnimationModifiers()
    for step in steps {
      switch step {
      case .delay(let d): copy = copy.delayed(by: d)
      case .speed(let s): copy = copy.speed(s)
      case .repeating: break
      }
    }
    return copy
  }

  /// What to tell an author whose last modifier makes an order that usually means the
  /// other one (`check` shows it), or nil: a `speed` after a `delay` scales the delay
  /// too, and a `delay` inside an autoreversing repeat waits at the start twice in a
  /// row and never at the end.
  public var orderNote: String? {
    guard let last = steps.last else { return nil }
    let delays = steps.dropLast().contains {
      if case .delay = $0 { return true } else { return false }
    }
    guard delays else { return nil }
    switch last {
    case .speed:
      return
        ":speed after :delay scales the delay too (SwiftUI's order); put :delay after :speed to wait its seconds"
    case .repeating(_, autoreverses: true):
      return
        ":delay inside an autoreversing repeat waits at the start twice in a row and never at the end; put :delay after the repeat to wait once"
    default: return nil
    }
  }

  /// Whether the animation never finishes on its own.
  public var isEndless: Bool {
    steps.contains { if case .repeating(nil, _) = $0 { return true } else { return false } }
  }

  /// Every delay added up, unscaled (for showing, not timing).
  public var delay: Double {
    steps.reduce(0) { if case .delay(let d) = $1 { return $0 + d } else { return $0 } }
  }

  /// How fast the curve itself plays: every speed multiplied. The curve's
  /// velocity is scaled by it, wherever it sits in the chain.
  public var speed: Double {
    steps.reduce(1) { if case .speed(let s) = $1 { return $0 * s } else { return $0 } }
  }

  /// How many times the curve plays in all (`nil`: forever).
  public var plays: Int? {
    var total = 1
    for case .repeating(let n, _) in steps {
      guard let n else { return nil }
      total = total.multipliedReportingOverflow(by: n).overflow ? Int.max : total * n
    }
    return total
  }

  /// Where a curve of `cycle` seconds is, `elapsed` seconds after it was
  /// started: `.waiting` during a delay, `.playing(t, reversed)` at curve
  /// time `t`, `.finished` once every play of a repeating curve is done (it
  /// then sits on its target, as SwiftUI's does). A single play goes on
  /// along its curve, which ends at the target by itself.
  public func position(elapsed: Double, cycle: Double) -> Position {
    var local = elapsed
    var reversed = false
    // From the outermost modifier in: each maps its time to the time of what it wraps.
    for level in stride(from: steps.count - 1, through: 0, by: -1) {
      switch steps[level] {
      case .delay(let d):
        local -= d
        guard local >= 0 else { return .waiting }
      case .speed(let s):
        local *= s
      case .repeating(let plays, let autoreverses):
        guard plays != 1, local >= 0 else { continue }
        let inner = duration(cycle: cycle, through: level)
        guard inner > 0, inner.isFinite else { continue }
        if let plays, local >= Double(plays) * inner { return .finished }
        let index = (local / inner).rounded(.down)
        local -= index * inner
        if autoreverses && index.truncatingRemainder(dividingBy: 2) == 1 {
          local = inner - local
          reversed.toggle()
        }
      }
    }
    return .playing(local, reversed: reversed)
  }

  /// Seconds from the start until every play is done (infinite when endless).
  public func duration(cycle: Double) -> Double {
    duration(cycle: cycle, through: steps.count)
  }

  /// How long the curve wrapped in the first `count` modifiers runs.
  private func duration(cycle: Double, through count: Int) -> Double {
    var total = cycle
    for step in steps.prefix(count) {
      switch step {
      case .delay(let d): total += d
      case .speed(let s): total = s > 0 ? total / s : .infinity
      case .repeating(let plays, _):
        guard let plays else { return .infinity }
        total *= Double(plays)
      }
    }
    return total
  }

  public enum Position: Equatable, Sendable {
    case waiting
    case playing(Double, reversed: Bool)
    case finished
  }
}
