import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// `:transition(t)` against SwiftUI's semantics: under an animation an id's insertion
/// runs from the transition's state to identity, its removal from identity to the
/// transition's state (the node drawing at its old place until it ends); without one
/// the change is immediate. Each tap toggles a 100 × 40 badge over a linear 1 s curve,
/// so at a time `s` into a change the badge is `s` of the way.
@Suite struct TransitionTests {
  static func source(
    _ transition: String, change: String = "self:animate(m.linear(1), { shown = not self.shown })"
  )
    -> String
  {
    """
    local m = morph
    return m.component {
      name = "Badge",
      size = { 200, 200 },
      state = { shown = false, timer = 0 },
      tap = function(self) \(change) end,
      body = function(self)
        local children = { m.rect():fill("#EEEEEE"):frame(200, 200) }
        if self.shown then
          children[2] = m.rect():fill("#FF0000"):frame(100, 40):id("badge")
            :onTap(function(s) s.shown = false end):transition(\(transition))
        end
        return m.zstack(children)
      end,
    }
    """
  }

  func makeHost(_ transition: String, change: String? = nil) throws -> ComponentHost {
    let text = change.map { Self.source(transition, change: $0) } ?? Self.source(transition)
    let h = ComponentHost(component: try ComponentInstance(path: "badge.lua", source: text))
    _ = try h.frame()
    return h
  }

  /// The badge's top-left corner relative to where its body puts it, its size along the
  /// top edge, and its opacity; nil when it is not drawn.
  func badge(_ h: ComponentHost) throws -> (corner: Point, width: Double, opacity: Double)? {
    let frame = try h.frame()
    guard let item = frame.list.items.first(where: { $0.id == "badge" }) else { return nil }
    let origin = Point(h.margin + 50, h.margin + 80)
    let q = item.quad
    return (q[0] - origin, q[1].x - q[0].x, item.opacity)
  }

  /// Taps the background (the component's `tap`) and returns the badge `at` seconds
  /// later, for each time given.
  func toggle(_ h: ComponentHost, at times: [Double]) throws -> [(
    corner: Point, width: Double, opacity: Double
  )?] {
    let start = h.time
    try h.tap(at: Point(h.margin + 10, h.margin + 10))
    var seen: [(corner: Point, width: Double, opacity: Double)?] = []
    for t in times {
      try h.advance(to: start + t)
      seen.append(try badge(h))
    }
    return seen
  }

  func expectClose(_ a: Double, _ b: Double, _ what: Comment, at: SourceLocation = #_sourceLocation)
  {
    #expect(abs(a - b) < 1e-6, "\(what): \(a) ≠ \(b)", sourceLocation: at)
  }

  @Test func opacityFadesInAndOutAndTheRemovedNodeDrawsUntilItsRemovalEnds() throws {
    let h = try makeHost("m.transition.opacity")
    let inserted = try toggle(h, at: [0, 0.5, 1.01])
    expectClose(try #require(inserted[0]).opacity, 0, "insertion start")
    expectClose(try #require(inserted[1]).opacity, 0.5, "insertion middle")
    expectClose(try #require(inserted[2]).opacity, 1, "insertion end")
    #expect(h.component.transitions.movingIDs.isEmpty)
    let removed = try toggle(h, at: [0, 0.5, 1.01])
    expectClose(try #require(removed[0]).opacity, 1, "removal start")
    expectClose(try #require(removed[1]).opacity, 0.5, "removal middle")
    #expect(removed[2] == nil, "gone once its removal ends")
    #expect(h.component.transitions.leavingIDs.isEmpty)
  }

  @Test func moveGoesByItsOwnSizeTowardTheEdge() throws {
    let h = try makeHost("m.transition.move(\"top\")")
    let inserted = try toggle(h, at: [0, 0.5, 1.01])
    #expect(close(try #require(inserted[0]).corner, Point(0, -40), 1e-6))
    #expect(close(try #require(inserted[1]).corner, Point(0, -20), 1e-6))
    #expect(close(try #require(inserted[2]).corner, Point(0, 0), 1e-6))
    let removed = try toggle(h, at: [0, 0.25])
    #expect(close(try #require(removed[0]).corner, Point(0, 0), 1e-6))
    #expect(close(try #require(removed[1]).corner, Point(0, -10), 1e-6))
  }

  @Test func scaleShrinksAboutItsAnchor() throws {
    let h = try makeHost("m.transition.scale(0.5, \"topLeading\")")
    let inserted = try toggle(h, at: [0, 0.5, 1.01])
    expectClose(try #require(inserted[0]).width, 50, "insertion start")
    expectClose(try #require(inserted[1]).width, 75, "insertion middle")
    expectClose(try #require(inserted[2]).width, 100, "insertion end")
    #expect(close(try #require(inserted[1]).corner, .zero, 1e-6), "the anchor stays put")
    let centred = try makeHost("m.transition.scale()")
    let grown = try toggle(centred, at: [0, 0.5])
    expectClose(try #require(grown[0]).width, 0, "scale() starts from nothing")
    #expect(close(try #require(grown[1]).corner, Point(25, 10), 1e-6), "about the centre")
  }

  @Test func offsetMovesByAFixedAmount() throws {
    let h = try makeHost("m.transition.offset(30, -10)")
    let inserted = try toggle(h, at: [0, 0.5, 1.01])
    #expect(close(try #require(inserted[0]).corner, Point(30, -10), 1e-6))
    #expect(close(try #require(inserted[1]).corner, Point(15, -5), 1e-6))
    #expect(close(try #require(inserted[2]).corner, .zero, 1e-6))
  }

  @Test func slideComesFromLeadingAndLeavesTowardTrailing() throws {
    let h = try makeHost("m.transition.slide")
    let inserted = try toggle(h, at: [0, 0.5])
    #expect(close(try #require(inserted[0]).corner, Point(-100, 0), 1e-6))
    #expect(close(try #require(inserted[1]).corner, Point(-50, 0), 1e-6))
    try h.advance(by: 1)
    let removed = try toggle(h, at: [0.5])
    #expect(close(try #require(removed[0]).corner, Point(50, 0), 1e-6))
  }

  @Test func pushComesFromItsEdgeAndLeavesTowardTheOppositeFading() throws {
    let h = try makeHost("m.transition.push(\"bottom\")")
    let inserted = try toggle(h, at: [0.5])
    #expect(close(try #require(inserted[0]).corner, Point(0, 20), 1e-6))
    expectClose(try #require(inserted[0]).opacity, 0.5, "fading in")
    try h.advance(by: 1)
    let removed = try toggle(h, at: [0.25])
    #expect(close(try #require(removed[0]).corner, Point(0, -10), 1e-6))
    expectClose(try #require(removed[0]).opacity, 0.75, "fading out")
  }

  @Test func asymmetricUsesOneTransitionInAndTheOtherOut() throws {
    let h = try makeHost(
      "m.transition.asymmetric(m.transition.opacity, m.transition.move(\"trailing\"))")
    let inserted = try toggle(h, at: [0.5])
    expectClose(try #require(inserted[0]).opacity, 0.5, "in by opacity")
    #expect(close(try #require(inserted[0]).corner, .zero, 1e-6), "and not moved")
    try h.advance(by: 1)
    let removed = try toggle(h, at: [0.5])
    expectClose(try #require(removed[0]).opacity, 1, "out not by opacity")
    #expect(close(try #require(removed[0]).corner, Point(50, 0), 1e-6), "but moving")
  }

  @Test func combinedAppliesBoth() throws {
    let h = try makeHost("m.transition.move(\"top\"):combined(m.transition.opacity)")
    let inserted = try toggle(h, at: [0.5])
    #expect(close(try #require(inserted[0]).corner, Point(0, -20), 1e-6))
    expectClose(try #require(inserted[0]).opacity, 0.5, "and fades")
  }

  @Test func reinsertionDuringRemovalTurnsBackFromWhereItIs() throws {
    let h = try makeHost("m.transition.opacity")
    _ = try toggle(h, at: [1.01])
    let removed = try toggle(h, at: [0.5])
    expectClose(try #require(removed[0]).opacity, 0.5, "half gone")
    // A timing curve restarts from the presented value: 0.5 → 1 over the next second.
    let back = try toggle(h, at: [0, 0.5, 1.01])
    expectClose(try #require(back[0]).opacity, 0.5, "no jump")
    expectClose(try #require(back[1]).opacity, 0.75, "on its way back")
    expectClose(try #require(back[2]).opacity, 1, "back")
    #expect(h.component.transitions.leavingIDs.isEmpty)
  }

  @Test func withoutAnAnimationTheChangeIsImmediate() throws {
    let h = try makeHost("m.transition.opacity", change: "self.shown = not self.shown")
    let inserted = try toggle(h, at: [0])
    expectClose(try #require(inserted[0]).opacity, 1, "in at once")
    let removed = try toggle(h, at: [0])
    #expect(removed[0] == nil, "gone at once")
    #expect(!h.component.isAnimating)
  }

  @Test func theCurveThatSetTheFlagCarriesTheChangeNotALaterTimers() throws {
    let h = try makeHost(
      "m.transition.opacity",
      change: "self:animate(m.linear(1), { shown = not self.shown }) "
        + "self:animate(m.linear(4), { timer = 1 })")
    let inserted = try toggle(h, at: [0.5])
    expectClose(try #require(inserted[0]).opacity, 0.5, "the flag's second-long curve")
  }

  @Test func aPlainAssignmentInTheSameHandlerDoesNotStopTheAnimation() throws {
    let h = try makeHost(
      "m.transition.opacity",
      change: "self:animate(m.linear(1), { shown = not self.shown }) self.timer = 1")
    let inserted = try toggle(h, at: [0.5])
    expectClose(try #require(inserted[0]).opacity, 0.5, "still animated")
  }

  @Test func aSpringCarriesTheChangeUnderTheSameCurveAsItsNumbers() throws {
    let h = try makeHost(
      "m.transition.opacity", change: "self:animate(m.spring(), { shown = not self.shown })")
    let inserted = try toggle(h, at: [0.25])
    let spring = Spring(duration: 0.5, bounce: 0)
    let expected = spring.value(target: 1, time: 0.25)
    expectClose(try #require(inserted[0]).opacity, expected, "the spring's value")
  }

  @Test func aLeavingNodeIsNotHit() throws {
    let h = try makeHost("m.transition.opacity")
    _ = try toggle(h, at: [1.01])
    let centre = h.center
    #expect(try h.frame().list.hitTest(centre, wants: { $0.tap != nil }) != nil)
    _ = try toggle(h, at: [0.5])
    #expect(try badge(h) != nil, "still drawn")
    #expect(try h.frame().list.hitTest(centre, wants: { $0.tap != nil }) == nil)
  }

  @Test func theAnimationStartsWhenStateChangedNotWhenAFrameWasDrawn() throws {
    let h = try makeHost("m.transition.opacity")
    try h.tap(at: Point(h.margin + 10, h.margin + 10))
    try h.advance(by: 0.5)
    // The first body since the change runs half a second later: the fade is half done.
    expectClose(try #require(try badge(h)).opacity, 0.5, "half way")
  }

  @Test func aChangeIsMetWhenItHappensEvenWithNoFrameDrawn() throws {
    let h = try makeHost("m.transition.opacity")
    let tap = InputEvent.tap(at: .zero, time: 0)
    try h.component.handle(component: "tap", tap)
    try h.advance(to: 1.5)
    try h.component.handle(component: "tap", tap)
    try h.advance(to: 2)
    // The body ran after each change, so the first frame drawn shows the removal half done.
    expectClose(try #require(try badge(h)).opacity, 0.5, "half gone")
  }

  @Test func settlingWaitsForARemoval() throws {
    let h = try makeHost("m.transition.opacity")
    _ = try toggle(h, at: [1.01])
    _ = try toggle(h, at: [0])
    let settled = try #require(try h.settle(limit: 5))
    #expect(settled > h.time - 1e-9)
    #expect(try badge(h) == nil)
  }

  /// The reported case: a completion swaps the root's id every tick under an hour-long
  /// transition. Each removed root was kept (and carried into every later frame) until
  /// its hour ended, so each tick was slower than the last (`render --time 40` did not
  /// end); the frame budget's ghost limit ends the oldest removals at once.
  @Test func aRootSwappedEveryTickUnderAnHourKeepsAtMostTheBudgetsGhosts() throws {
    let text = """
      local m = morph
      local function step(s)
        local n = tonumber(s.key:sub(2)) + 1
        s:animate(m.linear(1 / 120), { t = n }, step)
        s:animate(m.linear(3600), { key = "r" .. n })
      end
      return m.component {
        name = "Swap",
        size = { 100, 100 },
        state = { t = 0, key = "r0" },
        appear = step,
        body = function(self)
          return m.rect():fill("#007AFF"):id(self.key):transition(m.transition.opacity)
        end,
      }
      """
    let h = ComponentHost(component: try ComponentInstance(path: "swap.lua", source: text))
    _ = try h.frame()
    try h.advance(to: 5)
    let leaving = h.component.transitions.leavingIDs
    let limit = FrameBudget.standard.maxLeavingNodes
    #expect(leaving.count == limit)
    // The newest removals are kept: five seconds of ticks removed hundreds more, and
    // the oldest of them ended.
    let oldestKept = try #require(leaving.compactMap { Int($0.dropFirst()) }.min())
    #expect(oldestKept > limit)
    // The frame draws the new root over the one it replaced, no more.
    #expect(try h.frame().list.items.count == 2)
  }

  @Test func aWrongEdgeListsTheValidOnes() throws {
    let h = try makeHost("m.transition.move(\"up\")")
    let error = #expect(throws: ScriptError.self) { _ = try toggle(h, at: [0]) }
    let message = error?.description ?? ""
    #expect(message.contains("top") && message.contains("trailing"), "\(message)")
  }

  @Test func checkWarnsOfATransitionWithoutAnID() throws {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("transition-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    func warnings(_ node: String) throws -> [String] {
      let file = dir.appendingPathComponent("p.lua")
      try """
      local m = morph
      return m.component {
        name = "Check",
        body = function(self)
          return m.vstack { m.rect():frame(10, 10), m.rect():frame(10, 10):overlay(\(node)) }
        end,
      }
      """.write(to: file, atomically: true, encoding: .utf8)
      return PluginCheck.check(file.path).map(\.text).filter { $0.contains(":transition") }
    }
    let unnamed = try warnings("m.circle():transition(m.transition.opacity)")
    #expect(unnamed.count == 1, "\(unnamed)")
    #expect(unnamed.first?.contains("p.lua: warning: a node has a :transition but no :id") == true)
    #expect(try warnings("m.circle():id(\"dot\"):transition(m.transition.opacity)").isEmpty)
  }
}
