import Foundation

/// A CSS-style timing curve: a cubic Bézier from (0, 0) to (1, 1) with two
/// control points, solved for x the way WebKit's `UnitBezier` does.
public struct UnitBezier: Hashable, Sendable {
  /// First control point's x (clamped to `[0, 1]`).
  public let p1x: Double
  /// First control point's y.
  public let p1y: Double
  /// Second control point's x (clamped to `[0, 1]`).
  public let p2x: Double
  /// Second control point's y.
  public let p2y: Double

  // Polynomial coefficients: x(t) = ((ax·t + bx)·t + cx)·t, likewise for y.
  private let ax: Double
  private let bx: Double
  private let cx: Double
  private let ay: Double
  private let by: Double
  private let cy: Double

  /// A curve with control points `(p1x, p1y)` and `(p2x, p2y)`; the x values are
  /// clamped to `[0, 1]`, as CSS requires, so that x(t) is monotonic.
  public init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
    self.p1x = Scalar.clamp(p1x, 0, 1)
    self.p1y = p1y
    self.p2x = Scalar.clamp(p2x, 0, 1)
    self.p2y = p2y
    cx = 3 * self.p1x
    bx = 3 * (self.p2x - self.p1x) - cx
    ax = 1 - cx - bx
    cy = 3 * p1y
    by = 3 * (p2y - p1y) - cy
    ay = 1 - cy - by
  }

  /// CSS `ease-in`.
  public static let easeIn = UnitBezier(0.42, 0, 1, 1)
  /// CSS `ease-out`.
  public static let easeOut = UnitBezier(0, 0, 0.58, 1)
  /// CSS `ease-in-out`.
  public static let easeInOut = UnitBezier(0.42, 0, 0.58, 1)
  /// CSS `linear`: the identity.
  public static let linear = UnitBezier(0, 0, 1, 1)
  /// CSS `ease`, the CSS default.
  public static let ease = UnitBezier(0.25, 0.1, 0.25, 1)

  /// The named curves, as Lua and SwiftUI name them: `morph.timing(name, d)` reads
  /// them, and the preview's inspector names a running curve by them.
  public static let presets: [(name: String, curve: UnitBezier)] = [
    ("linear", .linear), ("ease", .ease), ("easeIn", .easeIn), ("easeOut", .easeOut),
    ("easeInOut", .easeInOut),
  ]

  /// x at curve parameter `t`.
  public func sampleCurveX(_ t: Double) -> Double {
    ((ax * t + bx) * t + cx) * t
  }

  /// y at curve parameter `t`.
  public func sampleCurveY(_ t: Double) -> Double {
    ((ay * t + by) * t + cy) * t
  }

  /// dx/dt at curve parameter `t`.
  public func sampleCurveDerivativeX(_ t: Double) -> Double {
    (3 * ax * t + 2 * bx) * t + cx
  }

  /// dy/dt at curve parameter `t`.
  public func sampleCurveDerivativeY(_ t: Double) -> Double {
    (3 * ay * t + 2 * by) * t + cy
  }

  /// dy/dx at progress `x` in [0, 1]: how fast the eased value moves per
  /// unit of time. At a vertical tangent, the end's gradient (WebKit's rule).
  public func slope(at x: Double) -> Double {
    let t = solveCurveX(Scalar.clamp(x, 0, 1))
    let dx = sampleCurveDerivativeX(t)
    guard abs(dx) > 1e-12 else { return x < 0.5 ? startGradient : endGradient }
    return sampleCurveDerivativeY(t) / dx
  }

  /// The curve parameter `t` whose x is within `epsilon` of `x`.
  public func solveCurveX(_ x: Double, epsilon: Double = 1e-7) -> Double {
    if let t = newton(x, epsilon: epsilon) { return t }
    return bisect(x, epsilon: epsilon)
  }

  /// The curve's y at horizontal position `x`. Outside `[0, 1]` it goes on
  /// along the end tangents, as WebKit's `UnitBezier::solve` and CSS Easing
  /// do; the ends themselves are exact, so an animation lands on its target.
  public func callAsFunction(_ x: Double) -> Double {
    if x < 0 { return startGradient * x }
    if x > 1 { return 1 + endGradient * (x - 1) }
    if x == 0 { return 0 }
    if x == 1 { return 1 }
    return sampleCurveY(solveCurveX(x))
  }

  /// The slope at the start, from the first control point that is not at
  /// the start (WebKit's rule).
  public var startGradient: Double {
    if p1x > 0 { return p1y / p1x }
    if p1y == 0 && p2x > 0 { return p2y / p2x }
    if p1y == 0 && p2y == 0 { return 1 }
    return 0
  }

  /// The slope at the end, from the last control point that is not at the end.
  public var endGradient: Double {
    if p2x < 1 { return (p2y - 1) / (p2x - 1) }
    if p2y == 1 && p1x < 1 { return (p1y - 1) / (p1x - 1) }
    if p2y == 1 && p1y == 1 { return 1 }
    return 0
  }

  // Newton's method converges in a few steps except where dx/dt is near zero.
  private func newton(_ x: Double, epsilon: Double) -> Double? {
    var t = x
    for _ in 0..<8 {
      let error = sampleCurveX(t) - x
      // Outside [0, 1] the polynomial can hit x again; only the root inside counts.
      if abs(error) < epsilon { return (0...1).contains(t) ? t : nil }
      let slope = sampleCurveDerivativeX(t)
      if abs(slope) < 1e-6 { return nil }
      t -= error / slope
    }
    return nil
  }

  // Always converges: x(t) is monotonic on [0, 1].
  private func bisect(_ x: Double, epsilon: Double) -> Double {
    var lo = 0.0
    var hi = 1.0
    var t = Scalar.clamp(x, lo, hi)
    // 64 halvings reach the spacing of doubles in [0, 1]; stop there regardless.
    for _ in 0..<64 {
      let sample = sampleCurveX(t)
      if abs(sample - x) < epsilon { return t }
      if x > sample { lo = t } else { hi = t }
      t = (lo + hi) / 2
    }
    return t
  }
}

/// A Bézier timing curve run over a duration in seconds.
public struct TimingCurve: Hashable, Sendable {
  /// The shape of the curve.
  public var bezier: UnitBezier
  /// Length in seconds.
  public var duration: Double
  /// Delay, speed and repeats (they apply when an animation runs it).
  public var modifiers = AnimationModifiers.none

  /// A timing curve of `bezier` lasting `duration` seconds.
  public init(bezier: UnitBezier, duration: Double) {
    self.bezier = bezier
    self.duration = duration
  }

  /// Eased progress at time `t` seconds; 1 throughout when `duration <= 0`.
  public func progress(at t: Double) -> Double {
    guard duration > 0 else { return 1 }
    return bezier(Scalar.clamp(t / duration, 0, 1))
  }
}
