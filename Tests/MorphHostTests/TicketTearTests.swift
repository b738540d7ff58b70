import Foundation
import MorphCore
import MorphRender
import MorphScript
import Testing

@testable import MorphHost

// The seed's layout written out independently of the plugin: a VStack
// (spacing 10) of a 240×118 body over a 240×54 stub, 182 pt tall, centred in
// the 380×240 frame, itself centred in the 428×288 canvas. So the body's
// top-left is (94, 53) and the stub's (94, 181).

private let bodyOrigin = Point(94, 53)
private let stubOrigin = Point(94, 181)

/// The seed's jitter hash: fract(sin(i · 12.9898) · 43758.5453).
private func hash(_ i: Int) -> Double {
  let x = sin(Double(i) * 12.9898) * 43758.5453
  return x - x.rounded(.down)
}

/// `TicketTornEdge.path(in:)` for the rect (0, 0, w, h) with 22 teeth.
private func tornEdge(width w: Double, height h: Double, amplitude: Double, flipped: Bool)
  -> Path
{
  let count = 22
  let baseline = flipped ? 0 : h
  let points = (0...count).map { i -> Point in
    let sign: Double = i.isMultiple(of: 2) ? 1 : -1
    let depth = amplitude * (0.6 + 0.4 * hash(i)) * sign
    return Point(w * Double(i) / Double(count), baseline + (flipped ? -depth : depth))
  }
  var path = Path()
  func addSmoothedEdge(_ points: [Point]) {
    var previous = points[0]
    for current in points.dropFirst() {
      let mid = Point((previous.x + current.x) / 2, (previous.y + current.y) / 2)
      path.quad(to: mid, control: previous)
      previous = current
    }
    path.line(to: points[points.count - 1])
  }
  if flipped {
    path.move(to: Point(0, h))
    path.line(to: Point(0, points[0].y))
    addSmoothedEdge(points)
    path.line(to: Point(w, h))
  } else {
    path.move(to: Point(0, 0))
    path.line(to: Point(w, 0))
    path.line(to: Point(w, points[count].y))
    addSmoothedEdge(points.reversed())
  }
  path.close()
  return path
}

/// Whether two paths have the same elements, points within `tolerance`.
private func samePath(_ a: Path, _ b: Path, _ tolerance: Double = 1e-9) -> Bool {
  guard a.elements.count == b.elements.count else { return false }
  for (x, y) in zip(a.elements, b.elements) {
    switch (x, y) {
    case (.move, .move), (.line, .line), (.quad, .quad), (.cubic, .cubic), (.close, .close):
      guard x.points.count == y.points.count else { return false }
      for (p, q) in zip(x.points, y.points) where !close(p, q, tolerance) { return false }
    default: return false
    }
  }
  return true
}

/// A local point of the stub in canvas points: turned 6p° clockwise about its
/// top-left, then moved by (8p, 14p).
private func stubPoint(_ local: Point, progress p: Double) -> Point {
  let theta = 6 * p * .pi / 180
  return Point(
    stubOrigin.x + local.x * cos(theta) - local.y * sin(theta) + 8 * p,
    stubOrigin.y + local.x * sin(theta) + local.y * cos(theta) + 14 * p)
}

private func centre(_ quad: [Point]) -> Point {
  Point(quad.map(\.x).reduce(0, +) / 4, quad.map(\.y).reduce(0, +) / 4)
}

private func alpha(_ stroke: Stroke?) -> Double? {
  guard case .color(let c)? = stroke?.paint else { return nil }
  return c.alpha
}

/// The rip highlights (solid strokes), body first.
private func ripStrokes(_ frame: ComponentHost.Frame) -> [DisplayItem] {
  frame.list.items.filter { $0.kind == .path && $0.stroke?.dash.isEmpty == true }
}

private func tearProgress(_ h: ComponentHost) -> Double {
  h.component.presented("interactive") ?? .nan
}

@Suite struct TicketTearGeometryTests {
  @Test(arguments: progressPoints)
  func piecesFollowTheSeed(_ p: Double) throws {
    let frame = try host("ticket_tear").frame(atProgress: p)
    let body = try item(frame, "main").quad
    let expectedBody = [Point(94, 53), Point(334, 53), Point(334, 171), Point(94, 171)]
    for (actual, expected) in zip(body, expectedBody) {
      #expect(close(actual, expected), "p = \(p), main: \(actual) vs \(expected)")
    }
    let stub = try item(frame, "stub").quad
    let expectedStub = [Point(0, 0), Point(240, 0), Point(240, 54), Point(0, 54)].map {
      stubPoint($0, progress: p)
    }
    for (actual, expected) in zip(stub, expectedStub) {
      #expect(close(actual, expected), "p = \(p), stub: \(actual) vs \(expected)")
    }
  }

  @Test(arguments: progressPoints)
  func notchesArePunchedAtThePerforation(_ p: Double) throws {
    let frame = try host("ticket_tear").frame(atProgress: p)
    let circles = frame.list.items.filter { $0.kind == .circle }
    try #require(circles.count == 4)
    let expected = [
      Point(94, 171), Point(334, 171),
      stubPoint(Point(0, 0), progress: p), stubPoint(Point(240, 0), progress: p),
    ]
    let radius = 9 + 2 * p
    for (circle, centreExpected) in zip(circles, expected) {
      #expect(close(centre(circle.quad), centreExpected), "p = \(p): \(circle.quad)")
      #expect(abs(circle.quad[0].distance(to: circle.quad[1]) - 2 * radius) < 1e-9)
    }
    // Each pair erases (destinationOut) inside its own piece's compositing group.
    var groups: [GroupStyle] = []
    var punched = 0
    for command in frame.list.commands {
      switch command {
      case .beginGroup(let style): groups.append(style)
      case .endGroup: groups.removeLast()
      case .item(let item) where item.kind == .circle:
        #expect(groups.count == 2 && groups.last?.blend == .destinationOut)
        punched += 1
      case .item: break
      }
    }
    #expect(punched == 4)
  }

  @Test(arguments: progressPoints)
  func tornEdgeGrowsWithTheAmplitudeOnly(_ p: Double) throws {
    let frame = try host("ticket_tear").frame(atProgress: p)
    let rips = ripStrokes(frame)
    try #require(rips.count == 2)
    let (body, stub) = (rips[0], rips[1])
    #expect(
      samePath(body.path, tornEdge(width: 240, height: 118, amplitude: 7 * p, flipped: false)))
    #expect(samePath(stub.path, tornEdge(width: 240, height: 54, amplitude: 7 * p, flipped: true)))
    // The 1 pt rip highlight in the accent fades in with p.
    for rip in rips {
      #expect(rip.stroke?.width == 1)
      #expect(abs((alpha(rip.stroke) ?? -1) - p) < 1e-9)
    }
    // Content is clipped to the same outline.
    let paper = try #require(frame.list.items.first { $0.kind == .rect })
    #expect(paper.clips.count == 1)
    #expect(samePath(paper.clips[0].path, body.path))

    let bodyBounds = try #require(body.path.bounds)
    let stubBounds = try #require(stub.path.bounds)
    let bodyDepth = bodyBounds.origin.y + bodyBounds.size.height - 118
    let stubDepth = -stubBounds.origin.y
    if p == 0 {
      // A whole ticket: the perforation is exactly a straight line.
      #expect(bodyBounds.size.height == 118 && bodyDepth == 0)
      #expect(stubBounds.size.height == 54 && stubDepth == 0)
    } else {
      #expect(bodyDepth > 0 && bodyDepth <= 7 * p + 1e-9, "body depth \(bodyDepth)")
      #expect(stubDepth > 0 && stubDepth <= 7 * p + 1e-9, "stub depth \(stubDepth)")
    }
  }

  @Test(arguments: progressPoints)
  func dashedGuideFades(_ p: Double) throws {
    let frame = try host("ticket_tear").frame(atProgress: p)
    let guides = frame.list.items.filter { $0.stroke?.dash.isEmpty == false }
    try #require(guides.count == 1)
    let guide = guides[0]
    #expect(guide.stroke?.dash == [4, 3])
    #expect(guide.stroke?.width == 1)
    #expect(abs((alpha(guide.stroke) ?? -1) - 0.35 * (1 - p)) < 1e-9)
    // A 240×1 frame at the body's bottom edge.
    let expected = [Point(94, 170), Point(334, 170), Point(334, 171), Point(94, 171)]
    for (actual, e) in zip(guide.quad, expected) { #expect(close(actual, e)) }
  }

  @Test func contentSitsWhereSwiftUIPutsIt() throws {
    let frame = try host("ticket_tear").frame(atProgress: 0)
    let items = frame.list.items
    let accent = Color(red: 0.878, green: 0.267, blue: 0.169)
    // The 10 pt accent strip takes the body's full height at its leading edge.
    let strip = try #require(
      items.first {
        guard $0.kind == .rect, case .color(let c)? = $0.fill else { return false }
        return abs(c.red - accent.red) < 0.01 && abs(c.green - accent.green) < 0.01
      })
    #expect(strip.quad == [Point(94, 53), Point(104, 53), Point(104, 171), Point(94, 171)])
    // ZStack(alignment: .leading) centres the padded 156×43 bar column
    // vertically: (118 − 43) / 2 = 37.5, plus the 18 pt top padding.
    let bars = items.filter { $0.kind == .roundedRect }
    try #require(bars.count == 2)
    #expect(bars[0].quad[0] == Point(120, 108.5) && bars[0].quad[2] == Point(250, 118.5))
    #expect(bars[1].quad[0] == Point(120, 126.5) && bars[1].quad[2] == Point(210, 133.5))
    // Twelve 2 pt bars, 3 pt apart (57 pt), centred in the stub, full height.
    let code = items.filter { item in
      guard item.kind == .rect, case .color(let c)? = item.fill else { return false }
      return c.red < 0.1 && c.alpha < 0.9
    }
    try #require(code.count == 12)
    for (i, bar) in code.enumerated() {
      let x = 94 + (240 - 57) / 2 + 5 * Double(i)
      #expect(bar.quad[0] == Point(x, 181) && bar.quad[2] == Point(x + 2, 235), "bar \(i)")
      guard case .color(let c)? = bar.fill else { continue }
      #expect(abs(c.alpha - (i.isMultiple(of: 2) ? 0.8 : 0.35)) < 1e-9)
    }
  }

  @Test func defaultColoursAreTheSeedsComponents() throws {
    let frame = try host("ticket_tear").frame(atProgress: 1)
    let paper = try #require(frame.list.items.first { $0.kind == .rect })
    let guide = try #require(frame.list.items.first { $0.stroke?.dash.isEmpty == false })
    let rip = try #require(ripStrokes(frame).first)
    let checks: [(String, Paint?, (Double, Double, Double))] = [
      ("paper", paper.fill, (1.0, 0.992, 0.969)),
      ("ink", guide.stroke?.paint, (0.078, 0.086, 0.110)),
      ("accent", rip.stroke?.paint, (0.878, 0.267, 0.169)),
    ]
    for (name, paint, seed) in checks {
      guard case .color(let c)? = paint else {
        Issue.record("\(name) is not a flat colour")
        continue
      }
      #expect(abs(c.red - seed.0) <= 0.5 / 255, "\(name) red")
      #expect(abs(c.green - seed.1) <= 0.5 / 255, "\(name) green")
      #expect(abs(c.blue - seed.2) <= 0.5 / 255, "\(name) blue")
    }
  }

}

@Suite struct TicketTearInteractionTests {
  /// The seed's spring: response 0.50, dampingFraction 0.70.
  private let settling = Spring(response: 0.50, dampingRatio: 0.70).settlingDuration()

  @Test func tapTearsAndTapAgainRejoins() throws {
    let h = try host("ticket_tear")
    try h.tap()
    #expect(h.component.target("interactive") == 1)
    #expect(h.component.isAnimating)
    let torn = try #require(try h.settle())
    #expect(torn <= settling + h.tick && torn > settling - 0.1)
    #expect(tearProgress(h) == 1)
    #expect(try h.component.accessibility()?.value == "Torn away")

    try h.tap()
    #expect(h.component.target("interactive") == 0)
    let start = h.time
    let rejoined = try #require(try h.settle())
    #expect(rejoined - start <= settling + h.tick)
    #expect(tearProgress(h) == 0)
    #expect(try h.component.accessibility()?.value == "Attached")
  }

  @Test func tapMidFlightReversesFromTheModelValue() throws {
    let h = try host("ticket_tear")
    try h.tap()
    try h.advance(to: 0.08)
    #expect(tearProgress(h) < 0.5)
    try h.tap()
    #expect(h.component.target("interactive") == 0)
  }

  @Test func reduceMotionJumps() throws {
    let h = try host("ticket_tear", reduceMotion: true)
    try h.tap()
    #expect(tearProgress(h) == 1)
    #expect(!h.component.isAnimating)
    try h.tap()
    #expect(tearProgress(h) == 0)
  }

  @Test func theSeedHasNoDrag() throws {
    #expect(!(try host("ticket_tear")).component.hasHandler("drag"))
    #expect((try host("deck_fan")).component.hasHandler("drag"))
  }

  @Test func accessibility() throws {
    let h = try host("ticket_tear")
    let a = try #require(try h.component.accessibility())
    #expect(a.label == "Ticket stub")
    #expect(a.value == "Attached")
    #expect(a.hint == "Tears the stub away, or rejoins it")
    #expect(a.traits == ["button"])
    _ = try h.frame(atProgress: 0.51)
    #expect(try h.component.accessibility()?.value == "Torn away")
    _ = try h.frame(atProgress: 0.5)
    #expect(try h.component.accessibility()?.value == "Attached")
  }
}
