import Foundation

// Arc length and trimming: SwiftUI's `Shape.trim(from:to:)` / `Path.trimmedPath(from:to:)`.
// Lengths come from adaptive Gauss–Legendre quadrature of |B'(t)|, refined until two
// estimates agree to 1e-9 of the segment's control-polygon length (far inside 0.01 pt for
// any canvas-sized curve); a length is turned back into a curve parameter by Newton steps
// kept inside a bisection bracket. Trimmed curves stay curves: each piece is the exact
// sub-curve between two parameters (de Casteljau), so a trim draws like the original.

extension Path {
  /// The length of every segment, `close` lines included (moves add nothing).
  public var arcLength: Double {
    measuredSubpaths().reduce(0) { $0 + $1.length }
  }

  /// The part of the outline between two fractions of its arc length, measured from its
  /// start along every subpath in order (SwiftUI's `trimmedPath(from:to:)`).
  ///
  /// Both fractions are clamped to 0…1 (NaN counts as 0); `from >= to` gives an empty
  /// path, and `0…1` the path itself. A closed subpath kept whole stays closed; a piece
  /// of one ends where the trim does, open. Each piece starts a subpath of its own.
  public func trimmed(from: Double, to: Double) -> Path {
    let a = Self.unitClamped(from)
    let b = Self.unitClamped(to)
    if a == 0 && b == 1 { return self }
    guard a < b else { return Path() }
    let subpaths = measuredSubpaths()
    let total = subpaths.reduce(0) { $0 + $1.length }
    guard total > 0, total.isFinite else { return Path() }
    var out = Path()
    var offset = 0.0
    for subpath in subpaths {
      subpath.append(from: a * total - offset, to: b * total - offset, into: &out)
      offset += subpath.length
    }
    return out
  }

  private static func unitClamped(_ v: Double) -> Double {
    v.isNaN ? 0 : min(1, max(0, v))
  }

  /// The subpaths as explicit segments with their lengths; quads become cubics (exact).
  func measuredSubpaths() -> [MeasuredSubpath] {
    var result: [MeasuredSubpath] = []
    var current: MeasuredSubpath?
    var point = Point.zero
    func finish() {
      if let s = current, !s.segments.isEmpty { result.append(s) }
      current = nil
    }
    for e in elements {
      switch e {
      case .move(let p):
        finish()
        current = MeasuredSubpath(start: p)
        point = p
      case .line(let p):
        current?.add(.line(point, p))
        point = p
      case .quad(let p, let c):
        let c1 = point + (c - point) * (2.0 / 3.0)
        let c2 = p + (c - p) * (2.0 / 3.0)
        current?.add(.cubic(point, c1, c2, p))
        point = p
      case .cubic(let p, let c1, let c2):
        current?.add(.cubic(point, c1, c2, p))
        point = p
      case .close:
        if let start = current?.start {
          current?.add(.line(point, start), closing: true)
        }
        finish()
      }
    }
    finish()
    return result
  }
}

/// One subpath's segments, each with its arc length.
struct MeasuredSubpath {
  let start: Point
  private(set) var segments: [MeasuredSegment] = []
  private(set) var lengths: [Double] = []
  private(set) var closed = false
  private(set) var length = 0.0

  init(start: Point) { self.start = start }

  mutating func add(_ segment: MeasuredSegment, closing: Bool = false) {
    let l = segment.length(from: 0, to: 1)
    segments.append(segment)
    lengths.append(l)
    length += l
    closed = closing
  }

  /// Appends the part between arc lengths `lo` and `hi` of this subpath (either may lie
  /// outside it) to `out`.
  func append(from lo: Double, to hi: Double, into out: inout Path) {
    let slack = 1e-9 * max(1, length)
    guard hi > 0, lo < length else { return }
    if closed, lo <= slack, hi >= length - slack {
      appendWhole(into: &out)
      return
    }
    var s0 = 0.0
    var started = false
    for (segment, l) in zip(segments, lengths) {
      defer { s0 += l }
      let a = max(lo - s0, 0)
      let b = min(hi - s0, l)
      guard b > a else { continue }
      let t0 = segment.parameter(atLength: a, of: l)
      let t1 = segment.parameter(atLength: b, of: l)
      let piece = segment.piece(from: t0, to: t1)
      if !started {
        out.move(to: piece.start)
        started = true
      }
      piece.append(to: &out)
    }
  }

  /// The subpath as it was, ending in `close` (so the join at its start is drawn).
  private func appendWhole(into out: inout Path) {
    out.move(to: start)
    for (i, segment) in segments.enumerated() where !(closed && i == segments.count - 1) {
      segment.append(to: &out)
    }
    out.close()
  }
}

/// A segment with its start point: a line or a cubic.
enum MeasuredSegment {
  case line(Point, Point)
  case cubic(Point, Point, Point, Point)

  var start: Point {
    switch self {
    case .line(let p, _), .cubic(let p, _, _, _): return p
    }
  }

  func append(to path: inout Path) {
    switch self {
    case .line(_, let p): path.line(to: p)
    case .cubic(_, let c1, let c2, let p): path.cubic(to: p, c1: c1, c2: c2)
    }
  }

  /// The arc length between parameters `t0` and `t1`.
  func length(from t0: Double, to t1: Double) -> Double {
    switch self {
    case .line(let p0, let p1): return p0.distance(to: p1) * (t1 - t0)
    case .cubic(let p0, let c1, let c2, let p1):
      let polygon = p0.distance(to: c1) + c1.distance(to: c2) + c2.distance(to: p1)
      guard polygon > 0, polygon.isFinite else { return 0 }
      let speed = CubicSpeed(p0, c1, c2, p1)
      return speed.integral(t0, t1, tolerance: 1e-9 * polygon, depth: 0)
    }
  }

  /// The parameter where the arc length from the start reaches `s` (`total` is the
  /// segment's length).
  func parameter(atLength s: Double, of total: Double) -> Double {
    guard total > 0, s > 0 else { return 0 }
    guard s < total else { return 1 }
    switch self {
    case .line: return s / total
    case .cubic(let p0, let c1, let c2, let p1):
      let speed = CubicSpeed(p0, c1, c2, p1)
      var (lo, hi) = (0.0, 1.0)
      var t = s / total
      for _ in 0..<60 {
        let error = length(from: 0, to: t) - s
        if abs(error) <= 1e-10 * total { return t }
        if error > 0 { hi = t } else { lo = t }
        let v = speed.at(t)
        let newton = v > 0 ? t - error / v : .nan
        t = newton > lo && newton < hi ? newton : (lo + hi) / 2
      }
      return t
    }
  }

  /// The exact part of the segment between parameters `t0 <= t1`.
  func piece(from t0: Double, to t1: Double) -> MeasuredSegment {
    switch self {
    case .line(let p0, let p1):
      return .line(p0 + (p1 - p0) * t0, p0 + (p1 - p0) * t1)
    case .cubic(let p0, let c1, let c2, let p1):
      // Cut off the end at t1, then the start at t0 rescaled into the remaining part.
      let head = Self.split(p0, c1, c2, p1, at: t1).0
      let u = t1 > 0 ? t0 / t1 : 0
      let tail = Self.split(head.0, head.1, head.2, head.3, at: u).1
      return .cubic(tail.0, tail.1, tail.2, tail.3)
    }
  }

  typealias Cubic = (Point, Point, Point, Point)

  /// de Casteljau: the cubic's two halves at `t`.
  static func split(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, at t: Double)
    -> (Cubic, Cubic)
  {
    func mix(_ a: Point, _ b: Point) -> Point { a + (b - a) * t }
    let (a, b, c) = (mix(p0, c1), mix(c1, c2), mix(c2, p1))
    let (d, e) = (mix(a, b), mix(b, c))
    let m = mix(d, e)
    return ((p0, a, d, m), (m, e, c, p1))
  }
}

/// |B'(t)| of a cubic and its integral.
private struct CubicSpeed {
  // B'(t) = a·t² + b·t + c.
  let a, b, c: Point

  init(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point) {
    a = (p1 - p0 + (c1 - c2) * 3) * 3
    b = (p0 - c1 * 2 + c2) * 6
    c = (c1 - p0) * 3
  }

  func at(_ t: Double) -> Double {
    let d = a * (t * t) + b * t + c
    return (d.x * d.x + d.y * d.y).squareRoot()
  }

  /// Five-point Gauss–Legendre on [t0, t1], halved until the halves agree with the whole.
  func integral(_ t0: Double, _ t1: Double, tolerance: Double, depth: Int) -> Double {
    let whole = gauss(t0, t1)
    let mid = (t0 + t1) / 2
    let halves = gauss(t0, mid) + gauss(mid, t1)
    if abs(whole - halves) <= tolerance || depth >= 24 { return halves }
    return integral(t0, mid, tolerance: tolerance / 2, depth: depth + 1)
      + integral(mid, t1, tolerance: tolerance / 2, depth: depth + 1)
  }

  private static let nodes: [(Double, Double)] = [
    (0, 0.568_888_888_888_888_9),
    (-0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (-0.906_179_845_938_664_0, 0.236_926_885_056_189_1),
    (0.906_179_845_938_664_0, 0.236_926_885_056_189_1),
  ]

  private func gauss(_ t0: Double, _ t1: Double) -> Double {
    let half = (t1 - t0) / 2
    let mid = (t0 + t1) / 2
    return Self.nodes.reduce(0) { $0 + $1.1 * at(mid + half * $1.0) } * half
  }
}
