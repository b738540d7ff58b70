import Foundation
import Testing

@testable import MorphCore

// Reference: RK4 on m·x″ = −k·x − c·x′.
private func rk4(_ s: Spring, x0: Double, v0: Double, until end: Double) -> (Double, Double) {
  let dt = 1e-5
  let steps = Int((end / dt).rounded())
  let accel = { (x: Double, v: Double) in (-s.stiffness * x - s.damping * v) / s.mass }
  var x = x0
  var v = v0
  for _ in 0..<steps {
    let k1x = v
    let k1v = accel(x, v)
    let k2x = v + k1v * dt / 2
    let k2v = accel(x + k1x * dt / 2, v + k1v * dt / 2)
    let k3x = v + k2v * dt / 2
    let k3v = accel(x + k2x * dt / 2, v + k2v * dt / 2)
    let k4x = v + k3v * dt
    let k4v = accel(x + k3x * dt, v + k3v * dt)
    x += (k1x + 2 * k2x + 2 * k3x + k4x) * dt / 6
    v += (k1v + 2 * k2v + 2 * k3v + k4v) * dt / 6
  }
  return (x, v)
}

@Test(arguments: [0.3, 1.0, 2.0])
func closedFormMatchesIntegration(zeta: Double) {
  let s = Spring(response: 0.5, dampingRatio: zeta)
  for end in [0.1, 0.4, 1.5] {
    let (x, v) = rk4(s, x0: 1, v0: -3, until: end)
    #expect(abs(s.displacement(x0: 1, v0: -3, t: end) - x) < 1e-5, "ζ \(zeta) t \(end)")
    #expect(abs(s.displacementVelocity(x0: 1, v0: -3, t: end) - v) < 1e-5, "ζ \(zeta) t \(end)")
  }
}

@Test func valueAndVelocityUseTarget() {
  let s = Spring.bouncy
  let t = 0.2
  let x = s.displacement(x0: 10 - 4, v0: 2, t: t)
  #expect(abs(s.value(target: 4, initial: 10, initialVelocity: 2, time: t) - (4 + x)) < 1e-12)
  #expect(s.value(target: 4, initial: 10, time: 0) == 10)
  #expect(abs(s.velocity(target: 4, initial: 10, initialVelocity: 2, time: 0) - 2) < 1e-12)
}

@Test func durationBounceConstants() {
  let s = Spring(duration: 0.5, bounce: 0.3)
  #expect(s.mass == 1)
  #expect(abs(s.stiffness - 157.91) < 0.1)
  #expect(abs(s.damping - 17.59) < 0.1)
}

@Test(arguments: [-0.6, -0.2, 0.0, 0.15, 0.3, 0.8])
func parametersRoundTrip(bounce: Double) {
  let s = Spring(duration: 0.7, bounce: bounce)
  #expect(abs(s.bounce - bounce) < 1e-12)
  #expect(abs(s.duration - 0.7) < 1e-12)
  #expect(abs(s.response - 0.7) < 1e-12)
  let t = Spring(response: s.response, dampingRatio: s.dampingRatio)
  #expect(abs(t.stiffness - s.stiffness) < 1e-9)
  #expect(abs(t.damping - s.damping) < 1e-9)
  let u = Spring(mass: 2, stiffness: 50, damping: 3)
  let w = Spring(response: u.response, dampingRatio: u.dampingRatio)
  #expect(abs(w.response - u.response) < 1e-12)
  #expect(abs(w.dampingRatio - u.dampingRatio) < 1e-12)
}

@Test func presets() {
  #expect(Spring.smooth == Spring(duration: 0.5, bounce: 0))
  #expect(Spring.defaultSpring == Spring.smooth)
  #expect(abs(Spring.snappy.dampingRatio - 0.85) < 1e-12)
  #expect(abs(Spring.bouncy.dampingRatio - 0.7) < 1e-12)
  #expect(abs(Spring.interactive.response - 0.15) < 1e-12)
  #expect(abs(Spring.interactive.dampingRatio - 0.86) < 1e-12)
  #expect(Spring.smooth(duration: 1, extraBounce: 0.1) == Spring(duration: 1, bounce: 0.1))
  #expect(Spring.bouncy(extraBounce: 0.1) == Spring(duration: 0.5, bounce: 0.4))
}

@Test(arguments: [0.3, 1.0, 2.0])
func steppingMatchesClosedForm(zeta: Double) {
  let s = Spring(response: 0.4, dampingRatio: zeta)
  let dt = 1.0 / 60
  var state = SpringState(value: 3, velocity: -1)
  for _ in 0..<90 { state = s.step(state, target: 8, dt: dt) }
  let once = s.step(SpringState(value: 3, velocity: -1), target: 8, dt: 90 * dt)
  #expect(abs(state.value - once.value) < 1e-9)
  #expect(abs(state.velocity - once.velocity) < 1e-9)
  let direct = s.value(target: 8, initial: 3, initialVelocity: -1, time: 90 * dt)
  #expect(abs(once.value - direct) < 1e-12)
}

@Test func criticalSettlingDuration() {
  let s = Spring(response: 0.5, dampingRatio: 1)
  let settle = s.settlingDuration()
  #expect(settle > 0.73 && settle < 0.75, "\(settle)")
  checkSettled(s, x0: -1, settle: settle, eps: 0.001)
  #expect(abs(s.displacement(x0: -1, v0: 0, t: settle - 0.01)) >= 0.001)
}

@Test(arguments: [0.3, 2.0])
func settlingDurationProperty(zeta: Double) {
  let s = Spring(response: 0.5, dampingRatio: zeta)
  let settle = s.settlingDuration(target: 2, initial: 7, initialVelocity: 4)
  checkSettled(s, x0: 5, v0: 4, settle: settle, eps: 0.001)
  // Just before, the last excursion is still at or above the threshold.
  #expect(abs(s.displacement(x0: 5, v0: 4, t: settle - 1e-6)) >= 0.001 * 5 * (1 - 1e-6))
}

@Test func settlingEdgeCases() {
  // Starting on target at rest: settled immediately.
  #expect(Spring.smooth.settlingDuration(target: 1, initial: 1) == 0)
  // Starting on target with velocity: absolute epsilon.
  #expect(Spring.smooth.settlingDuration(target: 1, initial: 1, initialVelocity: 5) > 0)
  // No horizon: a very lazy spring settles when it settles, an undamped one never.
  let lazy = Spring(mass: 1, stiffness: 0.01, damping: 0.001)
  let settle = lazy.settlingDuration()
  #expect(settle > 60)
  checkSettled(lazy, x0: -1, settle: settle, eps: 0.001, span: 200, dt: 0.01)
  #expect(Spring(mass: 1, stiffness: 100, damping: 0).settlingDuration() == .infinity)
}

/// SwiftUI's `Spring(duration: 0.5, bounce: 0.999)` rings for minutes; the
/// settle time must be the last time it is outside the band, not a cap.
@Test func nearlyUndampedSpringSettlesWhereItSettles() {
  let s = Spring(duration: 0.5, bounce: 0.999)
  let settle = s.settlingDuration()
  // ζ = 0.001, ω₀ = 4π: the envelope e^{−ζω₀t} meets 0.001 near 550 s.
  #expect(settle > 500 && settle < 560, "\(settle)")
  checkSettled(s, x0: -1, settle: settle, eps: 0.001, span: 5, dt: 1e-3)
  // Just before, it is still outside the band somewhere in the last period.
  let before = stride(from: settle - 0.5, to: settle, by: 1e-4).map {
    abs(s.displacement(x0: -1, v0: 0, t: $0))
  }
  #expect(before.max()! >= 0.001 * (1 - 1e-6))
}

@Test(arguments: [0.05, 0.5, 0.93, 0.999_999, 1.0, 1.000_001, 3.0, 40.0])
func settleTimeIsTheLastCrossing(zeta: Double) {
  let s = Spring(response: 0.4, dampingRatio: zeta)
  for (x0, v0) in [(-1.0, 0.0), (2.0, -30.0), (0.0, 5.0), (-0.3, 12.0)] {
    let settle = s.settlingDuration(target: 0, initial: x0, initialVelocity: v0)
    let threshold = 0.001 * (x0 == 0 ? 1 : abs(x0))
    // Dense check after: inside the band; just before: outside it.
    var t = settle
    while t < settle + 3 {
      #expect(
        abs(s.displacement(x0: x0, v0: v0, t: t)) < threshold * (1 + 1e-6), "ζ \(zeta) t \(t)")
      t += settle / 2000 + 1e-4
    }
    if settle > 0 {
      #expect(abs(s.displacement(x0: x0, v0: v0, t: settle - 1e-7)) >= threshold * (1 - 1e-4))
    }
  }
}

private func checkSettled(
  _ s: Spring, x0: Double, v0: Double = 0, settle: Double, eps: Double, span: Double = 5,
  dt: Double = 1e-4
) {
  var t = settle
  while t < settle + span {
    let x = s.displacement(x0: x0, v0: v0, t: t)
    #expect(abs(x) < eps * abs(x0) * (1 + 1e-9), "t \(t) x \(x)")
    if abs(x) >= eps * abs(x0) * (1 + 1e-9) { return }
    t += dt
  }
}
