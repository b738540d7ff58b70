import Foundation
import Testing

@testable import MorphCore

// Independent reference: plain bisection on x(t), 60 halvings.
private func referenceY(_ b: UnitBezier, _ x: Double) -> Double {
  var lo = 0.0
  var hi = 1.0
  for _ in 0..<60 {
    let mid = (lo + hi) / 2
    if b.sampleCurveX(mid) < x { lo = mid } else { hi = mid }
  }
  return b.sampleCurveY((lo + hi) / 2)
}

@Test func solverMatchesBisection() {
  let curves: [UnitBezier] = [
    .ease, .easeIn, .easeOut, .easeInOut, .linear,
    UnitBezier(0.68, -0.6, 0.32, 1.6),
    UnitBezier(0.1, 0.9, 0.2, 1.5),
    UnitBezier(0.9, 0, 0.1, 1),
  ]
  for b in curves {
    var worst = 0.0
    for i in 0...1999 {
      let x = Double(i) / 1999
      worst = max(worst, abs(b(x) - referenceY(b, x)))
    }
    #expect(worst < 1e-6, "\(b): \(worst)")
  }
}

@Test func presetsHaveCssControlPoints() {
  #expect(UnitBezier.easeIn == UnitBezier(0.42, 0, 1, 1))
  #expect(UnitBezier.easeOut == UnitBezier(0, 0, 0.58, 1))
  #expect(UnitBezier.easeInOut == UnitBezier(0.42, 0, 0.58, 1))
  #expect(UnitBezier.ease == UnitBezier(0.25, 0.1, 0.25, 1))
  #expect(abs(UnitBezier.easeInOut(0.5) - 0.5) < 1e-7)
  #expect(UnitBezier.easeIn(0.5) < 0.5)
  #expect(UnitBezier.easeOut(0.5) > 0.5)
}

@Test func linearIsIdentity() {
  // x(t) is not t for these control points, so y = x only to the solver's epsilon.
  for i in 0...1000 {
    let x = Double(i) / 1000
    #expect(abs(UnitBezier.linear(x) - x) < 1e-7)
  }
}

/// Outside [0, 1] the curve follows its end tangents (WebKit's
/// `UnitBezier::solve`, CSS Easing Level 1): the slope at the start is
/// p1y/p1x, at the end (p2y − 1)/(p2x − 1); degenerate control points fall
/// back to the other point, then to the identity.
@Test func inputOutsideTheUnitIntervalExtrapolates() {
  #expect(abs(UnitBezier.ease(-0.1) - (-0.04)) < 1e-12)
  // ease ends flat (p2 = (0.25, 1)): beyond 1 it stays at 1.
  #expect(abs(UnitBezier.ease(1.5) - 1) < 1e-12)
  let back = UnitBezier(0.68, -0.6, 0.32, 1.6)
  #expect(abs(back(1.1) - (1 + (0.6 / -0.68) * 0.1)) < 1e-12)
  #expect(abs(back(1.1) - 0.911_76) < 1e-5)
  #expect(abs(back(-0.2) - (-0.6 / 0.68) * -0.2) < 1e-12)
  // p1 at the origin: the start slope comes from p2.
  #expect(abs(UnitBezier(0, 0, 0.5, 0.25)(-1) - (-0.5)) < 1e-12)
  // Both at the ends: linear.
  #expect(UnitBezier(0, 0, 1, 1)(2) == 2)
  // A timing animation still clamps its time.
  #expect(TimingCurve(bezier: back, duration: 1).progress(at: 1.1) == 1)
}

@Test func timingCurveProgress() {
  let curve = TimingCurve(bezier: .easeInOut, duration: 2)
  #expect(curve.progress(at: -1) == 0)
  #expect(abs(curve.progress(at: 1) - 0.5) < 1e-7)
  #expect(abs(curve.progress(at: 3) - 1) < 1e-12)
  #expect(TimingCurve(bezier: .ease, duration: 0).progress(at: 0) == 1)
}
