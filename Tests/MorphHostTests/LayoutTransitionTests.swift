import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// Transitions and layout, against SwiftUI's semantics: when a view is inserted into or
/// removed from a stack under an animation, the stack lays out at once with (or without)
/// it and the siblings glide from their old frames to their new ones under the same
/// animation, while a removed view plays its removal at its last frame, taking no space.
/// The root and overlays transition too. Each tap toggles `shown` over a linear 1 s
/// curve, so `s` seconds into a change everything is `s` of the way.
@Suite struct LayoutTransitionTests {
  static let linear = "self:animate(m.linear(1), { shown = not self.shown })"

  static func source(_ body: String, change: String = linear) -> String {
    """
    local m = morph
    return m.component {
      name = "Layout",
      size = { 200, 200 },
      state = { shown = false },
      tap = function(self) \(change) end,
      body = function(self)
        \(body)
      end,
    }
    """
  }

  /// A top-aligned column of 100 × 40 rows, spacing 0: `a`, the badge (when shown), `c`,
  /// and a 100 × 20 row with no id.
  static let column = """
    local rows = { spacing = 0, m.rect():fill("#0000FF"):frame(100, 40):id("a") }
    if self.shown then
      rows[#rows + 1] = m.rect():fill("#FF0000"):frame(100, 40):id("badge")
        :transition(m.transition.opacity)
    end
    rows[#rows + 1] = m.rect():fill("#00FF00"):frame(100, 40):id("c")
    rows[#rows + 1] = m.rect():fill("#000000"):frame(100, 20)
    return m.vstack(rows):frame { width = 200, height = 200, alignment = "top" }
    """

  func makeHost(_ body: String, change: String = linear) throws -> ComponentHost {
    let text = Self.source(body, change: change)
    let h = ComponentHost(component: try ComponentInstance(path: "layout.lua", source: text))
    _ = try h.frame()
    return h
  }

  typealias Seen = (corner: Point, width: Double, opacity: Double)

  /// Each drawn item's top-left corner relative to the component's origin, width along
  /// its top edge and opacity, by id (the row with no id is "").
  func items(_ h: ComponentHost) throws -> [String: Seen] {
    var seen: [String: Seen] = [:]
    for item in try h.frame().list.items {
      let q = item.quad
      seen[item.id ?? ""] = (q[0] - Point(h.margin, h.margin), q[1].x - q[0].x, item.opacity)
    }
    return seen
  }

  /// Taps (the component's `tap`) and returns the items `at` seconds later, for each time.
  func toggle(_ h: ComponentHost, at times: [Double]) throws -> [[String: Seen]] {
    let start = h.time
    try h.tap(at: Point(h.margin + 190, h.margin + 190))
    var seen: [[String: Seen]] = []
    for t in times {
      try h.advance(to: start + t)
      seen.append(try items(h))
    }
    return seen
  }

  func expectClose(
    _ a: Point?, _ b: Point, _ what: Comment, at: SourceLocation = #_sourceLocation
  ) {
    guard let a else {
      Issue.record("\(what): not drawn", sourceLocation: at)
      return
    }
    let d = max(abs(a.x - b.x), abs(a.y - b.y))
    #expect(d < 1e-6, "\(what): \(a) ≠ \(b)", sourceLocation: at)
  }

  func expectClose(
    _ a: Double?, _ b: Double, _ what: Comment, at: SourceLocation = #_sourceLocation
  ) {
    #expect(a.map { abs($0 - b) < 1e-6 } == true, "\(what): \(String(describing: a)) ≠ \(b)")
  }

  @Test func siblingsGlideIntoARemovedNodesRoomWhileItFadesAtItsLastFrame() throws {
    let h = try makeHost(Self.column)
    _ = try toggle(h, at: [1.01])
    let seen = try toggle(h, at: [0, 0.5, 1.01])
    for (k, s) in [0, 0.5, 1.0].enumerated() {
      expectClose(seen[k]["a"]?.corner, Point(50, 0), "a stays at \(s)")
      expectClose(seen[k]["c"]?.corner, Point(50, 80 - 40 * s), "c at \(s)")
      expectClose(seen[k][""]?.corner, Point(50, 120 - 40 * s), "the row with no id at \(s)")
    }
    for k in 0..<2 {
      expectClose(seen[k]["badge"]?.corner, Point(50, 40), "the badge stays where it was")
    }
    expectClose(seen[1]["badge"]?.opacity, 0.5, "the badge half faded")
    #expect(seen[2]["badge"] == nil, "gone once its removal ends")
  }

  @Test func aMatchedNodeLeavesFromTheFrameItWasShownAt() throws {
    let matched = Self.column.replacingOccurrences(
      of: ":id(\"badge\")", with: ":matchedGeometry(\"badge\"):id(\"badge\")")
    #expect(matched != Self.column)
    let h = try makeHost(matched)
    _ = try toggle(h, at: [1.01])
    let seen = try toggle(h, at: [0.5])
    expectClose(seen[0]["badge"]?.corner, Point(50, 40), "the badge where it was")
    expectClose(seen[0]["c"]?.corner, Point(50, 60), "c half way up")
  }

  @Test func siblingsGlideToMakeRoomForAnInsertedNode() throws {
    let h = try makeHost(Self.column)
    let seen = try toggle(h, at: [0, 0.5, 1.01])
    for (k, s) in [0, 0.5, 1.0].enumerated() {
      expectClose(seen[k]["c"]?.corner, Point(50, 40 + 40 * s), "c at \(s)")
      expectClose(seen[k][""]?.corner, Point(50, 80 + 40 * s), "the row with no id at \(s)")
      expectClose(seen[k]["badge"]?.corner, Point(50, 40), "the badge in its new place")
      expectClose(seen[k]["badge"]?.opacity, s, "the badge fading in at \(s)")
    }
    #expect(!h.component.isAnimating)
  }

  /// An inserted node's `onAppear` with a plain assignment is a transaction of its own in
  /// the same update: the siblings still glide under the insertion's animation.
  @Test func aPlainAssignmentInOnAppearKeepsTheSiblingsGlide() throws {
    let hooked = Self.column.replacingOccurrences(
      of: ":id(\"badge\")", with: ":id(\"badge\"):onAppear(function(s) s.n = s.n + 1 end)")
    #expect(hooked != Self.column)
    let text = Self.source(hooked).replacingOccurrences(
      of: "state = { shown = false }", with: "state = { shown = false, n = 0 }")
    let h = ComponentHost(component: try ComponentInstance(path: "layout.lua", source: text))
    _ = try h.frame()
    let seen = try toggle(h, at: [0.5])
    expectClose(seen[0]["c"]?.corner, Point(50, 60), "c half way down")
    #expect(h.component.target("n") == 1, "the hook ran")
  }

  @Test func aReinsertionMidRemovalTurnsTheSiblingsBackFromWhereTheyAre() throws {
    let h = try makeHost(Self.column)
    _ = try toggle(h, at: [1.01])
    let removing = try toggle(h, at: [0.5])
    expectClose(removing[0]["c"]?.corner, Point(50, 60), "c half way up")
    // Timing curves restart from the presented value: 60 → 80 over the next second.
    let back = try toggle(h, at: [0, 0.5, 1.01])
    for (k, s) in [0, 0.5, 1.0].enumerated() {
      expectClose(back[k]["c"]?.corner, Point(50, 60 + 20 * s), "c on its way back at \(s)")
      expectClose(back[k]["badge"]?.corner, Point(50, 40), "the badge in its place")
      expectClose(back[k]["badge"]?.opacity, 0.5 + 0.5 * s, "the badge back at \(s)")
    }
    #expect(h.component.transitions.leavingIDs.isEmpty)
  }

  @Test func withoutAnAnimationSiblingsJump() throws {
    let h = try makeHost(Self.column, change: "self.shown = not self.shown")
    let inserted = try toggle(h, at: [0])
    expectClose(inserted[0]["c"]?.corner, Point(50, 80), "c below the badge at once")
    let removed = try toggle(h, at: [0])
    expectClose(removed[0]["c"]?.corner, Point(50, 40), "c in its room at once")
    #expect(removed[0]["badge"] == nil)
    #expect(!h.component.isAnimating)
  }

  @Test func anAnimatedChangeThatInsertsNothingDoesNotMoveSiblings() throws {
    // The badge's width follows `shown`, under the animation, but nothing comes or goes.
    let h = try makeHost(
      """
      return m.vstack {
        spacing = 0,
        m.rect():frame(self.shown and 100 or 50, 40):id("a"),
        m.rect():frame(100, 40):id("c"),
      }
      """)
    let seen = try toggle(h, at: [0])
    expectClose(seen[0]["a"]?.corner, Point(50, 60), "a laid out at its new width at once")
  }

  /// A root that is one card or another by id: red, as wide as it is offered and 50 high,
  /// or 60 × 120 blue.
  static let cards = """
    if self.shown then
      return m.rect():fill("#0000FF"):frame(60, 120):id("two"):transition(m.transition.opacity)
    end
    return m.rect():fill("#FF0000"):frame { maxWidth = math.huge, height = 50 }:id("one")
      :transition(m.transition.opacity)
    """

  @Test func aRootSwapFadesTheOldCardOutAtItsFrameAndTheNewOneIn() throws {
    let h = try makeHost(Self.cards)
    let seen = try toggle(h, at: [0, 0.5, 1.01])
    for (k, s) in [0, 0.5].enumerated() {
      // Not offered the new card's 60 points: it keeps the canvas's 200.
      expectClose(seen[k]["one"]?.corner, Point(0, 75), "the old card where it was")
      expectClose(seen[k]["one"]?.width, 200, "the old card at its width")
      expectClose(seen[k]["one"]?.opacity, 1 - s, "the old card fading at \(s)")
      expectClose(seen[k]["two"]?.corner, Point(70, 40), "the new card centred")
      expectClose(seen[k]["two"]?.opacity, s, "the new card fading in at \(s)")
    }
    #expect(seen[2]["one"] == nil, "the old card gone")
    expectClose(seen[2]["two"]?.opacity, 1, "the new card in")
    // Back again: the first card returns, the second leaves from where it was.
    let back = try toggle(h, at: [0.5])
    expectClose(back[0]["two"]?.corner, Point(70, 40), "the second card where it was")
    expectClose(back[0]["one"]?.opacity, 0.5, "the first card fading in")
  }

  @Test func aRootWithoutAnAnimationSwapsAtOnce() throws {
    let h = try makeHost(Self.cards, change: "self.shown = not self.shown")
    let seen = try toggle(h, at: [0])
    #expect(seen[0]["one"] == nil)
    expectClose(seen[0]["two"]?.opacity, 1, "in at once")
  }

  /// A 20 × 20 dot in the top-trailing corner of a square, while shown; the square is
  /// 200 wide while the dot shows, else 100 (at once, so the dot's corner moves away).
  static let dotOverlay = """
    local base = m.rect():fill("#EEEEEE"):frame(self.shown and 200 or 100, 200)
    if self.shown then
      base = base:overlay(
        m.circle():fill("#FF0000"):frame(20, 20):id("dot"):transition(m.transition.opacity),
        "topTrailing")
    end
    return base:id("base")
    """

  @Test func anOverlayInsertsAndRemovesWithItsTransition() throws {
    let h = try makeHost(Self.dotOverlay)
    let inserted = try toggle(h, at: [0, 0.5, 1.01])
    for (k, s) in [0, 0.5, 1.0].enumerated() {
      expectClose(inserted[k]["dot"]?.corner, Point(180, 0), "the dot in its corner")
      expectClose(inserted[k]["dot"]?.opacity, s, "the dot fading in at \(s)")
    }
    let removed = try toggle(h, at: [0.5, 1.01])
    expectClose(removed[0]["dot"]?.corner, Point(180, 0), "the dot where it was")
    expectClose(removed[0]["dot"]?.opacity, 0.5, "the dot half gone")
    #expect(removed[1]["dot"] == nil, "gone once its removal ends")
  }

  @Test func aBackgroundsViewReplacedByAnotherCrossFades() throws {
    let h = try makeHost(
      """
      local under = self.shown and m.rect():fill("#0000FF"):id("blue")
        or m.rect():fill("#FF0000"):id("red")
      return m.rect():fill("#FFFFFF"):frame(100, 100)
        :background(under:transition(m.transition.opacity))
      """)
    let seen = try toggle(h, at: [0.5])
    expectClose(seen[0]["red"]?.opacity, 0.5, "the old background fading out")
    expectClose(seen[0]["blue"]?.opacity, 0.5, "the new one fading in")
    expectClose(seen[0]["red"]?.corner, Point(50, 50), "both in the base's frame")
    expectClose(seen[0]["blue"]?.corner, Point(50, 50), "both in the base's frame")
    let order = try h.frame().list.items.compactMap(\.id)
    #expect(order == ["red", "blue"], "the leaving view under the one in its place")
  }

  @Test func aTransitionWithoutAnIDSharesNoSlotWithTheNextChild() throws {
    // The yellow row's transition, without an id, does nothing; the blue row after it still
    // glides (the item with no id drawn last is the blue row).
    let h = try makeHost(
      """
      local rows = { spacing = 0 }
      if self.shown then
        rows[#rows + 1] = m.rect():fill("#FF0000"):frame(100, 40):id("badge")
          :transition(m.transition.opacity)
      end
      rows[#rows + 1] = m.rect():fill("#FFFF00"):frame(100, 20):transition(m.transition.opacity)
      rows[#rows + 1] = m.rect():fill("#0000FF"):frame(100, 40)
      return m.vstack(rows):frame { width = 200, height = 200, alignment = "top" }
      """)
    let seen = try toggle(h, at: [0.5])
    expectClose(seen[0][""]?.corner, Point(50, 40), "the blue row half way from 20 to 60")
  }

  @Test func overlaysWithoutIDsEachHaveTheirOwnSlot() throws {
    // Two overlays with no id on one node: the second one's rows glide, not taking the
    // first one's frames (the item with no id drawn last is the blue row).
    let h = try makeHost(
      """
      local rows = { spacing = 0 }
      if self.shown then
        rows[#rows + 1] = m.rect():fill("#FF0000"):frame(50, 100):id("badge")
          :transition(m.transition.opacity)
      end
      rows[#rows + 1] = m.rect():fill("#0000FF"):frame(50, 50)
      return m.rect():fill("#EEEEEE"):frame(200, 200)
        :overlay(m.vstack { m.rect():fill("#000000"):frame(10, 10) }, "topLeading")
        :overlay(m.vstack(rows), "trailing")
      """)
    let seen = try toggle(h, at: [0.5])
    // From 75 (alone, centred) to 125 (under the badge, the pair centred).
    expectClose(seen[0][""]?.corner, Point(150, 100), "the blue row half way")
  }

  @Test func aNodeInsertedWithItsTransitioningParentComesWithIt() throws {
    let h = try makeHost(
      """
      local rows = { spacing = 0, m.rect():frame(50, 50):id("a") }
      if self.shown then
        rows[2] = m.vstack { m.rect():frame(40, 40):id("kid"):transition(m.transition.opacity) }
          :id("box"):transition(m.transition.opacity)
      end
      return m.vstack(rows)
      """)
    let inserted = try toggle(h, at: [0.5])
    #expect(h.component.transitions.movingIDs == ["box"], "only the outermost transitions")
    expectClose(inserted[0]["kid"]?.opacity, 0.5, "the kid fading in with its box, once")
    try h.advance(to: h.time + 0.51)
    let removed = try toggle(h, at: [0.5])
    expectClose(removed[0]["kid"]?.opacity, 0.5, "the kid fading out with its box, once")
  }

  @Test func aLeavingNodeKeepsNoMatchedKeyFromItsReplacement() throws {
    // A pill in the selected one of three 60-wide tabs, by key "pill": the new pill glides
    // from the old one's frame whichever comes first in the tree.
    let h = try makeHost(
      """
      local tabs = { spacing = 0 }
      local selected = self.shown and "c" or "a"
      for _, k in ipairs { "a", "b", "c" } do
        local z = { m.rect():fill("#EEEEEE"):frame(60, 50) }
        if k == selected then
          z[2] = m.capsule():fill("#0000FF"):matchedGeometry("pill"):frame(30, 20)
            :id("pill" .. k):transition(m.transition.opacity)
        end
        tabs[#tabs + 1] = m.zstack(z)
      end
      return m.hstack(tabs)
      """)
    let there = try toggle(h, at: [0.5, 1.01])
    // The row is 180 × 50 at (10, 75): the pill at x 25 in tab a, at 145 in tab c.
    expectClose(there[0]["pillc"]?.corner, Point(85, 90), "the new pill half way")
    expectClose(there[0]["pilla"]?.corner, Point(25, 90), "the old pill where it was")
    let back = try toggle(h, at: [0.5])
    expectClose(back[0]["pilla"]?.corner, Point(85, 90), "back: the new pill half way")
    expectClose(back[0]["pillc"]?.corner, Point(145, 90), "back: the old pill where it was")
  }

  @Test func aChildLeavingDuringARootSwapStaysWhereItWas() throws {
    // Page 1 is one square; pages 2 and 3 a column, with the kid on page 2 only. Page 3
    // comes 0.3 s into the swap from page 1, while that root still leaves.
    let text = """
      local m = morph
      return m.component {
        name = "Pages",
        size = { 200, 200 },
        state = { page = "one" },
        tap = function(self)
          self:animate(m.linear(1), { page = self.page == "one" and "two" or "three" })
        end,
        body = function(self)
          if self.page == "one" then
            return m.rect():frame(150, 150):id("one"):transition(m.transition.opacity)
          end
          local rows = { spacing = 0 }
          if self.page == "two" then
            rows[1] = m.rect():frame(100, 100):id("kid"):transition(m.transition.opacity)
          end
          rows[#rows + 1] = m.rect():frame(100, 50):id("blue")
          return m.vstack(rows):id("two"):transition(m.transition.opacity)
        end,
      }
      """
    let h = ComponentHost(component: try ComponentInstance(path: "pages.lua", source: text))
    _ = try h.frame()
    _ = try toggle(h, at: [0.3])
    let seen = try toggle(h, at: [0, 0.5])
    #expect(h.component.transitions.leavingIDs == ["kid", "one"])
    for k in 0..<2 {
      expectClose(seen[k]["kid"]?.corner, Point(50, 25), "the kid where it was")
    }
    expectClose(seen[1]["blue"]?.corner, Point(50, 100), "blue half way from 125 to 75")
  }
}
