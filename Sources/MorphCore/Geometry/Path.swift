import Foundation

/// A vector path of lines and Bézier curves on the y-down canvas.
///
/// Elements are kept canonical: every segment belongs to a subpath that begins with `.move`.
/// - A `line`, `quad` or `cubic` with no current point starts a subpath implicitly, like the
///   HTML canvas: `line(to: p)` becomes `move(to: p)`; `quad` and `cubic` first move to their
///   (first) control point.
/// - A segment after `close()` starts a new subpath at the closed subpath's start (an explicit
///   `.move` is recorded).
/// - A `move` directly after a `move` replaces it; `close()` with no open subpath does nothing.
public struct Path: Hashable, Sendable {
  /// One drawing command.
  public enum Element: Hashable, Sendable {
    /// Starts a subpath at the point.
    case move(Point)
    /// A straight segment to the point.
    case line(Point)
    /// A quadratic Bézier to the point.
    case quad(Point, control: Point)
    /// A cubic Bézier to the point.
    case cubic(Point, c1: Point, c2: Point)
    /// A straight segment back to the subpath's start, ending it.
    case close
  }

  /// The canonical element list.
  public private(set) var elements: [Element] = []
  // Derived from `elements`; kept so builders are O(1).
  private var start: Point?
  private var current: Point?
  private var isClosed = false

  /// An empty path.
  public init() {}

  /// A path built by replaying `elements` through the builder methods.
  public init(_ elements: some Sequence<Element>) {
    for e in elements { add(e) }
  }

  /// True when the path has no elements.
  public var isEmpty: Bool { elements.isEmpty }

  /// The point the next segment starts from; after `close()`, the closed subpath's start.
  public var currentPoint: Point? { current }

  /// True when every coordinate is finite.
  public var isFinite: Bool { elements.allSatisfy { $0.points.allSatisfy(\.isFinite) } }
}

// MARK: - Building

extension Path {
  /// Begins a new subpath at `p`.
  public mutating func move(to p: Point) {
    if case .move = elements.last {
      elements.removeLast()
    }
    elements.append(.move(p))
    start = p
    current = p
    isClosed = false
  }

  /// Adds a straight segment to `p` (an implicit move when there is no current point).
  public mutating func line(to p: Point) {
    guard beginSegment(at: p) else { return }
    append(.line(p), end: p)
  }

  /// Adds a quadratic Bézier to `p` (implicitly moves to `control` with no current point).
  public mutating func quad(to p: Point, control: Point) {
    _ = beginSegment(at: control)
    append(.quad(p, control: control), end: p)
  }

  /// Adds a cubic Bézier to `p` (implicitly moves to `c1` with no current point).
  public mutating func cubic(to p: Point, c1: Point, c2: Point) {
    _ = beginSegment(at: c1)
    append(.cubic(p, c1: c1, c2: c2), end: p)
  }

  /// Closes the current subpath with a straight segment back to its start.
  public mutating func close() {
    guard current != nil, !isClosed else { return }
    elements.append(.close)
    current = start
    isClosed = true
  }

  /// Adds a circular arc as cubics of at most 90° each.
  ///
  /// Angles are in degrees measured clockwise from +x on the y-down canvas, and `clockwise`
  /// has SwiftUI's `Path.addArc` meaning: `false` sweeps increasing angles (which *looks*
  /// clockwise on screen), `true` sweeps decreasing ones. A sweep of 360° or more draws a full
  /// circle. With a current point a line joins it to the arc start (unless they coincide);
  /// otherwise the arc start begins a new subpath.
  public mutating func arc(
    center: Point, radius: Double, startDegrees: Double, endDegrees: Double, clockwise: Bool
  ) {
    let sweep = Self.arcSweep(from: startDegrees, to: endDegrees, decreasing: clockwise)
    let a0 = startDegrees * .pi / 180
    let p0 = center + Point(cos(a0), sin(a0)) * radius
    if let cur = current, cur != p0 {
      line(to: p0)
    } else if current == nil || isClosed {
      move(to: p0)
    }
    guard sweep != 0 else { return }
    let count = max(1, Int((abs(sweep) / 90).rounded(.up)))
    let step = sweep * .pi / 180 / Double(count)
    for i in 0..<count {
      appendArcPiece(center: center, radius: radius, from: a0 + Double(i) * step, sweep: step)
    }
  }

  /// Adds a closed rectangle, clockwise from `r.origin`.
  public mutating func addRect(_ r: Rect) {
    move(to: Point(r.minX, r.minY))
    line(to: Point(r.maxX, r.minY))
    line(to: Point(r.maxX, r.maxY))
    line(to: Point(r.minX, r.maxY))
    close()
  }

  /// Adds a closed ellipse inscribed in `r`: four cubics, clockwise from the right-hand point.
  public mutating func addEllipse(in r: Rect) {
    let k = 0.5522847498
    let rx = r.width / 2
    let ry = r.height / 2
    let (cx, cy) = (r.midX, r.midY)
    move(to: Point(r.maxX, cy))
    cubic(to: Point(cx, r.maxY), c1: Point(r.maxX, cy + k * ry), c2: Point(cx + k * rx, r.maxY))
    cubic(to: Point(r.minX, cy), c1: Point(cx - k * rx, r.maxY), c2: Point(r.minX, cy + k * ry))
    cubic(to: Point(cx, r.minY), c1: Point(r.minX, cy - k * ry), c2: Point(cx - k * rx, r.minY))
    cubic(to: Point(r.maxX, cy), c1: Point(cx + k * rx, r.minY), c2: Point(r.maxX, cy - k * ry))
    close()
  }

  /// Appends the subpaths of `other` (its first move starts a new subpath here).
  public mutating func append(_ other: Path) {
    for e in other.elements { add(e) }
  }

  private mutating func add(_ e: Element) {
    switch e {
    case .move(let p): move(to: p)
    case .line(let p): line(to: p)
    case .quad(let p, let c): quad(to: p, control: c)
    case .cubic(let p, let c1, let c2): cubic(to: p, c1: c1, c2: c2)
    case .close: close()
    }
  }

  /// Ensures a subpath is open; returns false when `implicitStart` became the move itself.
  private mutating func beginSegment(at implicitStart: Point) -> Bool {
    guard let cur = current else {
      move(to: implicitStart)
      return false
    }
    if isClosed { move(to: cur) }
    return true
  }

  private mutating func append(_ e: Element, end: Point) {
    elements.append(e)
    current = end
  }

  private mutating func appendArcPiece(center: Point, radius: Double, from a: Double, sweep: Double)
  {
    // Standard tangent-length construction: exact at both ends and the midpoint.
    let k = 4.0 / 3.0 * tan(sweep / 4) * radius
    let b = a + sweep
    let p0 = center + Point(cos(a), sin(a)) * radius
    let p3 = center + Point(cos(b), sin(b)) * radius
    let c1 = p0 + Point(-sin(a), cos(a)) * k
    let c2 = p3 - Point(-sin(b), cos(b)) * k
    cubic(to: p3, c1: c1, c2: c2)
  }

  /// Signed sweep in degrees, in `[0, 360]` for increasing and `[-360, 0]` for decreasing.
  static func arcSweep(from a: Double, to b: Double, decreasing: Bool) -> Double {
    let delta = decreasing ? a - b : b - a
    guard delta.isFinite else { return 0 }
    var d = delta.truncatingRemainder(dividingBy: 360)
    if d < 0 { d += 360 }
    if d == 0 && delta != 0 { d = 360 }
    return decreasing ? -d : d
  }
}

// MARK: - Queries

extension Path {
  /// The box around every point, control points included; `nil` for an empty path.
  public var controlBounds: Rect? {
    Rect.bounding(elements.lazy.flatMap(\.points))
  }

  /// The tight box around the drawn geometry (exact curve extrema, move points included);
  /// `nil` for an empty path.
  public var bounds: Rect? {
    var points: [Point] = []
    forEachSegment { seg in
      switch seg {
      case .move(let p): points.append(p)
      case .line(_, let p1): points.append(p1)
      case .quad(let p0, let c, let p1):
        points.append(p1)
        for t in Self.quadExtrema(p0, c, p1) { points.append(Self.quadPoint(p0, c, p1, t)) }
      case .cubic(let p0, let c1, let c2, let p1):
        points.append(p1)
        for t in Self.cubicExtrema(p0, c1, c2, p1) {
          points.append(Self.cubicPoint(p0, c1, c2, p1, t))
        }
      }
    }
    return Rect.bounding(points)
  }

  /// The path with every point mapped by `t` (exact: Béziers are affine-invariant).
  public func transformed(by t: AffineTransform) -> Path {
    var out = Path()
    out.elements = elements.map { $0.mapped(t.apply) }
    out.start = start.map(t.apply)
    out.current = current.map(t.apply)
    out.isClosed = isClosed
    return out
  }

  /// One polyline per subpath, within `tolerance` of the true curves.
  ///
  /// A closed subpath ends by repeating its start point (even if its last segment already
  /// returned there). A subpath that is only a move yields no polyline. Each curve is split
  /// into `n` equal parameter steps, with `n` taken from the second-difference bound of its
  /// control polygon (capped at 65,536 steps).
  public func flattened(tolerance: Double = 0.25) -> [[Point]] {
    let tol = tolerance > 0 && tolerance.isFinite ? tolerance : 0.25
    var lines: [[Point]] = []
    var poly: [Point] = []
    func flush() {
      if poly.count > 1 { lines.append(poly) }
      poly = []
    }
    for e in elements {
      switch e {
      case .move(let p):
        flush()
        poly = [p]
      case .line(let p): poly.append(p)
      case .quad(let p, let c): Self.flattenQuad(poly.last!, c, p, tol, into: &poly)
      case .cubic(let p, let c1, let c2): Self.flattenCubic(poly.last!, c1, c2, p, tol, into: &poly)
      case .close:
        poly.append(poly[0])
        flush()
      }
    }
    flush()
    return lines
  }

  /// How many points `flattened(tolerance:)` makes at most, counted without making them:
  /// what a caller with a memory budget checks first (a curve may become 65,536 points).
  public func flattenedPointCount(tolerance: Double = 0.25) -> Int {
    let tol = tolerance > 0 && tolerance.isFinite ? tolerance : 0.25
    var count = 0
    var last = Point.zero
    for e in elements {
      switch e {
      case .move(let p), .line(let p):
        count += 1
        last = p
      case .quad(let p, let c):
        count += Self.quadSteps(last, c, p, tol)
        last = p
      case .cubic(let p, let c1, let c2):
        count += Self.cubicSteps(last, c1, c2, p, tol)
        last = p
      case .close: count += 1
      }
    }
    return count
  }

  /// Whether `p` is inside the filled path (non-zero winding; open subpaths count as closed).
  public func contains(_ p: Point, tolerance: Double = 0.25) -> Bool {
    guard let box = controlBounds, box.contains(p) else { return false }
    var winding = 0
    for poly in flattened(tolerance: tolerance) {
      winding += Self.winding(of: poly, around: p)
    }
    return winding != 0
  }
}

// MARK: - Curve math

extension Path {
  /// A segment with its start point made explicit.
  fileprivate enum Segment {
    case move(Point)
    case line(Point, Point)
    case quad(Point, Point, Point)
    case cubic(Point, Point, Point, Point)
  }

  fileprivate func forEachSegment(_ body: (Segment) -> Void) {
    var cur = Point.zero
    var first = Point.zero
    for e in elements {
      switch e {
      case .move(let p):
        body(.move(p))
        first = p
        cur = p
      case .line(let p): body(.line(cur, p))
      case .quad(let p, let c): body(.quad(cur, c, p))
      case .cubic(let p, let c1, let c2): body(.cubic(cur, c1, c2, p))
      case .close: body(.line(cur, first))
      }
      cur = e.endPoint ?? first
    }
  }

  static func quadPoint(_ p0: Point, _ c: Point, _ p1: Point, _ t: Double) -> Point {
    let u = 1 - t
    return p0 * (u * u) + c * (2 * u * t) + p1 * (t * t)
  }

  static func cubicPoint(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, _ t: Double)
    -> Point
  {
    let u = 1 - t
    return p0 * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p1 * (t * t * t)
  }

  /// Parameters in (0, 1) where either coordinate of the quad is extremal.
  static func quadExtrema(_ p0: Point, _ c: Point, _ p1: Point) -> [Double] {
    func root(_ a: Double, _ b: Double, _ d: Double) -> Double? {
      let den = a - 2 * b + d
      return den == 0 ? nil : (a - b) / den
    }
    return [root(p0.x, c.x, p1.x), root(p0.y, c.y, p1.y)].compactMap { $0 }
      .filter { $0 > 0 && $0 < 1 }
  }

  /// Parameters in (0, 1) where either coordinate of the cubic is extremal.
  static func cubicExtrema(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point) -> [Double] {
    // B'(t)/3 = a·t² + b·t + c per axis.
    func roots(_ q0: Double, _ q1: Double, _ q2: Double, _ q3: Double) -> [Double] {
      let a = -q0 + 3 * q1 - 3 * q2 + q3
      let b = 2 * (q0 - 2 * q1 + q2)
      let c = q1 - q0
      return solveQuadratic(a, b, c)
    }
    return (roots(p0.x, c1.x, c2.x, p1.x) + roots(p0.y, c1.y, c2.y, p1.y))
      .filter { $0 > 0 && $0 < 1 }
  }

  /// Real roots of `a·t² + b·t + c`, using the cancellation-free form.
  static func solveQuadratic(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
    let scale = max(abs(a), abs(b), abs(c))
    guard scale > 0, scale.isFinite else { return [] }
    if abs(a) <= 1e-12 * scale {
      return b == 0 ? [] : [-c / b]
    }
    let disc = b * b - 4 * a * c
    guard disc >= 0 else { return [] }
    let q = -0.5 * (b + (b < 0 ? -1 : 1) * disc.squareRoot())
    if q == 0 { return [0] }
    return [q / a, c / q]
  }

  // Linear interpolation over a parameter step h misses a C² curve by at most
  // h²/8 · max|B''|. For a quad B'' = 2·d with d = P0 − 2P1 + P2, so n ≥ √(|d| / (4·tol)).
  // For a cubic |B''| ≤ 6·max(|d0|, |d1|) with d0 = P0 − 2P1 + P2, d1 = P1 − 2P2 + P3,
  // so n ≥ √(3·max(|d0|, |d1|) / (4·tol)).
  static func quadSteps(_ p0: Point, _ c: Point, _ p1: Point, _ tol: Double) -> Int {
    steps(((p0 - c * 2 + p1).length) / (4 * tol))
  }

  static func cubicSteps(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, _ tol: Double)
    -> Int
  {
    let m = max((p0 - c1 * 2 + c2).length, (c1 - c2 * 2 + p1).length)
    return steps(3 * m / (4 * tol))
  }

  private static func steps(_ squared: Double) -> Int {
    guard squared.isFinite else { return 1 }
    return Int(min(65_536, max(1, squared.squareRoot().rounded(.up))))
  }

  private static func flattenQuad(
    _ p0: Point, _ c: Point, _ p1: Point, _ tol: Double, into poly: inout [Point]
  ) {
    let n = quadSteps(p0, c, p1, tol)
    for i in 1..<n { poly.append(quadPoint(p0, c, p1, Double(i) / Double(n))) }
    poly.append(p1)
  }

  private static func flattenCubic(
    _ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, _ tol: Double, into poly: inout [Point]
  ) {
    let n = cubicSteps(p0, c1, c2, p1, tol)
    for i in 1..<n { poly.append(cubicPoint(p0, c1, c2, p1, Double(i) / Double(n))) }
    poly.append(p1)
  }

  /// Winding number contribution of a polygon (implicitly closed) around `p`.
  private static func winding(of poly: [Point], around p: Point) -> Int {
    var w = 0
    for i in poly.indices {
      let a = poly[i]
      let b = poly[(i + 1) % poly.count]
      let side = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
      if a.y <= p.y {
        if b.y > p.y && side > 0 { w += 1 }
      } else if b.y <= p.y && side < 0 {
        w -= 1
      }
    }
    return w
  }
}

extension Path.Element {
  /// Every point the element stores, control points included.
  public var points: [Point] {
    switch self {
    case .move(let p), .line(let p): [p]
    case .quad(let p, let c): [c, p]
    case .cubic(let p, let c1, let c2): [c1, c2, p]
    case .close: []
    }
  }

  /// The point the element ends at; `nil` for `.close`.
  public var endPoint: Point? {
    switch self {
    case .move(let p), .line(let p), .quad(let p, _), .cubic(let p, _, _): p
    case .close: nil
    }
  }

  /// The element with every point mapped through `f`.
  public func mapped(_ f: (Point) -> Point) -> Path.Element {
    switch self {
    case .move(let p): .move(f(p))
    case .line(let p): .line(f(p))
    case .quad(let p, let c): .quad(f(p), control: f(c))
    case .cubic(let p, let c1, let c2): .cubic(f(p), c1: f(c1), c2: f(c2))
    case .close: .close
    }
  }
}

extension Point {
  /// Length of the point read as a vector.
  fileprivate var length: Double { (x * x + y * y).squareRoot() }
}
