import Foundation
import Testing

@testable import MorphCore

private func close(_ a: Double, _ b: Double, _ tol: Double = 1e-12) -> Bool {
  abs(a - b) <= tol
}

@Test func outBackMidpoint() {
  // 1 + 2.70158·(−0.125) + 1.70158·0.25
  #expect(close(Easing.outBack(0.5), 1.0876975))
}

@Test func outBounceTouchdowns() {
  // Each parabola of the bounce touches 1 exactly at these points.
  for x in [1 / 2.75, 2 / 2.75, 2.5 / 2.75, 1] {
    #expect(close(Easing.outBounce(x), 1), "x = \(x)")
  }
  #expect(close(Easing.outBounce(0.5 / 2.75), 7.5625 * pow(0.5 / 2.75, 2)))
}

@Test func inOutElasticAgainstHandFormula() {
  let c5 = 2 * Double.pi / 4.5
  let low = { (x: Double) in -(pow(2, 20 * x - 10) * sin((20 * x - 11.125) * c5)) / 2 }
  let high = { (x: Double) in pow(2, -20 * x + 10) * sin((20 * x - 11.125) * c5) / 2 + 1 }
  let f = Easing.inOutElastic
  #expect(f(0) == 0)
  #expect(close(f(0.25), low(0.25)))
  #expect(close(f(0.25), 0.011969444423734044))
  #expect(close(f(0.5), high(0.5)))
  #expect(close(f(0.5), 0.5))
  #expect(close(f(0.75), high(0.75)))
  #expect(close(f(0.75), 0.988030555576266))
  #expect(f(1) == 1)
}

@Test func everyCaseHitsEndpoints() {
  for e in Easing.allCases {
    #expect(e(0) == 0, "\(e)")
    #expect(e(1) == 1, "\(e)")
    // The formulas approach the pinned endpoints; Penner's expo and elastic curves
    // jump by 2⁻¹⁰ there by design, which is why easings.net special-cases them.
    let name = e.rawValue
    let jump = name.hasSuffix("Expo") || name.hasSuffix("Elastic") ? 1e-3 : 1e-4
    #expect(abs(e(1e-9)) < jump, "\(e)")
    #expect(abs(e(1 - 1e-9) - 1) < jump, "\(e)")
  }
}

@Test func monotonicFamilies() {
  let families = ["Quad", "Cubic", "Quart", "Quint", "Sine", "Expo", "Circ"]
  let cases = Easing.allCases.filter { e in
    e == .linear || families.contains { e.rawValue.hasSuffix($0) }
  }
  #expect(cases.count == 29)
  for e in cases {
    var previous = e(0)
    for i in 1...1000 {
      let y = e(Double(i) / 1000)
      #expect(y >= previous - 1e-15, "\(e) at \(i)")
      previous = y
    }
  }
}

@Test func outInJoinsHalves() {
  #expect(close(Easing.outInQuad(0.25), Easing.outQuad(0.5) / 2))
  #expect(close(Easing.outInQuad(0.75), Easing.inQuad(0.5) / 2 + 0.5))
  #expect(close(Easing.outInCubic(0.5), 0.5))
}

@Test func playdateFormMatches() {
  for e in Easing.allCases {
    for t in stride(from: 0.0, through: 2.0, by: 0.25) {
      #expect(close(e.value(t: t, b: 10, c: -4, d: 2), 10 - 4 * e(t / 2)), "\(e)")
    }
    #expect(e.value(t: 0, b: 3, c: 5, d: 0) == 8)
  }
}

@Test func namedLookup() {
  #expect(Easing.named("inOutBack") == .inOutBack)
  #expect(Easing.named("OUTINBOUNCE") == .outInBounce)
  #expect(Easing.named("linear") == .linear)
  #expect(Easing.named("wobbly") == nil)
  #expect(Easing.allCases.count == 41)
}
