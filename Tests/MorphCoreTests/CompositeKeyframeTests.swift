import Foundation
import Testing

@testable import MorphCore

/// Keyframe tracks of whole composite values, from SwiftUI's KeyframeAnimator
/// model: a track animates one `Animatable` value (CGPoint, CGSize, CGRect, a
/// colour, a vector), every component through the same keyframes.
@Suite struct CompositeKeyframeTests {
  func point(_ keyframes: [ValueKeyframe], from start: [Double] = [0, 0]) throws
    -> KeyframeTimeline
  {
    try KeyframeTimeline(values: ["pos": keyframes], initial: ["pos": (.point, start)])
  }

  func linear(_ kind: AnimatableKind, _ to: [Double], _ d: Double) -> ValueKeyframe {
    ValueKeyframe(kind: kind, components: to.map { .linear(to: $0, duration: d, curve: .linear) })
  }

  func close(_ a: [Double]?, _ b: [Double], _ tolerance: Double = 1e-9) -> Bool {
    guard let a, a.count == b.count else { return false }
    return zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
  }

  /// `LinearKeyframe(CGPoint(x: 100, y: 50), duration: 1)` from the origin
  /// is at (50, 25) halfway.
  @Test func aLinearKeyframeBetweenTwoPointsIsAtTheMidpointHalfway() throws {
    let t = try point([linear(.point, [100, 50], 1)])
    #expect(close(t.components("pos", at: 0.5), [50, 25]))
    #expect(close(t.components("pos", at: 1), [100, 50]))
    #expect(t.kind("pos") == .point && t.duration == 1)
  }

  /// `CubicKeyframe`s through colours pass through each keyframe's colour
  /// at its end and, between, follow the Hermite curve whose unset tangents
  /// are Catmull-Rom's, component by component in the space `animate` uses.
  @Test func aCubicKeyframeThroughAColourPassesThroughIt() throws {
    let white = Color.white.animatableChannels
    let red = Color(red: 1, green: 0, blue: 0).animatableChannels
    let blue = Color(red: 0, green: 0, blue: 1).animatableChannels
    let cubic = { (to: [Double]) in
      ValueKeyframe(
        kind: .color,
        components: to.map { .cubic(to: $0, duration: 0.5, startVelocity: nil, endVelocity: nil) })
    }
    let t = try KeyframeTimeline(
      values: ["tint": [cubic(red), cubic(blue)]], initial: ["tint": (.color, white)])
    #expect(close(t.components("tint", at: 0.5), red))
    #expect(close(t.components("tint", at: 1), blue))
    // s = 0.5 of the first segment: h00 = h01 = 1/2, h10 = 1/8, h11 = -1/8;
    // it starts at rest and leaves red at (blue - white) / 1 s.
    let expected = (0..<4).map { (i: Int) -> Double in
      let ends: Double = 0.5 * white[i] + 0.5 * red[i]
      let tangent: Double = 0.125 * 0.5 * (blue[i] - white[i])
      return ends - tangent
    }
    #expect(close(t.components("tint", at: 0.25), expected))
  }

  /// `SpringKeyframe(to, duration: 0.25, spring:)` is cut at its duration,
  /// each component where SwiftUI's spring is then: x(t) = e^(-ζωt)(x0 cos ω_d t
  /// + (v0 + ζω x0)/ω_d sin ω_d t) with ω = 2π/duration, ζ = 1 - bounce.
  @Test func aSpringKeyframeEndsAtItsDurationWhereTheSpringIs() throws {
    let spring = Spring(duration: 0.5, bounce: 0.3)
    let k = ValueKeyframe.spring(
      kind: .point, to: [100, 0], duration: 0.25, spring: spring, startVelocity: [nil, nil])
    let t = try point([k])
    #expect(t.duration == 0.25)
    let omega = 2 * Double.pi / 0.5
    let zeta = 0.7
    let wd = omega * (1 - zeta * zeta).squareRoot()
    let x0 = -100.0
    let at = 0.25
    let x = exp(-zeta * omega * at) * (x0 * cos(wd * at) + zeta * omega * x0 / wd * sin(wd * at))
    #expect(close(t.components("pos", at: 0.25), [100 + x, 0], 1e-6))
    #expect(close(t.components("pos", at: 5), [100 + x, 0], 1e-6))
  }

  /// With no duration every component runs the spring's own settling
  /// duration, a component that starts on target too: they stay in step.
  @Test func aSpringKeyframeWithoutADurationKeepsItsComponentsInStep() throws {
    let spring = Spring(duration: 0.5, bounce: 0.3)
    let k = ValueKeyframe.spring(
      kind: .point, to: [100, 0], duration: nil, spring: spring, startVelocity: [nil, nil])
    let t = try point([k, linear(.point, [0, 50], 1)])
    let settle = spring.settlingDuration()
    #expect(abs(t.duration - (settle + 1)) < 1e-9)
    let halfway = t.components("pos", at: settle + 0.5) ?? []
    #expect(close(halfway, [50, 25], 0.05))
  }

  /// `startVelocity` per component: each starts moving at its own speed.
  @Test func springVelocityIsPerComponent() throws {
    let k = ValueKeyframe.spring(
      kind: .point, to: [0, 0], duration: 1, spring: Spring(duration: 0.5, bounce: 0),
      startVelocity: [300, -40])
    let track = try point([k]).tracks[0]
    let resolved = track.components.map { $0.resolved(from: 0, velocity: 0) }
    #expect(abs(resolved[0].velocity(at: 0) - 300) < 1e-9)
    #expect(abs(resolved[1].velocity(at: 0) + 40) < 1e-9)
  }

  @Test func keyframesOfAnotherKindNameTheirIndex() {
    #expect(throws: KeyframeError.self) {
      try point([linear(.point, [1, 2], 1), linear(.size, [3, 4], 1)])
    }
    do {
      _ = try point([
        linear(.point, [1, 2], 1), linear(.point, [1, 2], 1), linear(.array(2), [3, 4], 1),
      ])
      Issue.record("no error for an array after points")
    } catch {
      #expect(
        "\(error)"
          == "track 'pos' keyframe 3 is an array of 2 numbers, but keyframe 1 is a point {x, y}")
    }
    #expect(throws: KeyframeError.self) {
      try KeyframeTimeline(
        values: ["pos": [linear(.point, [1, 2], 1)]], initial: ["pos": (.number, [1])])
    }
  }
}
