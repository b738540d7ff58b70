import Foundation
import Testing

@testable import MorphCore

/// OKLab from Björn Ottosson's published reference values, and how a colour
/// animates through it.
@Suite struct OKLabTests {
  func close(_ a: OKLab, _ l: Double, _ x: Double, _ y: Double, _ tol: Double = 1e-3) -> Bool {
    abs(a.l - l) < tol && abs(a.a - x) < tol && abs(a.b - y) < tol
  }

  @Test func referenceColours() {
    #expect(close(OKLab(.white), 1, 0, 0))
    #expect(close(OKLab(.black), 0, 0, 0))
    #expect(close(OKLab(Color(red: 1, green: 0, blue: 0)), 0.628, 0.225, 0.126))
    #expect(close(OKLab(Color(red: 0, green: 1, blue: 0)), 0.866, -0.234, 0.179))
    #expect(close(OKLab(Color(red: 0, green: 0, blue: 1)), 0.452, -0.032, -0.312))
  }

  @Test func roundTripsThroughSRGB() {
    for c in [Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.7), .white, Color(white: 0.3)] {
      let back = Color(animatableChannels: c.animatableChannels)
      #expect(abs(back.red - c.red) < 1e-6 && abs(back.green - c.green) < 1e-6)
      #expect(abs(back.blue - c.blue) < 1e-6 && abs(back.alpha - c.alpha) < 1e-12)
    }
  }

  /// Halfway from red to green: sRGB components dip to a dark olive
  /// (lightness falls), OKLab keeps the lightness between the two.
  @Test func aBlendKeepsItsLightnessWhereSRGBDips() {
    let red = Color(red: 1, green: 0, blue: 0)
    let green = Color(red: 0, green: 1, blue: 0)
    let a = red.animatableChannels
    let b = green.animatableChannels
    let mid = Color(animatableChannels: zip(a, b).map { ($0 + $1) / 2 })
    let l = OKLab(mid).l
    #expect(abs(l - (0.628 + 0.866) / 2) < 0.01)
    #expect(OKLab(red.mix(with: green, amount: 0.5)).l < l - 0.05)
  }

  /// Premultiplied: a fade in from clear keeps the colour's own hue.
  @Test func aFadeFromClearKeepsTheHue() {
    let blue = Color(red: 0, green: 0.478, blue: 1)
    let mid = Color(
      animatableChannels: zip(Color.clear.animatableChannels, blue.animatableChannels)
        .map { ($0 + $1) / 2 })
    #expect(abs(mid.alpha - 0.5) < 1e-12)
    #expect(abs(mid.red - blue.red) < 1e-6 && abs(mid.blue - blue.blue) < 1e-6)
    #expect(Color(animatableChannels: [0.5, 0, 0, 0]) == .clear)
  }
}
