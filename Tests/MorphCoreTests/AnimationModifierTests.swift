import Foundation
import Testing

@testable import MorphCore

/// SwiftUI's `Animation` modifiers, from their documented behaviour: a delay
/// holds the value, speed scales the curve's clock, repeats play the curve
/// again (every other play backwards with autoreverse), and a finished
/// repeating animation sits on its target.
@Suite struct AnimationModifierTests {
  static let linear = TimingCurve(bezier: .linear, duration: 1)

  func channel(_ modifiers: AnimationModifiers) -> (AnimationChannel, [Int]) {
    var curve = AnimationCurve.timing(Self.linear)
    curve.modifiers = modifiers
    var c = AnimationChannel(value: 0)
    let replaced = c.animate(to: 10, with: curve, at: 2, id: 1)
    return (c, replaced)
  }

  @Test func aDelayHoldsTheValueThenPlays() {
    let (c, _) = channel(AnimationModifiers.none.delayed(by: 0.5))
    #expect(c.presented(at: 2.25) == 0)
    #expect(c.velocity(at: 2.25) == 0)
    #expect(abs(c.presented(at: 3.0) - 5) < 1e-6)
    #expect(c.offsets[0].end == 3.5)
  }

  @Test func speedScalesTheCurvesClock() {
    let (c, _) = channel(AnimationModifiers.none.speed(2))
    #expect(abs(c.presented(at: 2.25) - 5) < 1e-6)
    #expect(abs(c.velocity(at: 2.25) - 20) < 1e-3)
    #expect(c.offsets[0].end == 2.5)
  }

  @Test func repeatsWithAutoreverseGoBackAndForthThenLandOnTheTarget() {
    let (c, _) = channel(AnimationModifiers.none.repeatCount(3, autoreverses: true))
    #expect(abs(c.presented(at: 2.25) - 2.5) < 1e-6)  // forwards
    #expect(abs(c.presented(at: 3.25) - 7.5) < 1e-6)  // backwards
    #expect(c.velocity(at: 3.25) < 0)
    #expect(abs(c.presented(at: 4.25) - 2.5) < 1e-6)  // forwards again
    #expect(c.offsets[0].end == 5)
    #expect(c.presented(at: 5.5) == 10)
  }

  @Test func repeatsWithoutAutoreverseStartOver() {
    let (c, _) = channel(AnimationModifiers.none.repeatCount(2, autoreverses: false))
    #expect(abs(c.presented(at: 2.5) - 5) < 1e-6)
    #expect(abs(c.presented(at: 3.5) - 5) < 1e-6)
    #expect(c.offsets[0].end == 4)
  }

  @Test func repeatForeverNeverCompletes() {
    var engine = AnimationEngine()
    engine.define("glow", value: 0)
    var curve = AnimationCurve.timing(Self.linear)
    curve.modifiers = AnimationModifiers.none.repeatForever(autoreverses: true)
    let (id, done) = engine.animate([("glow", 1)], with: curve, at: 0)
    #expect(done.isEmpty)
    #expect(engine.advance(to: 1e6).isEmpty)
    #expect(engine.isAnimating)
    #expect(engine.hasEndlessAnimation)
    // Replacing it completes it, as SwiftUI's completion for a replaced animation.
    let (_, replaced) = engine.animate([("glow", 0)], with: .timing(Self.linear), at: 1e6)
    #expect(replaced == [id])
  }

  @Test func aDelayedSpringStartsFromRestWhereItWas() {
    var curve = AnimationCurve.spring(SpringAnimation(.smooth))
    curve.modifiers = AnimationModifiers.none.delayed(by: 0.2)
    var c = AnimationChannel(value: 0)
    _ = c.animate(to: 1, with: curve, at: 0, id: 1)
    #expect(c.presented(at: 0.1) == 0)
    let s = Spring.smooth
    #expect(abs(c.presented(at: 0.45) - s.value(target: 1, initial: 0, time: 0.25)) < 1e-12)
  }

  /// A channel animated 0 → 1 over `linear(1)` with `modifiers`, from time 0.
  func unit(_ modifiers: AnimationModifiers) -> AnimationChannel {
    var curve = AnimationCurve.timing(Self.linear)
    curve.modifiers = modifiers
    var c = AnimationChannel(value: 0)
    _ = c.animate(to: 1, with: curve, at: 0, id: 1)
    return c
  }

  /// SwiftUI's order (issue 34): a delay inside a repeat waits before every pass
  /// (SwiftUI-Shimmer's pause between sweeps), one outside it waits once.
  @Test func aDelayInsideARepeatWaitsEveryPassAndOutsideOnce() {
    let inside = unit(.none.delayed(by: 0.5).repeatForever(autoreverses: false))
    #expect(inside.presented(at: 1.75) == 0)
    #expect(abs(inside.presented(at: 2.25) - 0.25) < 1e-6)
    #expect(abs(inside.presented(at: 1.0) - 0.5) < 1e-6)
    let outside = unit(.none.repeatForever(autoreverses: false).delayed(by: 0.5))
    #expect(abs(outside.presented(at: 1.75) - 0.25) < 1e-6)
    #expect(abs(outside.presented(at: 2.25) - 0.75) < 1e-6)
    #expect(outside.presented(at: 0.25) == 0)
  }

  /// Speed scales what it wraps: a delay written before it too.
  @Test func speedScalesADelayWrittenBeforeIt() {
    let before = unit(.none.delayed(by: 1).speed(2))
    #expect(before.offsets[0].end == 1)
    #expect(before.presented(at: 0.45) == 0)
    #expect(abs(before.presented(at: 0.75) - 0.5) < 1e-6)
    #expect(abs(before.velocity(at: 0.75) - 2) < 1e-3)
    let after = unit(.none.speed(2).delayed(by: 1))
    #expect(after.offsets[0].end == 1.5)
    #expect(after.presented(at: 0.95) == 0)
    #expect(abs(after.presented(at: 1.25) - 0.5) < 1e-6)
  }

  /// Repeat and speed commute; a delay inside an autoreversing repeat reverses with
  /// the pass, so the value waits at its start twice in a row and never at its end.
  @Test func repeatsCommuteWithSpeedAndReverseTheirDelay() {
    let a = unit(.none.repeatCount(2, autoreverses: false).speed(2))
    let b = unit(.none.speed(2).repeatCount(2, autoreverses: false))
    #expect(a.offsets[0].end == 1 && b.offsets[0].end == 1)
    for t in stride(from: 0.0, through: 1, by: 0.05) {
      #expect(abs(a.presented(at: t) - b.presented(at: t)) < 1e-9)
    }
    let c = unit(.none.delayed(by: 0.5).repeatForever(autoreverses: true))
    #expect(abs(c.presented(at: 1.25) - 0.75) < 1e-6)  // forwards
    #expect(abs(c.presented(at: 1.75) - 0.75) < 1e-6)  // backwards
    #expect(c.velocity(at: 1.75) < 0)
    #expect(c.presented(at: 2.75) == 0)  // waiting at the start after the reverse pass
    #expect(c.presented(at: 3.25) == 0)  // and before the next forward one
  }

  /// A transition plays once: the repeats go, delays and speeds stay in their order.
  @Test func aTransitionKeepsDelayAndSpeedInOrder() {
    let m = AnimationModifiers.none.delayed(by: 0.5).repeatForever(autoreverses: false).speed(2)
    #expect(m.once == AnimationModifiers.none.delayed(by: 0.5).speed(2))
    #expect(m.once.duration(cycle: 1) == 0.75)
  }
}
