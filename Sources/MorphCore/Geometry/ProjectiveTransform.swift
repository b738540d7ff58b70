import Foundation

/// A 3×3 homography of the plane: maps `(x, y)` to
/// `((m11·x + m21·y + m31) / w, (m12·x + m22·y + m32) / w)` with
/// `w = m13·x + m23·y + m33` (row-vector convention, like Core Animation).
///
/// Affine transforms are the case `m13 = m23 = 0, m33 = 1`. A
/// `rotation3DEffect` with perspective maps the view's plane to the screen by
/// a homography too, so one type covers every transform a view can have.
public struct ProjectiveTransform: Hashable, Sendable {
  public var m11, m12, m13: Double
  public var m21, m22, m23: Double
  public var m31, m32, m33: Double

  public init(
    m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double,
    m31: Double, m32: Double, m33: Double
  ) {
    (self.m11, self.m12, self.m13) = (m11, m12, m13)
    (self.m21, self.m22, self.m23) = (m21, m22, m23)
    (self.m31, self.m32, self.m33) = (m31, m32, m33)
  }

  public init(_ t: AffineTransform) {
    self.init(m11: t.a, m12: t.b, m13: 0, m21: t.c, m22: t.d, m23: 0, m31: t.tx, m32: t.ty, m33: 1)
  }

  public static let identity = ProjectiveTransform(.identity)

  /// True when the transform has no perspective part.
  public var isAffine: Bool { m13 == 0 && m23 == 0 && m33 == 1 }

  /// The affine part (exact when `isAffine`).
  public var affine: AffineTransform {
    AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m31, ty: m32)
  }

  /// `self` applied after `first`.
  public func concatenating(after first: ProjectiveTransform) -> ProjectiveTransform {
    // Row vectors: p · first · self.
    let a = first
    let b = self
    return ProjectiveTransform(
      m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31,
      m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32,
      m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33,
      m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31,
      m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32,
      m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33,
      m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31,
      m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32,
      m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33)
  }

  /// The projective weight of `p`; a point with weight <= 0 is behind the eye.
  public func weight(_ p: Point) -> Double { m13 * p.x + m23 * p.y + m33 }

  public func apply(_ p: Point) -> Point {
    let w = weight(p)
    return Point((m11 * p.x + m21 * p.y + m31) / w, (m12 * p.x + m22 * p.y + m32) / w)
  }

  public var determinant: Double {
    m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31)
      + m13 * (m21 * m32 - m22 * m31)
  }

  /// The inverse (for hit testing), or nil when singular.
  public var inverted: ProjectiveTransform? {
    let det = determinant
    guard det != 0, det.isFinite else { return nil }
    let i = 1 / det
    return ProjectiveTransform(
      m11: (m22 * m33 - m23 * m32) * i, m12: (m13 * m32 - m12 * m33) * i,
      m13: (m12 * m23 - m13 * m22) * i,
      m21: (m23 * m31 - m21 * m33) * i, m22: (m11 * m33 - m13 * m31) * i,
      m23: (m13 * m21 - m11 * m23) * i,
      m31: (m21 * m32 - m22 * m31) * i, m32: (m12 * m31 - m11 * m32) * i,
      m33: (m11 * m22 - m12 * m21) * i)
  }

  public var isFinite: Bool {
    [m11, m12, m13, m21, m22, m23, m31, m32, m33].allSatisfy { $0.isFinite }
  }

  /// SwiftUI's `rotation3DEffect` about `anchor` (canvas point) with
  /// perspective `p`, for a view whose larger side is `extent`:
  /// `M = T(a)·P·R(θ, axis)·T(−a)`, `d = extent / p`; per point
  /// `v = R·(x − ax, y − ay, 0)`, `w = 1 − v.z / d`, screen `a + v.xy / w`.
  /// `perspective == 0` gives the orthographic projection.
  public static func rotation3D(
    degrees: Double, axis: (x: Double, y: Double, z: Double), anchor: Point,
    perspective: Double, extent: Double
  ) -> ProjectiveTransform {
    let length = (axis.x * axis.x + axis.y * axis.y + axis.z * axis.z).squareRoot()
    guard length > 0 else { return .identity }
    let (ux, uy, uz) = (axis.x / length, axis.y / length, axis.z / length)
    let theta = degrees * .pi / 180
    let c = cos(theta)
    let s = sin(theta)
    let t = 1 - c
    // Rodrigues' rotation matrix (column-vector form r_ij).
    let r11 = c + ux * ux * t
    let r12 = ux * uy * t - uz * s
    let r21 = uy * ux * t + uz * s
    let r22 = c + uy * uy * t
    let r31 = uz * ux * t - uy * s
    let r32 = uz * uy * t + ux * s
    let inverseDistance = extent > 0 ? perspective / extent : 0
    // For a plane point (x, y, 0): v = (r11 x + r12 y, r21 x + r22 y, r31 x + r32 y),
    // w = 1 − v.z / d. Written as a homography in local (anchor-relative) coordinates.
    let local = ProjectiveTransform(
      m11: r11, m12: r21, m13: -r31 * inverseDistance,
      m21: r12, m22: r22, m23: -r32 * inverseDistance,
      m31: 0, m32: 0, m33: 1)
    let toLocal = ProjectiveTransform(.translation(-anchor.x, -anchor.y))
    let back = ProjectiveTransform(.translation(anchor.x, anchor.y))
    return back.concatenating(after: local.concatenating(after: toLocal))
  }
}
