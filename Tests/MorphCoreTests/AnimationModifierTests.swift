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
}
