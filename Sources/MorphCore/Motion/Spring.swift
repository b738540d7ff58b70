import Foundation

/// A damped spring modelled on SwiftUI's `Spring`: mass, stiffness and damping,
/// with closed-form position and velocity (no numerical integration, so any frame
/// rate gives the same curve).
public struct Spring: Hashable, Sendable {
  /// The mass at the end of the spring.
  public let mass: Double
  /// The spring constant k.
  public let stiffness: Double
  /// The drag coefficient c.
  public let damping: Double

  /// A spring from physical constants (SwiftUI's `interpolatingSpring` uses these).
  public init(mass: Double = 1, stiffness: Double, damping: Double) {
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
  }

  /// SwiftUI's `Spring(mass:stiffness:damping:allowOverDamping:)`: unless
  /// over-damping is allowed, a damping above critical is taken as critical
  /// (`2√(km)`), as SwiftUI does; `interpolatingSpring` samples the same way.
  public init(mass: Double = 1, stiffness: Double, damping: Double, allowOverDamping: Bool) {
    let critical = 2 * (stiffness * mass).squareRoot()
    self.init(
      mass: mass, stiffness: stiffness,
      damping: allowOverDamping ? damping : min(damping, critical))
  }

  /// A spring of mass 1 whose undamped period is `response` seconds (must be > 0).
  public init(response: Double, dampingRatio: Double) {
    let omega = 2 * Double.pi / response
    self.init(mass: 1, stiffness: omega * omega, damping: 4 * Double.pi * dampingRatio / response)
  }

  /// SwiftUI's perceptual form: `bounce` 0 is critical, > 0 bouncy, < 0 over-damped.
  public init(duration: Double = 0.5, bounce: Double = 0) {
    let ratio = bounce < 0 ? 1 / (1 + bounce) : 1 - bounce
    self.init(response: duration, dampingRatio: ratio)
  }

  /// Undamped angular frequency ω₀ = √(k/m).
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

  /// Undamped period 2π/ω₀, in seconds.
  public var response: Double { 2 * Double.pi / naturalFrequency }

  /// ζ = c / (2√(km)); 1 is critical damping.
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

  /// The `bounce` that `init(duration:bounce:)` would need to give this spring.
  public var bounce: Double {
    let ratio = dampingRatio
    return ratio <= 1 ? 1 - ratio : 1 / ratio - 1
  }

  /// The perceptual duration; equal to `response`, as in SwiftUI.
  public var duration: Double { response }
}

// MARK: - Presets

extension Spring {
  /// SwiftUI `.smooth`: 0.5 s, no bounce.
  public static let smooth = Spring(duration: 0.5, bounce: 0)
  /// SwiftUI `.snappy`: 0.5 s, a little bounce.
  public static let snappy = Spring(duration: 0.5, bounce: 0.15)
  /// SwiftUI `.bouncy`: 0.5 s, visible bounce.
  public static let bouncy = Spring(duration: 0.5, bounce: 0.3)

  /// `.smooth` with a custom duration and added bounce.
  public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: extraBounce)
  }

  /// `.snappy` with a custom duration and added bounce.
  public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: 0.15 + extraBounce)
  }

  /// `.bouncy` with a custom duration and added bounce.
  public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: 0.3 + extraBounce)
  }

  /// What `spring()` means in plugins: duration 0.5, bounce 0 (docs/design.md, Motion).
  /// SwiftUI's `spring(duration:bounce:)` has these defaults; its older
  /// `spring(response:dampingFraction:)` defaults differ (ζ 0.825; response 0.5 in
  /// current docs, 0.55 in early SDKs).
  // swift-format-ignore: DontRepeatTypeInStaticProperties
  public static let defaultSpring = Spring(duration: 0.5, bounce: 0)

  /// SwiftUI `interactiveSpring()`: response 0.15, ζ 0.86.
  public static let interactive = Spring(response: 0.15, dampingRatio: 0.86)
  /// The blend duration SwiftUI pairs with `interactiveSpring()`, in seconds.
  public static let interactiveBlendDuration = 0.25
}

// MARK: - Closed form

extension Spring {
  /// Position at `time` of a spring released at `initial` with `initialVelocity`.
  public func value(
    target: Double, initial: Double = 0, initialVelocity: Double = 0, time: Double
  ) -> Double {
    target + displacement(x0: initial - target, v0: initialVelocity, t: time)
  }

  /// Velocity at `time` of a spring released at `initial` with `initialVelocity`.
  public func velocity(
    target: Double, initial: Double = 0, initialVelocity: Double = 0, time: Double
  ) -> Double {
    displacementVelocity(x0: initial - target, v0: initialVelocity, t: time)
  }

  /// Displacement from the target at time `t`, starting at `x0` with velocity `v0`.
  public func displacement(x0: Double, v0: Double, t: Double) -> Double {
    solve(x0: x0, v0: v0, t: t).x
  }

  /// Velocity at time `t`, starting at displacement `x0` with velocity `v0`.
  public func displacementVelocity(x0: Double, v0: Double, t: Double) -> Double {
    solve(x0: x0, v0: v0, t: t).v
  }

  private func solve(x0: Double, v0: Double, t: Double) -> (x: Double, v: Double) {
    let zeta = dampingRatio
    if abs(zeta - 1) < 1e-9 { return critical(x0: x0, v0: v0, t: t) }
    return zeta < 1 ? under(x0: x0, v0: v0, t: t) : over(x0: x0, v0: v0, t: t)
  }

  private func critical(x0: Double, v0: Double, t: Double) -> (x: Double, v: Double) {
    let w0 = naturalFrequency
    let b = v0 + w0 * x0
    let e = exp(-w0 * t)
    let x = e * (x0 + b * t)
    return (x, e * b - w0 * x)
  }

  private func under(x0: Double, v0: Double, t: Double) -> (x: Double, v: Double) {
    let w0 = naturalFrequency
    let zeta = dampingRatio
    let lambda = zeta * w0
    let wd = w0 * (1 - zeta * zeta).squareRoot()
    let b = (v0 + lambda * x0) / wd
    let e = exp(-lambda * t)
    let c = cos(wd * t)
    let s = sin(wd * t)
    let x = e * (x0 * c + b * s)
    return (x, -lambda * x + e * wd * (b * c - x0 * s))
  }

  // e^{−λt}[x₀ cosh st + (v₀+λx₀)/s · sinh st], written as two decaying exponentials
  // so that cosh and sinh cannot overflow at large t.
  private func over(x0: Double, v0: Double, t: Double) -> (x: Double, v: Double) {
    let w0 = naturalFrequency
    let zeta = dampingRatio
    let root = (zeta * zeta - 1).squareRoot()
    let lambda = zeta * w0
    let s = w0 * root
    let b = (v0 + lambda * x0) / s
    // −λ + s, rearranged to avoid cancellation when ζ is large.
    let slow = -w0 / (zeta + root)
    let fast = -lambda - s
    let a1 = (x0 + b) / 2
    let a2 = (x0 - b) / 2
    let e1 = exp(slow * t)
    let e2 = exp(fast * t)
    return (a1 * e1 + a2 * e2, a1 * slow * e1 + a2 * fast * e2)
  }
}

// MARK: - Settling

extension Spring {
  /// Seconds until a unit step (0 → 1 from rest) stays within `epsilon` of 1.
  public func settlingDuration(epsilon: Double = 0.001) -> Double {
    settlingDuration(target: 1, initial: 0, initialVelocity: 0, epsilon: epsilon)
  }

  /// Seconds until `|value − target|` stays below `epsilon·|initial − target|`
  /// (`epsilon` itself when the spring starts on target). Velocity is not
  /// considered. Exact to ~1e-12 s for any damping, with no horizon: an
  /// undamped spring never settles (`.infinity`).
  public func settlingDuration(
    target: Double, initial: Double, initialVelocity: Double = 0, epsilon: Double = 0.001
  ) -> Double {
    let x0 = initial - target
    let threshold = epsilon * (x0 == 0 ? 1 : abs(x0))
    return settleTime(x0: x0, v0: initialVelocity, threshold: threshold)
  }

  /// The last time `|x(t)| ≥ threshold`. An envelope `E(t) ≥ |x(t)|` that
  /// only decays bounds it from above; the last crossing lies in a short
  /// window before that bound (see `docs/motion.md`), found by sampling the
  /// window and bisecting. A fixed number of evaluations, whatever the spring.
  private func settleTime(x0: Double, v0: Double, threshold: Double) -> Double {
    guard threshold > 0, threshold.isFinite else { return threshold > 0 ? 0 : .infinity }
    if x0 == 0 && v0 == 0 { return 0 }
    guard damping > 0 else { return .infinity }
    let bound = envelopeBound(x0: x0, v0: v0, threshold: threshold)
    guard bound.isFinite else { return .infinity }
    if bound <= 0 { return 0 }
    // Underdamped: the last peak above the threshold is within a tenth of a
    // period of the envelope's crossing; two periods leave a wide margin.
    let zeta = dampingRatio
    let period = zeta < 1 ? 2 * Double.pi / (naturalFrequency * (1 - zeta * zeta).squareRoot()) : 0
    let windowStart = zeta < 1 ? max(0, bound - 2 * period) : 0
    let outside = { (t: Double) in abs(self.displacement(x0: x0, v0: v0, t: t)) >= threshold }
    let samples = 1024
    let step = (bound - windowStart) / Double(samples)
    var i = samples
    while i >= 0 && !outside(windowStart + Double(i) * step) { i -= 1 }
    if i < 0 { return windowStart == 0 ? 0 : windowStart }
    var lo = windowStart + Double(i) * step
    var hi = min(bound, lo + step)
    for _ in 0..<64 where hi - lo > 1e-12 {
      let mid = (lo + hi) / 2
      if outside(mid) { lo = mid } else { hi = mid }
    }
    return hi
  }

  /// A time after which `|x(t)|` is below `threshold` for good: where a
  /// decaying envelope of the motion meets it.
  private func envelopeBound(x0: Double, v0: Double, threshold: Double) -> Double {
    let w0 = naturalFrequency
    let zeta = dampingRatio
    if zeta < 1 - 1e-9 {
      // |x| ≤ A·e^{−λt} with A = √(x₀² + b²).
      let lambda = zeta * w0
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      let b = (v0 + lambda * x0) / wd
      let amplitude = (x0 * x0 + b * b).squareRoot()
      return log(amplitude / threshold) / lambda
    }
    // Critical: |x| ≤ e^{−ω₀t}(|x₀| + |v₀ + ω₀x₀|·t). Overdamped: |a₁|e^{st} +
    // |a₂|e^{ft}. Both fall for good after their peak; find where they meet
    // the threshold by doubling, then bisecting.
    let envelope: (Double) -> Double
    if abs(zeta - 1) <= 1e-9 {
      let b = abs(v0 + w0 * x0)
      envelope = { t in exp(-w0 * t) * (abs(x0) + b * t) }
    } else {
      let root = (zeta * zeta - 1).squareRoot()
      let s = w0 * root
      let b = (v0 + zeta * w0 * x0) / s
      let slow = -w0 / (zeta + root)
      let fast = -zeta * w0 - s
      let a1 = abs(x0 + b) / 2
      let a2 = abs(x0 - b) / 2
      envelope = { t in a1 * exp(slow * t) + a2 * exp(fast * t) }
    }
    // Past 1/ω₀ both envelopes only fall (the critical one peaks before it,
    // the sum of decays at 0), so any time there below the threshold is a
    // bound; past it, double and then bisect on the falling part.
    var lo = 1 / w0
    if envelope(lo) < threshold { return lo }
    var hi = 2 * lo
    var doublings = 0
    while envelope(hi) >= threshold {
      lo = hi
      hi *= 2
      doublings += 1
      if doublings > 2000 || !hi.isFinite { return .infinity }
    }
    for _ in 0..<200 where hi - lo > 1e-12 * hi {
      let mid = (lo + hi) / 2
      if envelope(mid) >= threshold { lo = mid } else { hi = mid }
    }
    return hi
  }
}

// MARK: - Stepping

/// Position and velocity of a value driven by a spring.
public struct SpringState: Hashable, Sendable {
  /// Current position.
  public var value: Double
  /// Current velocity, in units per second.
  public var velocity: Double

  /// A state at `value` moving at `velocity`.
  public init(value: Double, velocity: Double = 0) {
    self.value = value
    self.velocity = velocity
  }
}

extension Spring {
  /// Advances `state` by `dt` seconds towards `target`. Exact (closed form), so many
  /// small steps equal one big one, and retargeting keeps the velocity.
  public func step(_ state: SpringState, target: Double, dt: Double) -> SpringState {
    let r = solve(x0: state.value - target, v0: state.velocity, t: dt)
    return SpringState(value: target + r.x, velocity: r.v)
  }
}
