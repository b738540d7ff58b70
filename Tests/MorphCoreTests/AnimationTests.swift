import Foundation
import Testing

@testable import MorphCore

private let spring = AnimationCurve.spring(
  SpringAnimation(Spring(response: 0.5, dampingRatio: 0.8)))
private let additive = AnimationCurve.spring(
  SpringAnimation(Spring(mass: 1, stiffness: 300, damping: 40), combination: .additive))
private let easeOut = AnimationCurve.timing(TimingCurve(bezier: .easeOut, duration: 0.5))

@Suite struct AnimationChannelTests {
  @Test func springFollowsTheClosedForm() {
    var c = AnimationChannel(value: 0)
    _ = c.animate(to: 1, with: spring, at: 0, id: 1)
    let s = Spring(response: 0.5, dampingRatio: 0.8)
    for t in stride(from: 0.0, through: 1.0, by: 0.1) {
      #expect(abs(c.presented(at: t) - s.value(target: 1, initial: 0, time: t)) < 1e-12)
    }
  }

  @Test func retargetingASpringKeepsValueAndVelocity() {
    var c = AnimationChannel(value: 0)
    _ = c.animate(to: 1, with: spring, at: 0, id: 1)
    let value = c.presented(at: 0.1)
    let velocity = c.velocity(at: 0.1)
    let replaced = c.animate(to: -1, with: spring, at: 0.1, id: 2)
    #expect(replaced == [1])
    #expect(abs(c.presented(at: 0.1) - value) < 1e-12)
    #expect(abs(c.velocity(at: 0.1) - velocity) < 1e-9)
    #expect(c.offsets.count == 1)
  }

  @Test func interpolatingSpringsAddUp() {
    var c = AnimationChannel(value: 0)
    _ = c.animate(to: 1, with: additive, at: 0, id: 1)
    let before = c.presented(at: 0.05)
    let replaced = c.animate(to: 2, with: additive, at: 0.05, id: 2)
    #expect(replaced.isEmpty)
    #expect(c.offsets.count == 2)
    // Continuous at the retarget, and the sum of both springs' offsets after.
    #expect(abs(c.presented(at: 0.05) - before) < 1e-12)
    let s = Spring(mass: 1, stiffness: 300, damping: 40)
    let t = 0.2
    let expected =
      2 + s.displacement(x0: -1, v0: 0, t: t) + s.displacement(x0: -1, v0: 0, t: t - 0.05)
    #expect(abs(c.presented(at: t) - expected) < 1e-12)
  }

  @Test func timingCurvesRestartFromThePresentedValue() {
    var c = AnimationChannel(value: 0)
    _ = c.animate(to: 1, with: easeOut, at: 0, id: 1)
    let mid = c.presented(at: 0.2)
    _ = c.animate(to: 0, with: easeOut, at: 0.2, id: 2)
    #expect(abs(c.presented(at: 0.2) - mid) < 1e-12)
    #expect(abs(c.presented(at: 0.7)) < 1e-12)
    #expect(c.retire(at: 0.7) == [2])
    #expect(!c.isAnimating)
  }

  @Test func settingCancelsAnimations() {
    var c = AnimationChannel(value: 0)
    _ = c.animate(to: 1, with: spring, at: 0, id: 1)
    #expect(c.set(0.5) == [1])
    #expect(c.presented(at: 0.3) == 0.5)
  }
}

@Suite struct AnimationEngineTests {
  @Test func completionFiresOnceWhenEveryKeyFinishes() {
    var e = AnimationEngine()
    e.define("a", value: 0)
    e.define("b", value: 0)
    let (id, done) = e.animate(
      [("a", 1), ("b", 1)], with: .timing(TimingCurve(bezier: .linear, duration: 0.3)), at: 0)
    #expect(done.isEmpty)
    #expect(e.advance(to: 0.2).isEmpty)
    #expect(e.advance(to: 0.3) == [id])
    #expect(e.advance(to: 1).isEmpty)
  }

  @Test func aReplacedAnimationCompletes() {
    var e = AnimationEngine()
    e.define("a", value: 0)
    let first = e.animate([("a", 1)], with: spring, at: 0).id
    let second = e.animate([("a", 0)], with: spring, at: 0.1)
    #expect(second.completed == [first])
  }

  @Test func steppingInTicksEqualsOneJump() {
    var stepped = AnimationEngine()
    var jumped = AnimationEngine()
    stepped.define("x", value: 0)
    jumped.define("x", value: 0)
    _ = stepped.animate([("x", 1)], with: spring, at: 0)
    _ = jumped.animate([("x", 1)], with: spring, at: 0)
    for i in 1...60 { _ = stepped.advance(to: Double(i) / 120) }
    _ = jumped.advance(to: 0.5)
    #expect(stepped.presented("x", at: 0.5) == jumped.presented("x", at: 0.5))
  }
}
