import Foundation
import Testing

@testable import MorphCore

@Test func lerpClampRemap() {
  #expect(Scalar.lerp(2, 6, 0.25) == 3)
  #expect(Scalar.lerp(2, 6, 1.5) == 8)
  #expect(Scalar.mix(2, 6, 0.5) == Scalar.lerp(2, 6, 0.5))
  #expect(Scalar.clamp(5, 0, 1) == 1)
  #expect(Scalar.clamp(-5, 0, 1) == 0)
  #expect(Scalar.clamp(0.3, 0, 1) == 0.3)
  #expect(Scalar.remap(5, inMin: 0, inMax: 10, outMin: 100, outMax: 200) == 150)
  #expect(Scalar.remap(15, inMin: 0, inMax: 10, outMin: 0, outMax: 1) == 1.5)
  #expect(Scalar.remap(3, inMin: 2, inMax: 2, outMin: 7, outMax: 9) == 7)
}

@Test func smoothstepShape() {
  #expect(Scalar.smoothstep(0, 1, -1) == 0)
  #expect(Scalar.smoothstep(0, 1, 2) == 1)
  #expect(Scalar.smoothstep(0, 1, 0.5) == 0.5)
  #expect(abs(Scalar.smoothstep(10, 20, 12.5) - 0.15625) < 1e-12)
  #expect(Scalar.smoothstep(1, 1, 0.5) == 0)
}

@Test func fractAndAngles() {
  #expect(abs(Scalar.fract(3.25) - 0.25) < 1e-12)
  #expect(abs(Scalar.fract(-0.25) - 0.75) < 1e-12)
  #expect(abs(Scalar.radians(180) - .pi) < 1e-12)
  #expect(abs(Scalar.degrees(.pi / 2) - 90) < 1e-12)
  #expect(Scalar.wrapDegrees(-90) == 270)
  #expect(Scalar.wrapDegrees(720) == 0)
  #expect(Scalar.wrapDegrees(-1e-20) == 0)
  #expect(Scalar.shortestAngleDelta(from: 350, to: 10) == 20)
  #expect(Scalar.shortestAngleDelta(from: 10, to: 350) == -20)
  #expect(Scalar.shortestAngleDelta(from: 0, to: 180) == 180)
  #expect(Scalar.shortestAngleDelta(from: 180, to: 0) == 180)
}

@Test func shaderHash() {
  let x = sin(12.9898) * 43758.5453
  #expect(Scalar.hash(1) == x - floor(x))
  for i in 0..<100 {
    let h = Scalar.hash(Double(i))
    #expect(h >= 0 && h < 1)
  }
}

@Test func integerHash() {
  var values: Set<Double> = []
  for i in Int64(-500)..<500 {
    let h = Scalar.hashInt(i)
    #expect(h >= 0 && h < 1)
    #expect(h != Scalar.hashInt(i + 1))
    values.insert(h)
  }
  #expect(values.count == 1000)
  #expect(Scalar.hashInt(7, seed: 1) != Scalar.hashInt(7))
  #expect(Scalar.hashInt(.max) < 1)
  // Roughly uniform: the mean of 1000 draws sits near 0.5.
  let mean = values.reduce(0, +) / Double(values.count)
  #expect(abs(mean - 0.5) < 0.05)
}
