import Foundation
import Testing

@testable import MorphCore

/// Keyframes from SwiftUI's documentation of `KeyframeTimeline`,
/// `LinearKeyframe`, `SpringKeyframe`, `CubicKeyframe` and `MoveKeyframe`:
/// each keyframe reaches its value at the end of its duration; tracks play
/// one keyframe after another from the initial value; a timeline can be
/// scrubbed at any time.
@Suite struct KeyframeTests {
  func track(_ keyframes: [Keyframe], from: Double = 0, velocity: Double = 0) -> ResolvedKeyframes {
    KeyframeTrack(keyframes).resolved(from: from, velocity: velocity)
  }

  @Test func linearKeyframesReachEachValueAtTheEndOfTheirDuration() {
    let k = track([
      .linear(to: 10, duration: 1, curve: .linear), .linear(to: 4, duration: 0.5, curve: .linear),
    ])
    #expect(k.duration == 1.5)
    #expect(abs(k.value(at: 0.5) - 5) < 1e-9)
    #expect(abs(k.value(at: 1) - 10) < 1e-9)
    #expect(abs(k.value(at: 1.25) - 7) < 1e-9)
    #expect(abs(k.velocity(at: 0.5) - 10) < 1e-6)
    // Before the start the initial value, after the end the last value.
    #expect(k.value(at: -1) == 0)
    #expect(abs(k.value(at: 9) - 4) < 1e-9)
    #expect(k.velocity(at: 9) == 0)
  }

  @Test func aLinearKeyframeFollowsItsTimingCurve() {
    let k = track([.linear(to: 1, duration: 1, curve: .easeIn)])
    #expect(abs(k.value(at: 0.5) - UnitBezier.easeIn(0.5)) < 1e-9)
  }

  @Test func aMoveKeyframeJumpsWithNoDuration() {
    let k = track([.move(to: 3), .linear(to: 5, duration: 1, curve: .linear)], from: 100)
    #expect(k.value(at: 0) == 3)
    #expect(abs(k.value(at: 0.5) - 4) < 1e-9)
    #expect(k.duration == 1)
  }

  @Test func aSpringKeyframeWithoutADurationRunsUntilTheSpringSettles() {
    let spring = Spring(duration: 0.5, bounce: 0.3)
    let k = track([.spring(to: 1, duration: nil, spring: spring, startVelocity: nil)])
    let settling = spring.settlingDuration(target: 1, initial: 0, initialVelocity: 0)
    #expect(abs(k.duration - settling) < 1e-9)
    #expect(abs(k.value(at: 0.2) - spring.value(target: 1, time: 0.2)) < 1e-12)
    #expect(abs(k.endValue - 1) <= 0.001)
  }

  @Test func aSpringKeyframeStartsAtItsStartVelocityOrTheOneCarriedIn() {
    let spring = Spring(duration: 0.5, bounce: 0)
    let given = track([.spring(to: 0, duration: 1, spring: spring, startVelocity: 8)])
    #expect(abs(given.velocity(at: 0) - 8) < 1e-9)
    // After a linear keyframe moving at 10/s, a spring with no velocity of
    // its own keeps moving at 10/s: smooth motion.
    let carried = track([
      .linear(to: 10, duration: 1, curve: .linear),
      .spring(to: 0, duration: 1, spring: spring, startVelocity: nil),
    ])
    #expect(abs(carried.velocity(at: 1) - 10) < 1e-3)
  }

  @Test func aSpringCutShortHandsItsValueAndVelocityToTheNextKeyframe() {
    let spring = Spring(duration: 1, bounce: 0)
    let k = track([
      .spring(to: 10, duration: 0.2, spring: spring, startVelocity: nil),
      .linear(to: 10, duration: 1, curve: .linear),
    ])
    let cut = spring.value(target: 10, time: 0.2)
    #expect(abs(k.value(at: 0.2) - cut) < 1e-9)
    #expect(abs(k.value(at: 0.7) - (cut + (10 - cut) * 0.5)) < 1e-9)
  }

  @Test func cubicKeyframesPassThroughTheirValuesSmoothly() {
    let k = track([
      .cubic(to: 10, duration: 1, startVelocity: nil, endVelocity: nil),
      .cubic(to: 0, duration: 1, startVelocity: nil, endVelocity: nil),
      .cubic(to: 10, duration: 1, startVelocity: nil, endVelocity: nil),
    ])
    #expect(abs(k.value(at: 1) - 10) < 1e-9)
    #expect(abs(k.value(at: 2)) < 1e-9)
    // Catmull-Rom: the tangent at a joint is the slope between its neighbours.
    #expect(abs(k.velocity(at: 1) - (0 - 0) / 2) < 1e-9)
    #expect(abs(k.velocity(at: 2) - (10 - 10) / 2) < 1e-9)
    // C1 at the joints: the same velocity either side.
    let h = 1e-6
    for joint in [1.0, 2.0] {
      #expect(abs(k.velocity(at: joint - h) - k.velocity(at: joint + h)) < 1e-3)
    }
  }

  @Test func aCubicUsesGivenVelocitiesAsHermiteTangents() {
    let k = track([.cubic(to: 0, duration: 1, startVelocity: 4, endVelocity: -2)])
    #expect(abs(k.velocity(at: 0) - 4) < 1e-9)
    #expect(abs(k.velocity(at: 1 - 1e-9) - -2) < 1e-6)
    #expect(abs(k.value(at: 1)) < 1e-12)
  }

  @Test func aCubicAfterAnotherKindStartsAtThatSegmentsEndVelocity() {
    let k = track([
      .linear(to: 5, duration: 1, curve: .linear),
      .cubic(to: 10, duration: 1, startVelocity: nil, endVelocity: nil),
    ])
    #expect(abs(k.velocity(at: 1) - 5) < 1e-3)
    // A cubic before a linear keyframe ends at the linear one's velocity.
    let before = track([
      .cubic(to: 5, duration: 1, startVelocity: nil, endVelocity: nil),
      .linear(to: 25, duration: 1, curve: .linear),
    ])
    #expect(abs(before.velocity(at: 1 - 1e-7) - 20) < 1e-3)
  }

  @Test func aTimelineScrubsEveryTrackFromItsInitialValue() {
    let timeline = KeyframeTimeline(
      tracks: [
        "scale": [.linear(to: 2, duration: 0.5, curve: .linear)],
        "angle": [.linear(to: 90, duration: 1, curve: .linear)],
      ], initial: ["scale": 1])
    #expect(timeline.keys == ["angle", "scale"])
    #expect(timeline.duration == 1)
    #expect(abs((timeline.value("scale", at: 0.25) ?? 0) - 1.5) < 1e-6)
    #expect(abs((timeline.value("angle", at: 0.25) ?? 0) - 22.5) < 1e-6)
    #expect(timeline.value("scale", at: 1) == 2)
    #expect(timeline.value("missing", at: 0) == nil)
  }

  @Test func theEnginePlaysATrackFromThePresentedValueAndSetsItsTarget() {
    var engine = AnimationEngine()
    engine.define("x", value: 3)
    let curve = AnimationCurve.keyframes(
      KeyframeTrack([.linear(to: 7, duration: 1, curve: .linear)]))
    let (id, completed) = engine.play([(key: "x", curve: curve)], at: 0)
    #expect(completed.isEmpty)
    #expect(engine.target("x") == 7)
    #expect(abs((engine.presented("x", at: 0.5) ?? 0) - 5) < 1e-9)
    #expect(abs(engine.velocity("x", at: 0.5) - 4) < 1e-6)
    #expect(engine.advance(to: 0.9).isEmpty)
    #expect(engine.advance(to: 1) == [id])
    #expect(engine.presented("x", at: 2) == 7)
  }

  @Test func aRepeatedTrackRestartsFromItsStartEachPlay() {
    var engine = AnimationEngine()
    engine.define("x", value: 0)
    var curve = AnimationCurve.keyframes(
      KeyframeTrack([.linear(to: 10, duration: 1, curve: .linear)]))
    curve.modifiers = curve.modifiers.repeatForever(autoreverses: false)
    _ = engine.play([(key: "x", curve: curve)], at: 0)
    #expect(abs((engine.presented("x", at: 1.25) ?? 0) - 2.5) < 1e-6)
    #expect(engine.hasEndlessAnimation && !engine.hasFiniteAnimation)
  }
}
