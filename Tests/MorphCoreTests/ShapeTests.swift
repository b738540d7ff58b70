import Foundation
import Testing

@testable import MorphCore

/// Twice the signed area of each closed polyline; positive means clockwise on the y-down canvas.
private func signedArea(_ path: Path) -> Double {
  path.flattened(tolerance: 0.01).reduce(0) { sum, poly in
    sum + zip(poly, poly.dropFirst()).reduce(0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) }
  }
}

/// True when every point of `a` has a partner in `b` within `eps`.
private func sameSet(_ a: [Point], _ b: [Point], _ eps: Double = 1e-9) -> Bool {
  a.allSatisfy { p in b.contains { near($0, p, eps) } }
}

private let card = Rect(x: 10, y: 20, width: 96, height: 132)

@Test func continuousRoundedRectFillsItsRect() {
  let p = Path.roundedRect(card, radius: 16, style: .continuous)
  #expect(near(p.bounds, card))
  #expect(near(p.controlBounds, card))
  #expect(p.elements.first == .move(Point(10 + 1.528665 * 16, 20)))
  #expect(p.elements[1] == .line(Point(106 - 1.528665 * 16, 20)))
  #expect(p.elements.last == .close)
  // move, then per corner a line and three cubics, then close.
  #expect(p.elements.count == 1 + 4 * 4 + 1)
}

@Test func continuousCornerMatchesDesignTable() {
  let r = 16.0
  let p = Path.roundedRect(card, radius: r, style: .continuous)
  // Top-right corner: local x runs left along the top edge, y runs down the side.
  let corner = Point(106, 20)
  func map(_ x: Double, _ y: Double) -> Point { Point(corner.x - x * r, corner.y + y * r) }
  guard case .cubic(let end, let c1, let c2) = p.elements[2] else {
    Issue.record("expected a cubic")
    return
  }
  #expect(near(c1, map(1.08849296, 0)))
  #expect(near(c2, map(0.86840694, 0)))
  #expect(near(end, map(0.63149379, 0.07491139)))
  guard case .cubic(let last, _, _) = p.elements[4] else {
    Issue.record("expected a cubic")
    return
  }
  #expect(near(last, map(0, 1.528665)))
}

@Test(arguments: [CornerStyle.continuous, .circular])
func roundedRectIsMirrorSymmetric(style: CornerStyle) {
  let p = Path.roundedRect(card, radius: 16, style: style)
  let points = p.flattened(tolerance: 0.1).flatMap { $0 }
  let mirrorX = points.map { Point(2 * card.midX - $0.x, $0.y) }
  let mirrorY = points.map { Point($0.x, 2 * card.midY - $0.y) }
  #expect(sameSet(mirrorX, points))
  #expect(sameSet(mirrorY, points))
}

@Test func continuousCornersMeetEdgesTangentially() {
  // Only the edge joins are checked: the published constants leave a ~2.4° kink where the
  // corner's own cubics meet, and we keep them as docs/design.md gives them.
  let p = Path.roundedRect(card, radius: 16, style: .continuous)
  var previous = p.elements[0].endPoint!
  for (e, next) in zip(p.elements.dropFirst(), p.elements.dropFirst(2)) {
    if case .line(let end) = e, case .cubic(_, let c1, _) = next {
      let edge = end - previous
      let out = c1 - end
      #expect(abs(edge.x * out.y - edge.y * out.x) < 1e-9)
      #expect(edge.x * out.x + edge.y * out.y > 0)
    }
    if case .cubic(let end, _, let c2) = e, case .line(let target) = next {
      let inward = end - c2
      let edge = target - end
      #expect(abs(inward.x * edge.y - inward.y * edge.x) < 1e-9)
    }
    previous = e.endPoint ?? previous
  }
}

@Test func continuousRadiusIsCapped() {
  let small = Rect(x: 0, y: 0, width: 20, height: 30)
  let p = Path.roundedRect(small, radius: 100, style: .continuous)
  #expect(near(p.bounds, small))
  // Capped r = 10 / 1.528665, so the corner reaches the middle of the top edge.
  #expect(p.elements.first == .move(Point(10, 0)))
  #expect(p.elements[1] != .line(Point(10, 0)))  // the zero-length top edge is skipped
  #expect(p == Path.roundedRect(small, radius: 10 / 1.528665, style: .continuous))
}

@Test func circularRadiusIsCappedAndDiffersFromContinuous() {
  let circ = Path.roundedRect(card, radius: 16, style: .circular)
  let cont = Path.roundedRect(card, radius: 16, style: .continuous)
  #expect(circ != cont)
  #expect(circ.elements.first == .move(Point(26, 20)))
  #expect(near(circ.bounds, card))
  // Continuous corners cut in less at the diagonal than circular ones do.
  let diag = Point(10 + 16 * 0.2, 20 + 16 * 0.2)
  #expect(!circ.contains(diag))
  #expect(
    Path.roundedRect(card, radius: 500, style: .circular)
      == Path.roundedRect(card, radius: 48, style: .circular))
  #expect(Path.roundedRect(card, radius: 0, style: .continuous) == Path.rect(card))
  #expect(Path.roundedRect(card, radius: .nan, style: .circular) == Path.rect(card))
}

@Test func circleCapsuleEllipse() {
  let r = Rect(x: 0, y: 0, width: 100, height: 40)
  #expect(near(Path.circle(in: r).bounds, Rect(x: 30, y: 0, width: 40, height: 40)))
  #expect(near(Path.ellipse(in: r).bounds, r))
  let cap = Path.capsule(in: r)
  #expect(near(cap.bounds, r))
  #expect(cap.contains(Point(50, 20)))
  #expect(cap.contains(Point(2, 20)))
  #expect(!cap.contains(Point(2, 2)))
  // A square capsule is a circle: no zero-length edges.
  let sq = Path.capsule(in: Rect(x: 0, y: 0, width: 40, height: 40))
  #expect(!sq.elements.contains { if case .line = $0 { true } else { false } })
}

@Test func shapesRunClockwise() {
  let shapes = [
    Path.rect(card), .ellipse(in: card), .circle(in: card), .capsule(in: card),
    .roundedRect(card, radius: 16, style: .circular),
    .roundedRect(card, radius: 16, style: .continuous),
  ]
  for s in shapes { #expect(signedArea(s) > 0) }
}

@Test func emptyRectsGiveEmptyPaths() {
  let rects = [
    Rect(x: 0, y: 0, width: 0, height: 10), Rect(x: 0, y: 0, width: -5, height: 10),
    Rect(x: 0, y: 0, width: 10, height: .nan),
  ]
  for r in rects {
    #expect(Path.rect(r).isEmpty)
    #expect(Path.ellipse(in: r).isEmpty)
    #expect(Path.circle(in: r).isEmpty)
    #expect(Path.capsule(in: r).isEmpty)
    #expect(Path.roundedRect(r, radius: 4, style: .continuous).isEmpty)
  }
}
