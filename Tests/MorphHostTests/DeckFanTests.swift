import Foundation
import MorphCore
import MorphRender
import MorphScript
import Testing

@testable import MorphHost

// The seed's geometry written out independently of the plugin: four 96×132
// cards centred in the 380×240 frame, itself centred in the 428×288 canvas,
// so every card's layout frame is centred at (214, 144).

/// `1 + c3·(x−1)³ + c1·(x−1)²`, c1 = 1.70158, c3 = c1 + 1.
private func easeOutBack(_ x: Double) -> Double {
  let c1 = 1.70158
  let c3 = c1 + 1
  let t = x - 1
  return 1 + c3 * t * t * t + c1 * t * t
}

private func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

/// One card's effects at shared progress `p` (index 0 is the back card).
private struct Pose {
  var eased: Double
  var scale: Double
  var degrees: Double
  var offset: Point

  init(index: Int, progress p: Double) {
    let i = Double(index)
    let local = min(max((p - i * 0.09) / 0.73, 0), 1)
    eased = easeOutBack(local)
    let t = i / 3 * 2 - 1
    scale = lerp(1 - i * 0.04, 1, eased)
    degrees = lerp(0, t * 14, eased)
    offset = Point(lerp(0, t * 70, eased), lerp(i * 8, -18, eased))
  }
}

/// Corners (top-left, top-right, bottom-right, bottom-left): scaled about the
/// card's centre, turned clockwise about the bottom-centre of the unscaled
/// frame, then offset.
private func expectedCorners(index: Int, progress p: Double) -> [Point] {
  let pose = Pose(index: index, progress: p)
  let theta = pose.degrees * .pi / 180
  let centre = Point(214, 144)
  let anchorY = 66.0
  return [(-48.0, -66.0), (48, -66), (48, 66), (-48, 66)].map { corner in
    let x = corner.0 * pose.scale
    let y = corner.1 * pose.scale - anchorY
    let rx = x * cos(theta) - y * sin(theta)
    let ry = x * sin(theta) + y * cos(theta) + anchorY
    return Point(centre.x + rx + pose.offset.x, centre.y + ry + pose.offset.y)
  }
}

/// The seed's card colours as components.
private let seedColors: [(Double, Double, Double)] = [
  (0.184, 0.435, 0.929), (0.486, 0.361, 1.0), (0.925, 0.282, 0.600), (0.961, 0.620, 0.043),
]

private let cardIDs = ["card1", "card2", "card3", "card4"]

private func expectCards(
  _ frame: ComponentHost.Frame, progress p: Double,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  for (index, id) in cardIDs.enumerated() {
    let card = try item(frame, id)
    for (actual, expected) in zip(card.quad, expectedCorners(index: index, progress: p)) {
      #expect(
        close(actual, expected), "p = \(p), \(id): \(actual) vs \(expected)",
        sourceLocation: sourceLocation)
    }
  }
}

private func interactive(_ h: ComponentHost) -> Double {
  h.component.presented("interactive") ?? .nan
}

@Suite struct DeckFanGeometryTests {
  @Test(arguments: progressPoints)
  func cardCornersFollowTheSeed(_ p: Double) throws {
    let frame = try host("deck_fan").frame(atProgress: p)
    try expectCards(frame, progress: p)
  }

  @Test(arguments: progressPoints)
  func shadowsAndPaintOrderFollowTheSeed(_ p: Double) throws {
    let frame = try host("deck_fan").frame(atProgress: p)
    for (index, id) in cardIDs.enumerated() {
      let card = try item(frame, id)
      let shadow = try #require(card.shadow, "\(id) has no shadow")
      let pose = Pose(index: index, progress: p)
      // Written after the scale, rotation and offset: neither the radius nor
      // the straight-down 4 pt offset is scaled or turned with the card.
      #expect(abs(shadow.radius - lerp(6, 18, pose.eased)) < 1e-9)
      #expect(close(shadow.offset, Point(0, 4), 1e-9))
      #expect(abs(shadow.color.alpha - 0.24) < 1e-9)
      #expect(shadow.color.red == 0 && shadow.color.green == 0 && shadow.color.blue == 0)
      #expect(card.kind == .roundedRect)
      #expect(card.z == Double(index))
    }
    // Back to front: card1 is drawn first, card4 last.
    let order = frame.list.items.compactMap(\.id)
    #expect(order == cardIDs)
  }

  @Test func defaultColoursAreTheSeedsComponents() throws {
    let frame = try host("deck_fan").frame(atProgress: 0)
    for (id, seed) in zip(cardIDs, seedColors) {
      guard case .color(let c)? = try item(frame, id).fill else {
        Issue.record("\(id) has no flat fill")
        continue
      }
      // #RRGGBB rounds each component to the nearest 1/255.
      #expect(abs(c.red - seed.0) <= 0.5 / 255, "\(id) red")
      #expect(abs(c.green - seed.1) <= 0.5 / 255, "\(id) green")
      #expect(abs(c.blue - seed.2) <= 0.5 / 255, "\(id) blue")
    }
    let background = try #require(frame.list.items.first)
    #expect(background.quad == [Point(24, 24), Point(404, 24), Point(404, 264), Point(24, 264)])
    #expect(background.fill == .color(Color(red: 1, green: 1, blue: 1)))
  }

  @Test func midDragGeometryFollowsTheTranslation() throws {
    let h = try host("deck_fan")
    try h.pointerDown(at: h.center)
    try h.advance(by: h.tick)
    try h.pointerMoved(to: h.center + Point(30, 7))
    try h.advance(by: h.tick)
    try h.pointerMoved(to: h.center + Point(54, -3))
    // 120 pt per unit; only the horizontal translation counts.
    let p = 54.0 / 120
    #expect(abs(interactive(h) - p) < 1e-12)
    #expect(!h.component.isAnimating)
    try expectCards(try h.frame(), progress: p)
  }

}

@Suite struct DeckFanInteractionTests {
  /// The seed's spring: response 0.46, dampingFraction 0.74.
  private let settling = Spring(response: 0.46, dampingRatio: 0.74).settlingDuration()

  @Test func tapFansAndSettlesWithinTheSpringsSettlingTime() throws {
    let h = try host("deck_fan")
    try h.tap()
    #expect(h.component.target("interactive") == 1)
    #expect(h.component.isAnimating)
    let settled = try #require(try h.settle())
    #expect(settled <= settling + h.tick)
    // It springs rather than jumps: most of the settling time is spent.
    #expect(settled > settling - 0.1)
    #expect(interactive(h) == 1)
    #expect(try h.component.accessibility()?.value == "Fanned")
  }

  @Test func tapAgainStacks() throws {
    let h = try host("deck_fan")
    try h.tap()
    try h.settle()
    try h.tap()
    #expect(h.component.target("interactive") == 0)
    let start = h.time
    let settled = try #require(try h.settle())
    #expect(settled - start <= settling + h.tick)
    #expect(interactive(h) == 0)
    #expect(try h.component.accessibility()?.value == "Stacked")
  }

  @Test func tapMidFlightReversesFromTheModelValue() throws {
    let h = try host("deck_fan")
    try h.tap()
    try h.advance(to: 0.1)
    // On screen it is still under half way, but the model value is 1.
    #expect(interactive(h) < 0.5)
    try h.tap()
    #expect(h.component.target("interactive") == 0)
  }

  @Test func releaseBelowHalfSettlesToZero() throws {
    let h = try host("deck_fan")
    try h.drag(from: h.center, to: h.center + Point(50, 0), over: 0.2)
    #expect(abs(interactive(h) - 50.0 / 120) < 1e-12)
    #expect(h.component.target("interactive") == 0)
    #expect(h.component.isAnimating)
    try h.settle()
    #expect(interactive(h) == 0)
  }

  @Test func releaseAboveHalfSettlesToOne() throws {
    let h = try host("deck_fan")
    try h.drag(from: h.center, to: h.center + Point(80, 0), over: 0.2)
    #expect(abs(interactive(h) - 80.0 / 120) < 1e-12)
    #expect(h.component.target("interactive") == 1)
    try h.settle()
    #expect(interactive(h) == 1)
  }

  @Test func dragBackFromFannedAndClamp() throws {
    let h = try host("deck_fan")
    try h.tap()
    try h.settle()
    try h.drag(from: h.center, to: h.center - Point(80, 0), over: 0.2)
    #expect(abs(interactive(h) - (1 - 80.0 / 120)) < 1e-12)
    #expect(h.component.target("interactive") == 0)
    try h.settle()
    // A drag further than one unit clamps to [0, 1].
    try h.pointerDown(at: h.center)
    try h.advance(by: h.tick)
    try h.pointerMoved(to: h.center - Point(40, 0))
    #expect(interactive(h) == 0)
    try h.advance(by: h.tick)
    try h.pointerMoved(to: h.center + Point(200, 0))
    #expect(interactive(h) == 1)
  }

  @Test func grabMidSettleStartsFromTheLiveValue() throws {
    let h = try host("deck_fan")
    try h.tap()
    try h.advance(to: 0.1)
    try h.pointerDown(at: h.center)
    try h.advance(by: h.tick)
    let live = interactive(h)
    #expect(live > 0.05 && live < 0.9, "still moving: \(live)")
    try h.pointerMoved(to: h.center - Point(6, 0))
    // The first change starts from what is on screen, not from the target 1,
    // and the spring stops: the finger holds the fan.
    #expect(abs(interactive(h) - (live - 6.0 / 120)) < 1e-12)
    #expect(!h.component.isAnimating)
    try h.advance(by: h.tick)
    try h.pointerMoved(to: h.center - Point(18, 0))
    // The base was captured once, on the first change.
    #expect(abs(interactive(h) - (live - 18.0 / 120)) < 1e-12)
    // Released below half (from the target it would have been above).
    #expect(live - 18.0 / 120 < 0.5)
    try h.pointerUp(at: h.center - Point(18, 0))
    #expect(h.component.target("interactive") == 0)
    // The next drag captures afresh.
    try h.settle()
    try h.drag(from: h.center, to: h.center + Point(30, 0), over: 0.1)
    #expect(abs(interactive(h) - 30.0 / 120) < 1e-12)
  }

  @Test func smallMovesAreATap() throws {
    let h = try host("deck_fan")
    try h.pointerDown(at: h.center)
    try h.advance(by: h.tick)
    try h.pointerMoved(to: h.center + Point(3, 0))
    #expect(interactive(h) == 0)
    try h.pointerUp(at: h.center + Point(3, 0))
    #expect(h.component.target("interactive") == 1)
  }

  @Test func reduceMotionJumps() throws {
    let h = try host("deck_fan", reduceMotion: true)
    try h.tap()
    #expect(interactive(h) == 1)
    #expect(!h.component.isAnimating)
    try h.drag(from: h.center, to: h.center - Point(70, 0), over: 0.2)
    #expect(interactive(h) == 0)
    #expect(!h.component.isAnimating)
  }

  @Test func accessibility() throws {
    let h = try host("deck_fan")
    let a = try #require(try h.component.accessibility())
    #expect(a.label == "Card fan")
    #expect(a.value == "Stacked")
    #expect(a.hint == "Drag or tap to fan the cards")
    #expect(a.traits == ["button"])
    _ = try h.frame(atProgress: 0.51)
    #expect(try h.component.accessibility()?.value == "Fanned")
    _ = try h.frame(atProgress: 0.5)
    #expect(try h.component.accessibility()?.value == "Stacked")
  }
}
