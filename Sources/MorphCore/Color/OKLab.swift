import Foundation

/// A colour in Björn Ottosson's OKLab space: `l` lightness (0 black, 1
/// white), `a` green–red, `b` blue–yellow. Equal steps in OKLab look like
/// equal steps, so a blend through it keeps its lightness and has no grey
/// dip between saturated hues, as a blend of sRGB components has.
public struct OKLab: Hashable, Sendable {
  public var l: Double
  public var a: Double
  public var b: Double

  public init(l: Double, a: Double, b: Double) {
    self.l = l
    self.a = a
    self.b = b
  }

  /// The colour's OKLab coordinates (its alpha is not part of them).
  public init(_ color: Color) {
    let r = Self.linear(color.red)
    let g = Self.linear(color.green)
    let bl = Self.linear(color.blue)
    let lms = [
      0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * bl,
      0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * bl,
      0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * bl,
    ].map { cbrt($0) }
    l = 0.2104542553 * lms[0] + 0.7936177850 * lms[1] - 0.0040720468 * lms[2]
    a = 1.9779984951 * lms[0] - 2.4285922050 * lms[1] + 0.4505937099 * lms[2]
    b = 0.0259040371 * lms[0] + 0.7827717662 * lms[1] - 0.8086757660 * lms[2]
  }

  /// The sRGB colour with `alpha`; coordinates outside the sRGB gamut are
  /// clamped per component (as `Color` clamps).
  public func color(alpha: Double = 1) -> Color {
    let lms = [
      l + 0.3963377774 * a + 0.2158037573 * b,
      l - 0.1055613458 * a - 0.0638541728 * b,
      l - 0.0894841775 * a - 1.2914855480 * b,
    ].map { $0 * $0 * $0 }
    let r = 4.0767416621 * lms[0] - 3.3077115913 * lms[1] + 0.2309699292 * lms[2]
    let g = -1.2684380046 * lms[0] + 2.6097574011 * lms[1] - 0.3413193965 * lms[2]
    let bl = -0.0041960863 * lms[0] - 0.7034186147 * lms[1] + 1.7076147010 * lms[2]
    return Color(
      red: Self.gamma(r), green: Self.gamma(g), blue: Self.gamma(bl), alpha: alpha)
  }

  /// sRGB's transfer function, undone.
  private static func linear(_ c: Double) -> Double {
    c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
  }

  /// sRGB's transfer function.
  private static func gamma(_ c: Double) -> Double {
    c <= 0.0031308 ? 12.92 * c : 1.055 * pow(max(c, 0), 1 / 2.4) - 0.055
  }
}

extension Color {
  /// The four numbers a colour animates as: OKLab `l`, `a`, `b` multiplied
  /// by alpha, then alpha. Premultiplied, as CSS Color 4 interpolates: a
  /// fade from `clear` keeps the other colour's hue all the way instead of
  /// passing through the invisible colour's black.
  public var animatableChannels: [Double] {
    let lab = OKLab(self)
    return [lab.l * alpha, lab.a * alpha, lab.b * alpha, alpha]
  }

  /// The colour from `animatableChannels` (any values: a spring may
  /// overshoot; alpha is clamped to [0, 1], an invisible colour is `clear`).
  public init(animatableChannels c: [Double]) {
    guard c.count == 4, c[3] > 0 else {
      self = .clear
      return
    }
    let alpha = min(c[3], 1)
    // Divide by the unclamped alpha: the premultiplied point is what moved.
    self = OKLab(l: c[0] / c[3], a: c[1] / c[3], b: c[2] / c[3]).color(alpha: alpha)
  }
}
