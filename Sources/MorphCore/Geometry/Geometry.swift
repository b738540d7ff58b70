import Foundation

// Plain value types for canvas geometry. The canvas is y-down, in points.

/// A point (or vector) on the canvas.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(0, 0)

  public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
  public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
  public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }

  /// Euclidean distance to `other`.
  public func distance(to other: Point) -> Double {
    let dx = other.x - x
    let dy = other.y - y
    return (dx * dx + dy * dy).squareRoot()
  }

  public var isFinite: Bool { x.isFinite && y.isFinite }
  public var description: String { "(\(x), \(y))" }
}

/// A width and a height.
public struct Size: Hashable, Sendable {
  public var width: Double
  public var height: Double

  public init(_ width: Double, _ height: Double) {
    self.width = width
    self.height = height
  }

  public static let zero = Size(0, 0)
}

/// An axis-aligned rectangle with its origin at the top-left corner.
public struct Rect: Hashable, Sendable {
  public var origin: Point
  public var size: Size

  public init(x: Double, y: Double, width: Double, height: Double) {
    origin = Point(x, y)
    size = Size(width, height)
  }

  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }
  public var width: Double { size.width }
  public var height: Double { size.height }
  public var center: Point { Point(midX, midY) }

  /// The point at unit coordinates (`0,0` top-left, `1,1` bottom-right).
  public func point(atUnit u: Point) -> Point {
    Point(minX + u.x * width, minY + u.y * height)
  }

  /// The four corners: top-left, top-right, bottom-right, bottom-left.
  public var corners: [Point] {
    [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)]
  }

  /// The smallest rectangle holding both.
  public func union(_ other: Rect) -> Rect {
    let x0 = Swift.min(minX, other.minX)
    let y0 = Swift.min(minY, other.minY)
    let x1 = Swift.max(maxX, other.maxX)
    let y1 = Swift.max(maxY, other.maxY)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }

  public func contains(_ p: Point) -> Bool {
    p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
  }

  /// The bounding box of a set of points; `nil` when there are none.
  public static func bounding(_ points: some Sequence<Point>) -> Rect? {
    var it = points.makeIterator()
    guard let first = it.next() else { return nil }
    var x0 = first.x
    var y0 = first.y
    var x1 = first.x
    var y1 = first.y
    while let p = it.next() {
      x0 = Swift.min(x0, p.x)
      y0 = Swift.min(y0, p.y)
      x1 = Swift.max(x1, p.x)
      y1 = Swift.max(y1, p.y)
    }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}

/// A 2D affine transform, mapping `(x, y)` to `(a·x + c·y + tx, b·x + d·y + ty)`
/// (the Core Graphics and Cairo layout).
public struct AffineTransform: Hashable, Sendable {
  public var a: Double
  public var b: Double
  public var c: Double
  public var d: Double
  public var tx: Double
  public var ty: Double

  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
    AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
  }

  public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
    AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }

  /// Rotation by `degrees`; positive turns clockwise on the y-down canvas.
  public static func rotation(degrees: Double) -> AffineTransform {
    let r = degrees * .pi / 180
    let cs = cos(r)
    let sn = sin(r)
    return AffineTransform(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
  }

  /// `self` applied after `first`: `(self ∘ first)(p) = self(first(p))`.
  public func concatenating(after first: AffineTransform) -> AffineTransform {
    AffineTransform(
      a: a * first.a + c * first.b,
      b: b * first.a + d * first.b,
      c: a * first.c + c * first.d,
      d: b * first.c + d * first.d,
      tx: a * first.tx + c * first.ty + tx,
      ty: b * first.tx + d * first.ty + ty)
  }

  /// `inner` conjugated by a translation to `anchor`: `T(anchor)·inner·T(−anchor)`.
  public static func about(_ anchor: Point, _ inner: AffineTransform) -> AffineTransform {
    AffineTransform.translation(anchor.x, anchor.y)
      .concatenating(after: inner)
      .concatenating(after: .translation(-anchor.x, -anchor.y))
  }

  public func apply(_ p: Point) -> Point {
    Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
  }

  public var determinant: Double { a * d - b * c }

  /// The inverse, or `nil` when the transform collapses the plane.
  public var inverted: AffineTransform? {
    let det = determinant
    guard det != 0, det.isFinite else { return nil }
    let ia = d / det
    let ib = -b / det
    let ic = -c / det
    let id = a / det
    return AffineTransform(
      a: ia, b: ib, c: ic, d: id,
      tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
  }

  public var isFinite: Bool {
    a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
  }
}
