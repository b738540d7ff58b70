import Foundation
import MorphCore
import MorphRender
import MorphScript
import Testing

@testable import MorphHost

// The seed's demo laid out by hand: a VStack (spacing 8) of the 390 × 500
// stack (each card 400 pt tall inside `.padding(50)`, as wide as the 390 pt
// frame offers) and two 17 pt caption lines, centred in the 438 × 608 canvas
// (the 390 × 560 frame plus the host's 24 pt margin).

private let canvas = Size(390 + 48, 560 + 48)

/// The top-left corner of the padded cards' 390 × 500 frame, in canvas points.
private func stackOrigin() -> Point {
  let line = PangoTextMeasure().measure(
    TextRun(string: "Current card is 0", size: 17, color: .black),
    in: ProposedSize(width: 390, height: nil)
  ).size
  let height = 500 + 8 + line.height + 8 + line.height
  return Point((canvas.width - 390) / 2, (canvas.height - height) / 2)
}

/// The centre of the padded card frame: every card's scale and rotation anchor.
private func stackCentre() -> Point { stackOrigin() + Point(195, 250) }

/// The seed's formulas for card `index` (0-based) at `currentIndex` p, written
/// out independently: `.offset(x:)` then `.scaleEffect` then `.rotationEffect`
/// about the padded frame's centre, so the offset is itself scaled and turned.
/// Corners of the 290 × 400 card, in `DisplayItem.quad` order.
private func expectedCorners(index i: Int, progress p: Double, count n: Int = 6) -> [Point] {
  let position = p - Double(i)
  var x = (Double(i) - p) * 35
  if position > 0 && position < 0.99 && i < n - 1 {
    x *= sin(.pi * position) * 15
  }
  let s = 1 - 0.1 * abs(position)
  let theta = -position * 2 * .pi / 180
  let c = stackCentre()
  return [(-145.0, -200.0), (145, -200), (145, 200), (-145, 200)].map { corner in
    let u = (corner.0 + x) * s
    let v = corner.1 * s
    return Point(c.x + u * cos(theta) - v * sin(theta), c.y + u * sin(theta) + v * cos(theta))
  }
}

/// The seed's zIndex, and the paint order it gives (ties keep written order).
private func expectedPaintOrder(progress p: Double, count n: Int = 6) -> [String] {
  func z(_ i: Int) -> Double { Double(i) + 0.5 < p ? -Double(n - i) : Double(n - i) }
  return (0..<n).sorted { (z($0), $0) < (z($1), $1) }.map { "card\($0 + 1)" }
}

private func paintOrder(_ frame: ComponentHost.Frame) -> [String] {
  frame.list.items.compactMap(\.id).filter { $0.hasPrefix("card") }
}

private func caption(_ frame: ComponentHost.Frame, _ id: String) throws -> String? {
  try item(frame, id).text?.string
}

/// A fast horizontal drag across the stack's centre: 0.1 s, so the velocity is
/// 10 × `distance` per second and the predicted end 3.5 × `distance`.
private func flick(_ h: ComponentHost, by distance: Double) throws {
  let start = stackCentre()
  try h.drag(from: start, to: start + Point(distance, 0), over: 0.1)
  try #require(try h.settle() != nil)
}

private func index(_ h: ComponentHost) -> Double? { h.component.presented("currentIndex") }

@Suite struct CardStackGeometryTests {
  // −0.3 and 5.3 are where a drag past either end takes the index; at 5.3
  // the last card must not swing out (the seed's `index < count − 1`).
  @Test(arguments: progressPoints + [2.5, 5, -0.3, 5.3])
  func cardCornersFollowTheSeed(_ p: Double) throws {
    let frame = try host("card_stack").frame(atProgress: p)
    for i in 0..<6 {
      let card = try item(frame, "card\(i + 1)")
      for (actual, expected) in zip(card.quad, expectedCorners(index: i, progress: p)) {
        #expect(close(actual, expected), "p = \(p), card \(i + 1): \(actual) vs \(expected)")
      }
    }
  }

  @Test(arguments: progressPoints + [0.49, 0.51, 2.5, 2.51, 5])
  func paintOrderFollowsZIndex(_ p: Double) throws {
    let frame = try host("card_stack").frame(atProgress: p)
    #expect(paintOrder(frame) == expectedPaintOrder(progress: p), "p = \(p)")
  }

  @Test func topCardDropsBehindAtTheHalfWayPoint() throws {
    let h = try host("card_stack")
    let before = paintOrder(try h.frame(atProgress: 0.49))
    let after = paintOrder(try h.frame(atProgress: 0.51))
    #expect(before.last == "card1")
    #expect(after.first == "card1")
    #expect(after.last == "card2")
  }

  /// The accessibility value names the card painted last (1-based).
  @Test(arguments: [0, 0.49, 0.5, 0.51, 2.5, 2.51, 4.6, 5.3, -0.3])
  func accessibilityNamesTheCardOnTop(_ p: Double) throws {
    let h = try host("card_stack")
    _ = try h.frame(atProgress: p)
    let top = try #require(expectedPaintOrder(progress: p).last)
    let value = try h.component.accessibility()?.value
    #expect(value == "Card \(top.dropFirst(4)) of 6", "p = \(p)")
  }

  @Test func cardsCarryTheDemoLook() throws {
    let frame = try host("card_stack").frame(atProgress: 0)
    // Painted back to front: Purple first, Red on top.
    let fills = frame.list.items.filter { $0.kind == .roundedRect }.map { $0.fill }
    let names = ["purple", "blue", "green", "yellow", "orange", "red"]
    #expect(fills == names.map { Paint.color(Color.named[$0]!) })
    let titles = frame.list.items.compactMap(\.text).filter { $0.size == 34 }
    #expect(titles.map(\.string) == ["Purple", "Blue", "Green", "Yellow", "Orange", "Red"])
    #expect(titles.allSatisfy { $0.weight == .bold && $0.color == .white })
    #expect(try caption(frame, "currentCaption") == "Current card is 0")
    #expect(try caption(frame, "tappedCaption") == "No card has been tapped")
  }

  /// Controlled mode at a whole index gives the picture of swiping there:
  /// the captions name the card the stack shows, not the initial binding.
  @Test func controlledModeAtAnIndexEqualsSwipingThere() throws {
    let swiped = try host("card_stack")
    try flick(swiped, by: -120)
    try flick(swiped, by: -120)
    let controlled = try host("card_stack")
    let frame = try controlled.frame(atProgress: 2)
    #expect(try caption(frame, "currentCaption") == "Current card is 2")
    #expect(sceneGeometry(try swiped.frame()) == sceneGeometry(frame))
  }

  @Test func controlledModeEqualsInteractiveMode() throws {
    // A slow drag (2 pt a tick, 240 pt/s) to the left, then release: the
    // predicted end (−48 − 60 pt) is short of 200 pt, so it springs back to 0
    // and the binding (finalIndex, the caption) never changes.
    let live = try host("card_stack")
    let start = stackCentre()
    var compared = 0
    func compare(_ label: String) throws {
      let frame = try live.frame()
      let p = try #require(index(live))
      let controlled = try host("card_stack").frame(atProgress: p)
      #expect(
        sceneGeometry(frame)
          == sceneGeometry(controlled), "\(label), p = \(p)")
      compared += 1
    }
    try live.pointerDown(at: start)
    for step in 1...24 {
      try live.advance(by: live.tick)
      try live.pointerMoved(to: start + Point(-2 * Double(step), 0))
      if step % 6 == 0 { try compare("dragging, step \(step)") }
    }
    #expect((index(live) ?? 0) > 0.1)
    try live.pointerUp(at: start + Point(-48, 0))
    for t in [0.02, 0.05, 0.1, 0.2] {
      try live.advance(by: t)
      try compare("springing back")
    }
    try live.settle()
    #expect(index(live) == 0)
    #expect(compared == 8)
  }

}

@Suite struct CardStackInteractionTests {
  @Test func frameIsTheDemoCanvas() throws {
    let h = try host("card_stack")
    #expect(h.canvas == canvas)
    #expect(h.component.name == "Card Stack")
  }

  @Test func flickMovesExactlyOneCard() throws {
    let h = try host("card_stack")
    // 120 pt in 0.1 s: predicted end −120 − 0.25·1200 = −420 pt.
    try flick(h, by: -120)
    #expect(index(h) == 1)
    #expect(h.component.target("previousIndex") == 1)
    #expect(h.component.target("finalIndex") == 1)
    #expect(try caption(h.frame(), "currentCaption") == "Current card is 1")
    // A long flick drags two cards' worth but still moves one: goTo counts
    // from where the drag started (previousIndex).
    try flick(h, by: -600)
    #expect(index(h) == 2)
    #expect(try caption(h.frame(), "currentCaption") == "Current card is 2")
    // And back.
    try flick(h, by: 120)
    #expect(index(h) == 1)
    #expect(try h.component.accessibility()?.value == "Card 2 of 6")
  }

  @Test func slowDragSnapsToTheNearestCard() throws {
    let h = try host("card_stack")
    let start = stackCentre()
    // 100 pt over 1 s: predicted −125 pt; the index (1/3) rounds back to 0.
    try h.drag(from: start, to: start + Point(-100, 0), over: 1)
    #expect(h.component.target("currentIndex") == 0)
    try h.settle()
    #expect(index(h) == 0)
    // 180 pt over 3 s: predicted −195 pt, still no flick, but 0.6 rounds to 1.
    // The seed only writes its binding in goTo, so the caption stays at 0.
    try h.drag(from: start, to: start + Point(-180, 0), over: 3)
    try h.settle()
    #expect(index(h) == 1)
    #expect(h.component.target("previousIndex") == 1)
    #expect(h.component.target("finalIndex") == 0)
    #expect(try caption(h.frame(), "currentCaption") == "Current card is 0")
  }

  @Test func snapRoundsTheModelValueNotTheScreen() throws {
    // Slowly to −160 pt (index 0.533), then a quick excursion to −10 pt and
    // back inside the last 0.1 s: the velocity over that window is small (no
    // flick), but the screen still lags near the excursion when the finger
    // lifts. `round(currentIndex)` reads the model, 0.533, so it lands on 1.
    let h = try host("card_stack")
    let start = stackCentre()
    try h.pointerDown(at: start)
    for step in 1...60 {
      try h.advance(by: h.tick)
      try h.pointerMoved(to: start + Point(-160 * Double(step) / 60, 0))
    }
    for x in [-135.0, -110, -85, -60, -35, -10, -85, -160] {
      try h.advance(by: h.tick)
      try h.pointerMoved(to: start + Point(x, 0))
    }
    let presented = try #require(index(h))
    #expect(presented < 0.5)
    #expect(abs((h.component.target("currentIndex") ?? 0) - 160.0 / 300) < 1e-12)
    try h.pointerUp(at: start + Point(-160, 0))
    #expect(h.component.target("currentIndex") == 1)
    try h.settle()
    #expect(index(h) == 1)
    #expect(h.component.target("previousIndex") == 1)
  }

  @Test func dragFollowsTheFingerWithAnInteractiveSpring() throws {
    let h = try host("card_stack")
    let start = stackCentre()
    try h.pointerDown(at: start)
    try h.advance(by: 0.05)
    try h.pointerMoved(to: start + Point(-150, 0))
    // 300 pt per card.
    #expect(h.component.target("currentIndex") == 0.5)
    // interactiveSpring(): response 0.15 s, damping fraction 0.86, from rest.
    let omega = 2 * Double.pi / 0.15
    let lambda = 0.86 * omega
    let omegaD = omega * (1 - 0.86 * 0.86).squareRoot()
    for t in [0.02, 0.05, 0.1] {
      try h.advance(to: 0.05 + t)
      let x = -0.5 * exp(-lambda * t) * (cos(omegaD * t) + lambda / omegaD * sin(omegaD * t))
      #expect(abs((index(h) ?? 0) - (0.5 + x)) < 1e-9, "t = \(t)")
    }
  }

  @Test func releaseSnapsWithTheInterpolatingSpring() throws {
    // Slowly to −100 pt (index 1/3), hold until the finger's spring is done,
    // then lift: predicted −125 pt, so the index springs back to 0 along
    // interpolatingSpring(stiffness 300, damping 40). Its ζ = 40/(2√300) ≈
    // 1.15 ≥ 1, and SwiftUI then samples the critically damped curve:
    // ω₀ = √300, and from rest x(t) = x₀(1 + ω₀t)e^(−ω₀t).
    let start = stackCentre()
    let g = try host("card_stack")
    try g.pointerDown(at: start)
    for step in 1...100 {
      try g.advance(by: g.tick)
      try g.pointerMoved(to: start + Point(-Double(step), 0))
    }
    try g.advance(by: 1)
    #expect(!g.component.isAnimating)
    try g.pointerUp(at: start + Point(-100, 0))
    #expect(g.component.target("currentIndex") == 0)
    let x0 = 100.0 / 300
    let released = g.time
    for t in [0.05, 0.1, 0.2, 0.4] {
      try g.advance(to: released + t)
      let w0 = 300.0.squareRoot()
      let expected = x0 * (1 + w0 * t) * exp(-w0 * t)
      #expect(abs((index(g) ?? 0) - expected) < 1e-9, "t = \(t)")
    }
  }

  @Test func clampsAtBothEnds() throws {
    let h = try host("card_stack")
    try flick(h, by: 120)
    #expect(index(h) == 0)
    #expect(h.component.target("finalIndex") == 0)
    for expected in 1...5 {
      try flick(h, by: -120)
      #expect(index(h) == Double(expected))
    }
    try flick(h, by: -120)
    #expect(index(h) == 5)
    #expect(h.component.target("previousIndex") == 5)
    #expect(try caption(h.frame(), "currentCaption") == "Current card is 5")
    #expect(try h.component.accessibility()?.value == "Card 6 of 6")
  }

  @Test func tapOnTheTopCardReportsTheCurrentCard() throws {
    let h = try host("card_stack")
    try flick(h, by: -120)
    try flick(h, by: -120)
    #expect(try h.component.accessibility()?.value == "Card 3 of 6")
    // The padding above the cards is no card: nothing happens.
    try h.tap(at: stackOrigin() + Point(195, 25))
    #expect(try caption(h.frame(), "tappedCaption") == "No card has been tapped")
    let point = stackCentre()
    let frame = try h.frame()
    #expect(frame.list.hitTest(point, wants: { $0.tap != nil })?.id == "card3")
    try h.tap(at: point)
    #expect(try caption(h.frame(), "tappedCaption") == "Card 2 was tapped")
    let a11y = try #require(try h.component.accessibility())
    #expect(a11y.label == "Card stack")
    #expect(a11y.value == "Card 3 of 6, card 3 was tapped")
    #expect(a11y.traits == ["adjustable"])
  }

  @Test func pressAndReleaseWithoutMovingIsATap() throws {
    let h = try host("card_stack")
    try h.pointerDown(at: stackCentre())
    try h.advance(by: 0.1)
    try h.pointerUp(at: stackCentre() + Point(3, 0))
    #expect(try caption(h.frame(), "tappedCaption") == "Card 0 was tapped")
    #expect(!h.component.isAnimating)
  }

  /// `--set items=…` as a Lua literal or as JSON; colours arrive as strings.
  @Test(arguments: [
    "{ {name = 'A', color = '#FF0000'}, {name = 'B', color = '#00FF00'}, "
      + "{name = 'C', color = '#0000FF'} }",
    ##"[{"name": "A", "color": "#FF0000"}, {"name": "B", "color": "#00FF00"}, "##
      + ##"{"name": "C", "color": "#0000FF"}]"##,
  ])
  func itemsCanBeSetFromTheCommandLine(_ items: String) throws {
    let h = try host("card_stack", props: [("items", items)])
    let frame = try h.frame()
    #expect(paintOrder(frame) == ["card3", "card2", "card1"])
    let fills = frame.list.items.filter { $0.kind == .roundedRect }.map { $0.fill }
    #expect(fills == ["#0000FF", "#00FF00", "#FF0000"].map { .color(try! Color.parse($0)) })
    for i in 0..<3 {
      for (actual, expected) in zip(
        try item(frame, "card\(i + 1)").quad, expectedCorners(index: i, progress: 0, count: 3))
      {
        #expect(close(actual, expected), "card \(i + 1): \(actual) vs \(expected)")
      }
    }
    for _ in 0..<3 { try flick(h, by: -120) }
    #expect(index(h) == 2)
    #expect(try h.component.accessibility()?.value == "Card 3 of 3")
  }
}

@Suite struct CardStackRangeTests {
  @Test func progressRangeFollowsTheItemCount() throws {
    let three = try host(
      "card_stack",
      props: [
        (
          "items",
          "{ {name = 'A', color = 'red'}, {name = 'B', color = 'blue'}, {name = 'C', color = 'green'} }"
        )
      ])
    #expect(three.component.progressRange == 0...2)
    #expect(try host("card_stack").component.progressRange == 0...5)
  }

  @Test func aDragStartsOnlyOnACard() throws {
    let h = try host("card_stack")
    // The caption area, below the cards: nothing to drag.
    let caption = h.canvasPoint(Point(195, 530))
    try h.drag(from: caption, to: caption - Point(250, 0), over: 0.1)
    #expect(h.component.target("currentIndex") == 0)
    let card = h.canvasPoint(Point(195, 250))
    try h.drag(from: card, to: card - Point(250, 0), over: 0.1)
    #expect(h.component.target("currentIndex") == 1)
  }
}
