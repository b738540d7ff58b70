import Foundation
import Testing

@testable import MorphCore

/// Deterministic generator so random-curve tests repeat exactly (no `Double.random`).
struct SplitMix64 {
  var state: UInt64

  mutating func next() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Double(z >> 11) / Double(1 << 53)
  }

  mutating func point(in range: Double) -> Point {
    Point(next() * range - range / 2, next() * range - range / 2)
  }
}

func near(_ a: Point, _ b: Point, _ eps: Double = 1e-9) -> Bool {
  a.distance(to: b) <= eps
}

func near(_ a: Rect?, _ b: Rect, _ eps: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return abs(a.minX - b.minX) <= eps && abs(a.minY - b.minY) <= eps
    && abs(a.maxX - b.maxX) <= eps && abs(a.maxY - b.maxY) <= eps
}

/// Distance from `p` to the nearest segment of `poly`.
func distance(_ p: Point, toPolyline poly: [Point]) -> Double {
  var best = Double.infinity
  for i in 0..<(poly.count - 1) {
    let a = poly[i]
    let ab = poly[i + 1] - a
    let len2 = ab.x * ab.x + ab.y * ab.y
    let t = len2 == 0 ? 0 : min(1, max(0, ((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / len2))
    best = min(best, p.distance(to: a + ab * t))
  }
  return best
}

@Test func lineWithoutCurrentPointMovesThere() {
  var p = Path()
  p.line(to: Point(3, 4))
  #expect(p.elements == [.move(Point(3, 4))])
  #expect(p.currentPoint == Point(3, 4))
}

@Test func curvesWithoutCurrentPointMoveToFirstControl() {
  var q = Path()
  q.quad(to: Point(10, 0), control: Point(5, 5))
  #expect(q.elements == [.move(Point(5, 5)), .quad(Point(10, 0), control: Point(5, 5))])
  var c = Path()
  c.cubic(to: Point(9, 9), c1: Point(1, 2), c2: Point(3, 4))
  #expect(c.elements.first == .move(Point(1, 2)))
  #expect(c.elements.count == 2)
}

@Test func closeReturnsToStartAndNextSegmentStartsThere() {
  var p = Path()
  p.move(to: Point(0, 0))
  p.line(to: Point(10, 0))
  p.close()
  p.close()  // ignored
  #expect(p.currentPoint == Point(0, 0))
  p.line(to: Point(0, 10))
  #expect(
    p.elements == [.move(.zero), .line(Point(10, 0)), .close, .move(.zero), .line(Point(0, 10))])
}

@Test func moveAfterMoveReplaces() {
  var p = Path()
  p.move(to: Point(1, 1))
  p.move(to: Point(2, 2))
  #expect(p.elements == [.move(Point(2, 2))])
  #expect(Path().isEmpty)
  #expect(Path().currentPoint == nil)
  #expect(Path().bounds == nil)
}

@Test func appendKeepsSubpaths() {
  var a = Path()
  a.move(to: .zero)
  a.line(to: Point(1, 0))
  var b = Path()
  b.move(to: Point(5, 5))
  b.line(to: Point(6, 5))
  b.close()
  a.append(b)
  #expect(a.elements.count == 5)
  #expect(a.flattened().count == 2)
  #expect(Path(a.elements) == a)
}

@Test func arcSweepNormalisation() {
  #expect(Path.arcSweep(from: 0, to: 90, decreasing: false) == 90)
  #expect(Path.arcSweep(from: 0, to: 90, decreasing: true) == -270)
  #expect(Path.arcSweep(from: 90, to: 0, decreasing: false) == 270)
  #expect(Path.arcSweep(from: 0, to: 360, decreasing: false) == 360)
  #expect(Path.arcSweep(from: 0, to: 720, decreasing: true) == -360)
  #expect(Path.arcSweep(from: 30, to: 30, decreasing: false) == 0)
}

@Test func arcEndpointsAndPieces() {
  let c = Point(10, 20)
  var p = Path()
  p.arc(center: c, radius: 5, startDegrees: 0, endDegrees: 90, clockwise: false)
  #expect(p.elements.first == .move(Point(15, 20)))
  #expect(p.elements.count == 2)
  #expect(near(p.currentPoint!, Point(10, 25)))

  // SwiftUI's flag: `clockwise: true` sweeps decreasing angles, the long way here.
  var q = Path()
  q.arc(center: c, radius: 5, startDegrees: 0, endDegrees: 90, clockwise: true)
  #expect(q.elements.count == 4)
  #expect(near(q.currentPoint!, Point(10, 25)))
  #expect(near(q.bounds, Rect(x: 5, y: 15, width: 10, height: 10)))

  var full = Path()
  full.arc(center: c, radius: 5, startDegrees: 45, endDegrees: 405, clockwise: false)
  #expect(full.elements.count == 5)
  #expect(near(full.bounds, Rect(x: 5, y: 15, width: 10, height: 10)))
}

@Test func arcStaysOnCircle() {
  var p = Path()
  p.arc(center: .zero, radius: 100, startDegrees: -30, endDegrees: 200, clockwise: false)
  for poly in p.flattened(tolerance: 0.01) {
    for pt in poly {
      // Cubic arcs of ≤ 90° err by < 0.03% of the radius.
      #expect(abs(pt.distance(to: .zero) - 100) < 0.03)
    }
  }
}

@Test func arcJoinsCurrentPointWithLine() {
  var p = Path()
  p.move(to: .zero)
  p.arc(center: Point(10, 0), radius: 5, startDegrees: 180, endDegrees: 270, clockwise: false)
  guard case .line(let joint) = p.elements[1] else {
    Issue.record("expected a line to the arc start")
    return
  }
  #expect(near(joint, Point(5, 0)))
}

@Test func cubicBoundsFindInteriorExtremum() {
  var p = Path()
  p.move(to: .zero)
  p.cubic(to: Point(100, 0), c1: Point(0, 100), c2: Point(100, 100))
  #expect(near(p.bounds, Rect(x: 0, y: 0, width: 100, height: 75)))
  #expect(near(p.controlBounds, Rect(x: 0, y: 0, width: 100, height: 100)))

  // An S-curve with extrema in x at interior parameters.
  var s = Path()
  s.move(to: .zero)
  s.cubic(to: Point(0, 30), c1: Point(60, 10), c2: Point(-60, 20))
  let b = s.bounds!
  let samples = (0...10_000).map { t in
    Path.cubicPoint(.zero, Point(60, 10), Point(-60, 20), Point(0, 30), Double(t) / 10_000)
  }
  let sampled = Rect.bounding(samples)!
  #expect(abs(b.maxX - sampled.maxX) < 1e-6)
  #expect(abs(b.minX - sampled.minX) < 1e-6)
  #expect(b.maxX < 60)
}

@Test func quadBounds() {
  var p = Path()
  p.move(to: .zero)
  p.quad(to: Point(100, 0), control: Point(50, 100))
  #expect(near(p.bounds, Rect(x: 0, y: 0, width: 100, height: 50)))
}

@Test func stepCountFormula() {
  // Quad second difference (0, 200): n = ceil(√(200 / (4·0.25))) = 15.
  #expect(Path.quadSteps(.zero, Point(50, 100), Point(100, 0), 0.25) == 15)
  // Cubic second differences (100, −100) and (−100, −100), both 100√2:
  // n = ceil(√(3·141.42 / (4·0.25))) = ceil(20.6) = 21.
  #expect(Path.cubicSteps(.zero, Point(0, 100), Point(100, 100), Point(100, 0), 0.25) == 21)
  #expect(Path.cubicSteps(.zero, Point(0, 100), Point(100, 100), Point(100, 0), 0.01) == 103)
  #expect(Path.cubicSteps(.zero, Point(1, 0), Point(2, 0), Point(3, 0), 0.25) == 1)
}

@Test(arguments: [0.25, 0.01])
func flattenedCurvesStayWithinTolerance(tolerance: Double) {
  var rng = SplitMix64(state: 42)
  for _ in 0..<40 {
    let (p0, c1, c2, p1) = (
      rng.point(in: 400), rng.point(in: 400), rng.point(in: 400), rng.point(in: 400)
    )
    var cubic = Path()
    cubic.move(to: p0)
    cubic.cubic(to: p1, c1: c1, c2: c2)
    let cpoly = cubic.flattened(tolerance: tolerance)[0]
    var quad = Path()
    quad.move(to: p0)
    quad.quad(to: p1, control: c1)
    let qpoly = quad.flattened(tolerance: tolerance)[0]
    for i in 0..<200 {
      let t = Double(i) / 199
      let cp = Path.cubicPoint(p0, c1, c2, p1, t)
      let qp = Path.quadPoint(p0, c1, p1, t)
      #expect(distance(cp, toPolyline: cpoly) <= tolerance + 1e-9)
      #expect(distance(qp, toPolyline: qpoly) <= tolerance + 1e-9)
    }
  }
}

@Test func flattenedRepeatsStartOfClosedSubpaths() {
  var p = Path()
  p.move(to: Point(9, 9))  // lone move: no polyline
  p.move(to: .zero)
  p.line(to: Point(1, 0))
  p.line(to: Point(1, 1))
  p.close()
  p.move(to: Point(5, 5))
  p.line(to: Point(6, 6))
  #expect(
    p.flattened() == [[.zero, Point(1, 0), Point(1, 1), .zero], [Point(5, 5), Point(6, 6)]])
}

@Test func transformCommutesWithFlattening() {
  var p = Path()
  p.move(to: Point(3, 4))
  p.quad(to: Point(50, 10), control: Point(30, 60))
  p.cubic(to: Point(0, 80), c1: Point(90, 40), c2: Point(-20, 20))
  p.arc(center: Point(20, 20), radius: 15, startDegrees: 10, endDegrees: 250, clockwise: false)
  p.close()
  // A rigid motion keeps every control polygon's size, so step counts match exactly.
  let t = AffineTransform.translation(7, -3).concatenating(after: .rotation(degrees: 33))
  let a = p.transformed(by: t).flattened(tolerance: 0.1)
  let b = p.flattened(tolerance: 0.1).map { $0.map(t.apply) }
  #expect(a.count == b.count)
  for (pa, pb) in zip(a, b) {
    #expect(pa.count == pb.count)
    #expect(zip(pa, pb).allSatisfy { near($0, $1) })
  }
  #expect(near(p.transformed(by: t).currentPoint!, t.apply(p.currentPoint!)))
}

@Test func containsUsesNonZeroWinding() {
  let rr = Path.roundedRect(Rect(x: 0, y: 0, width: 100, height: 60), radius: 20, style: .circular)
  #expect(rr.contains(Point(50, 30)))
  #expect(rr.contains(Point(2, 30)))
  #expect(rr.contains(Point(20, 1)))
  #expect(!rr.contains(Point(2, 2)))  // cut off by the corner
  #expect(!rr.contains(Point(101, 30)))
  #expect(!rr.contains(Point(-5, -5)))

  // Pentagram drawn in one stroke: the centre pentagon has winding 2, so it is filled.
  var star = Path()
  for i in 0..<5 {
    let a = (-90 + Double(i) * 144) * .pi / 180
    let pt = Point(100 + 100 * cos(a), 100 + 100 * sin(a))
    if i == 0 { star.move(to: pt) } else { star.line(to: pt) }
  }
  star.close()
  #expect(star.contains(Point(100, 100)))
  #expect(star.contains(Point(100, 10)))  // inside the top tip
  #expect(!star.contains(Point(40, 30)))  // between two tips
  #expect(!star.contains(Point(300, 100)))
}

@Test func finiteness() {
  var p = Path()
  p.move(to: .zero)
  p.line(to: Point(1, 1))
  #expect(p.isFinite)
  p.line(to: Point(.nan, 0))
  #expect(!p.isFinite)
}

@Suite struct FlattenedPointCountTests {
  @Test func countsWhatFlatteningMakes() {
    var p = Path()
    p.move(to: Point(0, 0))
    p.line(to: Point(10, 0))
    p.quad(to: Point(20, 20), control: Point(30, 0))
    p.cubic(to: Point(0, 40), c1: Point(100, 50), c2: Point(-50, 80))
    p.close()
    p.addEllipse(in: Rect(x: 0, y: 0, width: 500, height: 300))
    for tolerance in [0.25, 0.01, 2] {
      let made = p.flattened(tolerance: tolerance).reduce(0) { $0 + $1.count }
      #expect(p.flattenedPointCount(tolerance: tolerance) == made)
    }
  }
}
