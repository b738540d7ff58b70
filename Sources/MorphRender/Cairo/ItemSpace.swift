import CCairo
import MorphCore

/// How an outline's local coordinates reach Cairo.
enum ItemSpace {
  /// Cairo's matrix maps local coordinates straight to device pixels.
  case affine(AffineTransform)
  /// Points are projected in Swift to canvas points; Cairo's matrix only applies the scale.
  case projective(ProjectiveTransform, scale: Double)

  /// The space for `transform` at `scale`, or nil when it cannot draw anything sensible
  /// (not finite, or collapsing the plane).
  init?(_ transform: ProjectiveTransform, scale: Double) {
    guard transform.isFinite else { return nil }
    if transform.isAffine {
      let device = AffineTransform.scale(scale, scale).concatenating(after: transform.affine)
      guard device.isUsableCairoMatrix else { return nil }
      self = .affine(device)
    } else {
      let det = transform.determinant
      guard det != 0, det.isFinite else { return nil }
      self = .projective(transform, scale: scale)
    }
  }

  /// Sets Cairo's matrix to this space's user space.
  func apply(to cr: OpaquePointer) {
    switch self {
    case .affine(let m): m.setCairoMatrix(on: cr)
    case .projective(_, let scale): AffineTransform.scale(scale, scale).setCairoMatrix(on: cr)
    }
  }

  /// A local point in the user space `apply` sets up.
  func userPoint(_ p: Point) -> Point {
    switch self {
    case .affine: return p
    case .projective(let t, _): return t.apply(p)
    }
  }

  /// The map from a device pixel position back to local coordinates, or nil when the
  /// transform cannot be inverted.
  var localPoint: ((Double, Double) -> Point)? {
    switch self {
    case .affine(let m):
      guard let inverse = m.inverted else { return nil }
      return { x, y in inverse.apply(Point(x, y)) }
    case .projective(let t, let scale):
      guard let inverse = t.inverted else { return nil }
      return { x, y in inverse.apply(Point(x / scale, y / scale)) }
    }
  }

  /// Local coordinates → the user space `apply` sets up, as an affine map: exact when the
  /// transform is affine, else through three corners of `frame` (images, like text, are
  /// not warped in perspective).
  func userMatrix(frame: Rect) -> AffineTransform? {
    switch self {
    case .affine: return AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    case .projective(_, let scale):
      guard let device = textMatrix(frame: frame) else { return nil }
      return AffineTransform.scale(1 / scale, 1 / scale).concatenating(after: device)
    }
  }

  /// How much a local length grows in user space near `p`: 1 when Cairo's matrix does the
  /// work, else √|det J| of the projection there (stroke widths and dashes use it).
  func lineScale(at p: Point) -> Double {
    guard case .projective(let t, _) = self, let j = t.jacobian(at: p) else { return 1 }
    let s = abs(j.a * j.d - j.b * j.c).squareRoot()
    return s.isFinite && s > 0 ? s : 1
  }

  /// The affine map to device pixels that text uses. For a projection it is the affine
  /// approximation through three corners of `frame` (text is not warped in perspective).
  func textMatrix(frame: Rect) -> AffineTransform? {
    switch self {
    case .affine(let m): return m
    case .projective(let t, let scale):
      let (q0, q1, q2) = (
        frame.origin, Point(frame.maxX, frame.minY), Point(frame.minX, frame.maxY)
      )
      guard frame.width > 0, frame.height > 0,
        t.weight(q0) > 0, t.weight(q1) > 0, t.weight(q2) > 0
      else { return nil }
      let p0 = t.apply(q0)
      let ex = (t.apply(q1) - p0) * (1 / frame.width)
      let ey = (t.apply(q2) - p0) * (1 / frame.height)
      let a = AffineTransform(
        a: ex.x, b: ex.y, c: ey.x, d: ey.y,
        tx: p0.x - ex.x * frame.minX - ey.x * frame.minY,
        ty: p0.y - ex.y * frame.minX - ey.y * frame.minY)
      let device = AffineTransform.scale(scale, scale).concatenating(after: a)
      return device.isUsableCairoMatrix ? device : nil
    }
  }
}

extension AffineTransform {
  /// True when Cairo accepts the matrix and its inverse stays finite; a singular matrix
  /// would put a context into a sticky error state. So would a determinant that overflows
  /// (`scale(1e300)`): `cairo_matrix_invert` inverts a scale without computing it, but
  /// `cairo_set_matrix` refuses it as not invertible.
  var isUsableCairoMatrix: Bool {
    let det = determinant
    guard isFinite, det.isFinite, abs(det) >= 1e-12 else { return false }
    var m = cairoMatrix
    return cairo_matrix_invert(&m) == CAIRO_STATUS_SUCCESS
  }

  var cairoMatrix: cairo_matrix_t {
    cairo_matrix_t(xx: a, yx: b, xy: c, yy: d, x0: tx, y0: ty)
  }

  func setCairoMatrix(on cr: OpaquePointer) {
    var m = cairoMatrix
    cairo_set_matrix(cr, &m)
  }
}

extension ProjectiveTransform {
  /// The derivative of the projection at `p` as (∂x/∂u, ∂y/∂u, ∂x/∂v, ∂y/∂v) in
  /// `AffineTransform`'s a, b, c, d; nil behind the eye.
  func jacobian(at p: Point) -> AffineTransform? {
    let w = weight(p)
    guard w > 0 else { return nil }
    let u = m11 * p.x + m21 * p.y + m31
    let v = m12 * p.x + m22 * p.y + m32
    let w2 = w * w
    return AffineTransform(
      a: (m11 * w - u * m13) / w2, b: (m12 * w - v * m13) / w2,
      c: (m21 * w - u * m23) / w2, d: (m22 * w - v * m23) / w2, tx: 0, ty: 0)
  }
}
