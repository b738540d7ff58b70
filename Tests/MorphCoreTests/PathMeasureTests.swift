import Foundation
import Testing

@testable import MorphCore

/// An independent measure: every segment walked as a polyline of `steps` equal parameter
/// steps (chords of a smooth curve fall short by O(1/steps²), here far below 1e-4 pt).
private func polylineLength(_ path: Path, steps: Int = 20_000) -> Double {
  var total = 0.0
  var current = Point.zero
  var start = Point.zero
  func walk(_ f: (Double) -> Point) {
    var last = f(0)
    for i in 1...steps {
      let p = f(Double(i) / Double(steps))
      total += last.distance(to: p)
      last = p
    }
  }
  for e in path.elements {
    switch e {
    case .move(let p): start = p
    case .line(let p): total += current.distance(to: p)
    case .quad(let p, let c):
      let p0 = current
      walk { Path.quadPoint(p0, c, p, $0) }
    case .cubic(let p, let c1, let c2):
      let p0 = current
      walk { Path.cubicPoint(p0, c1, c2, p, $0) }
    case .close: total += current.distance(to: start)
    }
    current = e.endPoint ?? start
  }
  return total
}

private let square = Rect(x: 0, y: 0, width: 100, height: 100)

@Test func rectangleLengthIsItsPerimeter() {
  #expect(abs(Path.rect(Rect(x: 3, y: 4, width: 30, height: 70)).arcLength - 200) < 1e-9)
}

/// A circle of 64 arc pieces (each cubic within 1e-9·r of the circle) measures 2πr; the
/// four-cubic `Path.circle` is itself 0.088 pt longer at r = 100 (its cubics bulge by up to
/// 2.7e-4·r), which the polyline measure confirms.
@Test func circleLengthMatchesTheClosedForm() {
  var fine = Path()
  for i in 0..<64 {
    let a = Double(i) * 360 / 64
    fine.arc(
      center: Point(100, 100), radius: 100, startDegrees: a, endDegrees: a + 360 / 64,
      clockwise: false)
  }
  #expect(abs(fine.arcLength - 2 * .pi * 100) < 0.001)
  let circle = Path.circle(in: Rect(x: 0, y: 0, width: 200, height: 200))
  #expect(abs(circle.arcLength - polylineLength(circle)) < 0.001)
}

@Test func cubicLengthsMatchAFinePolyline() {
  var random = SplitMix64(state: 27)
  for _ in 0..<40 {
    var p = Path()
    p.move(to: random.point(in: 400))
    p.cubic(to: random.point(in: 400), c1: random.point(in: 400), c2: random.point(in: 400))
    p.quad(to: random.point(in: 400), control: random.point(in: 400))
    #expect(abs(p.arcLength - polylineLength(p)) < 0.01)
  }
}

@Test func aCuspedCubicIsMeasured() {
  // Control points crossed over: the curve stops and turns back (|B'| = 0 inside).
  var p = Path()
  p.move(to: Point(0, 0))
  p.cubic(to: Point(0, 0), c1: Point(100, 0), c2: Point(-100, 0))
  #expect(abs(p.arcLength - polylineLength(p, steps: 200_000)) < 0.01)
}

@Test func trimmedLengthIsTheFractionOfTheWhole() {
  var random = SplitMix64(state: 7)
  for _ in 0..<20 {
    var p = Path()
    p.move(to: random.point(in: 300))
    p.cubic(to: random.point(in: 300), c1: random.point(in: 300), c2: random.point(in: 300))
    p.line(to: random.point(in: 300))
    p.cubic(to: random.point(in: 300), c1: random.point(in: 300), c2: random.point(in: 300))
    p.close()
    let (a, b) = (random.next() * 0.5, 0.5 + random.next() * 0.5)
    let trimmed = p.trimmed(from: a, to: b)
    #expect(abs(trimmed.arcLength - (b - a) * p.arcLength) < 0.01)
    #expect(abs(polylineLength(trimmed) - (b - a) * polylineLength(p)) < 0.01)
  }
}

@Test func circleTrimStartsAtThreeOClockGoingClockwise() {
  let circle = Path.circle(in: square)
  let quarter = circle.trimmed(from: 0, to: 0.25)
  #expect(quarter.elements.first == .move(Point(100, 50)))
  #expect(near(quarter.currentPoint!, Point(50, 100), 1e-6))
  // Half a quarter is the 45° point: each quarter cubic is symmetric about it.
  let eighth = circle.trimmed(from: 0, to: 0.125).currentPoint!
  let r = 50 / 2.0.squareRoot()
  #expect(near(eighth, Point(50 + r, 50 + r), 1e-6))
}

@Test func rectTrimStartsAtTheTopLeftCorner() {
  let half = Path.rect(square).trimmed(from: 0, to: 0.5)
  #expect(
    half.elements == [.move(Point(0, 0)), .line(Point(100, 0)), .line(Point(100, 100))])
  let middle = Path.rect(square).trimmed(from: 0.125, to: 0.875)
  #expect(middle.elements.first == .move(Point(50, 0)))
  #expect(near(middle.currentPoint!, Point(0, 50), 1e-9))
}

@Test(arguments: [CornerStyle.continuous, .circular])
func roundedRectTrimStartsOnTheTopEdge(style: CornerStyle) {
  let p = Path.roundedRect(square, radius: 10, style: style)
  let start = p.trimmed(from: 0, to: 0.01).elements.first
  #expect(start == p.elements.first)
  guard case .move(let s)? = start else { return }
  #expect(s.y == 0 && s.x > 0 && s.x < 50)
}

@Test func fractionsClampAndAnEmptyRangeDrawsNothing() {
  let circle = Path.circle(in: square)
  #expect(circle.trimmed(from: 0, to: 1) == circle)
  #expect(circle.trimmed(from: -3, to: 7) == circle)
  #expect(circle.trimmed(from: 0.6, to: 0.4).isEmpty)
  #expect(circle.trimmed(from: 0.5, to: 0.5).isEmpty)
  #expect(circle.trimmed(from: .nan, to: 0.25) == circle.trimmed(from: 0, to: 0.25))
  #expect(circle.trimmed(from: 1.5, to: 2).isEmpty)
  #expect(Path().trimmed(from: 0, to: 0.5).isEmpty)
}

@Test func aWholeClosedSubpathStaysClosedAndPiecesStartTheirOwn() {
  var p = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
  p.append(.rect(Rect(x: 20, y: 0, width: 10, height: 10)))
  let firstAndAHalf = p.trimmed(from: 0, to: 0.625)
  #expect(Array(firstAndAHalf.elements.prefix(5)) == Array(p.elements.prefix(5)))
  #expect(firstAndAHalf.elements[5] == .move(Point(20, 0)))
  #expect(firstAndAHalf.elements.last == .line(Point(30, 0)))
  #expect(!firstAndAHalf.elements.dropFirst(5).contains(.close))
}
