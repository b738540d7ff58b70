import Foundation

/// Scalar helpers shared by easing, springs and plugin math (GLSL-style names).
public enum Scalar {
  /// Linear interpolation: `a` at `t = 0`, `b` at `t = 1`; `t` is not clamped.
  public static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double {
    a + (b - a) * t
  }

  /// GLSL `mix`: the same as `lerp`, kept under the name shader authors expect.
  public static func mix(_ a: Double, _ b: Double, _ t: Double) -> Double {
    lerp(a, b, t)
  }

  /// `x` limited to `lo...hi`.
  public static func clamp(_ x: Double, _ lo: Double, _ hi: Double) -> Double {
    Swift.min(Swift.max(x, lo), hi)
  }

  /// Maps `x` linearly from `inMin...inMax` to `outMin...outMax` (unclamped);
  /// `outMin` when the input range is empty.
  public static func remap(
    _ x: Double, inMin: Double, inMax: Double, outMin: Double, outMax: Double
  ) -> Double {
    let span = inMax - inMin
    guard span != 0 else { return outMin }
    return outMin + (x - inMin) / span * (outMax - outMin)
  }

  /// GLSL `smoothstep`: Hermite ramp from 0 at `e0` to 1 at `e1`.
  public static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
    // GLSL leaves e0 == e1 undefined; a hard step keeps it well defined here.
    guard e0 != e1 else { return x < e0 ? 0 : 1 }
    let t = clamp((x - e0) / (e1 - e0), 0, 1)
    return t * t * (3 - 2 * t)
  }

  /// GLSL `fract`: `x − floor(x)`, in `[0, 1)` for finite `x`.
  public static func fract(_ x: Double) -> Double {
    x - floor(x)
  }

  /// The classic shader hash `fract(sin(i·12.9898)·43758.5453)` (the ticket-tear seed's).
  public static func hash(_ i: Double) -> Double {
    fract(sin(i * 12.9898) * 43758.5453)
  }

  /// A well-mixed integer hash (splitmix64) mapped to `[0, 1)`.
  public static func hashInt(_ i: Int64, seed: UInt64 = 0) -> Double {
    var z = UInt64(bitPattern: i) &+ seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    // The top 53 bits fill a Double's mantissa exactly, so the result is < 1.
    return Double(z >> 11) * 0x1p-53
  }

  /// Degrees to radians.
  public static func radians(_ degrees: Double) -> Double {
    degrees * .pi / 180
  }

  /// Radians to degrees.
  public static func degrees(_ radians: Double) -> Double {
    radians * 180 / .pi
  }

  /// An angle in degrees wrapped to `[0, 360)`.
  public static func wrapDegrees(_ degrees: Double) -> Double {
    var r = degrees.truncatingRemainder(dividingBy: 360)
    if r < 0 { r += 360 }
    // A tiny negative remainder plus 360 can round up to 360 itself.
    return r >= 360 ? 0 : r
  }

  /// The signed turn in degrees, in `(−180, 180]`, that takes `from` to `to`.
  public static func shortestAngleDelta(from: Double, to: Double) -> Double {
    let d = wrapDegrees(to - from)
    return d > 180 ? d - 360 : d
  }
}
