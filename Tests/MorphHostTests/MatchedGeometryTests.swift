import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// `:matchedGeometry(id, namespace)` against SwiftUI's `matchedGeometryEffect` (`.frame`,
/// source): a 40 × 20 pill in one of three 100-point-wide slots moves to slot `k` when the
/// component's `tap` sets `sel = k`; its canvas frame glides from the old slot's frame to
/// the new one on the transaction's curve (here linear 1 s, so `s` seconds into a move
/// it is `s` of the way), and jumps without an animation.
@Suite struct MatchedGeometryTests {
  static func source(change: String, pillWidth: String = "40") -> String {
    """
    local m = morph
    return m.component {
      name = "Tabs",
      size = { 300, 40 },
      state = { sel = 0, other = 0, next = 1 },
      tap = function(self) \(change) end,
      body = function(self)
        local slots = {}
        for i = 0, 2 do
          local content = { m.rect():fill("#EEEEEE"):frame(100, 40) }
          if self.target.sel == i then
            content[2] = m.rect():fill("#FF0000"):matchedGeometry("pill", "tabs")
              :frame(\(pillWidth), 20):id("pill")
          end
          if self.target.other == i then
            content[3] = m.rect():fill("#0000FF"):frame(10, 10):id("dot")
              :matchedGeometry("pill", "other")
          end
          slots[#slots + 1] = m.zstack(content)
        end
        slots.spacing = 0
        return m.hstack(slots)
      end,
    }
    """
  }

  func makeHost(change: String = "self:animate(m.linear(1), { sel = self.next })") throws
    -> ComponentHost
  {
    let h = ComponentHost(
      component: try ComponentInstance(path: "tabs.lua", source: Self.source(change: change)))
    _ = try h.frame()
    return h
  }

  /// The canvas frame an item is drawn at, relative to the component's origin.
  func frame(_ h: ComponentHost, _ id: String = "pill") throws -> Rect {
    let list = try h.frame().list
    let item = try #require(list.items.first { $0.id == id })
    let q = item.quad
    return Rect(
      x: q[0].x - h.margin, y: q[0].y - h.margin, width: q[1].x - q[0].x, height: q[2].y - q[1].y)
  }

  /// The pill's laid-out frame in slot `k`.
  static func slot(_ k: Int, width: Double = 40) -> Rect {
    Rect(x: Double(k) * 100 + (100 - width) / 2, y: 10, width: width, height: 20)
  }

  func tap(_ h: ComponentHost, next: Int) throws {
    try h.component.setNumber("next", Double(next))
    try h.tap(at: Point(h.margin + 5, h.margin + 5))
  }

  func expectClose(_ a: Rect, _ b: Rect, _ what: Comment, at: SourceLocation = #_sourceLocation) {
    let d =
      [
        a.origin.x - b.origin.x, a.origin.y - b.origin.y, a.size.width - b.size.width,
        a.size.height - b.size.height,
      ].map(abs).max() ?? 0
    #expect(d < 1e-6, "\(what): \(a) ≠ \(b)", sourceLocation: at)
  }

  static func lerp(_ a: Rect, _ b: Rect, _ f: Double) -> Rect {
    Rect(
      x: a.origin.x + (b.origin.x - a.origin.x) * f, y: a.origin.y + (b.origin.y - a.origin.y) * f,
      width: a.size.width + (b.size.width - a.size.width) * f,
      height: a.size.height + (b.size.height - a.size.height) * f)
  }

  @Test func theFrameGlidesFromTheOldPlaceToTheNewOnTheCurve() throws {
    let h = try makeHost()
    expectClose(try frame(h), Self.slot(0), "at rest")
    let start = h.time
    try tap(h, next: 2)
    expectClose(try frame(h), Self.slot(0), "start")
    try h.advance(to: start + 0.5)
    expectClose(try frame(h), Self.lerp(Self.slot(0), Self.slot(2), 0.5), "middle")
    try h.advance(to: start + 0.25 + 0.5)
    expectClose(try frame(h), Self.lerp(Self.slot(0), Self.slot(2), 0.75), "three quarters")
    try h.advance(to: start + 1.01)
    expectClose(try frame(h), Self.slot(2), "end")
    #expect(!h.component.isSettling)
  }

  @Test func aSecondChangeWhileMovingStartsFromThePresentedFrame() throws {
    let h = try makeHost()
    let start = h.time
    try tap(h, next: 2)
    try h.advance(to: start + 0.5)
    let presented = try frame(h)
    try tap(h, next: 0)
    expectClose(try frame(h), presented, "retarget start")
    try h.advance(to: start + 1)
    // A timing curve restarts from the presented frame (the engine's rule for numbers).
    expectClose(try frame(h), Self.lerp(presented, Self.slot(0), 0.5), "retarget middle")
    try h.advance(to: start + 1.51)
    expectClose(try frame(h), Self.slot(0), "end")
  }

  /// A change made with no frame drawn (a `done` starting the way back) glides from where
  /// the first glide had got to at that moment, as when every frame is drawn: each change
  /// is laid out when it happens.
  @Test func aChangeWithNoFrameDrawnGlidesAsWhenEveryFrameIsDrawn() throws {
    let change = """
      self:animate(m.linear(1), { sel = 2 }, function(s)
        s:animate(m.linear(1), { sel = 0 })
      end)
      """
    let unseen = try makeHost(change: change)
    let watched = try makeHost(change: change)
    for h in [unseen, watched] { try h.tap(at: Point(h.margin + 5, h.margin + 5)) }
    let start = unseen.time
    while watched.time < start + 1.5 - 1e-9 {
      try watched.advance(to: min(start + 1.5, watched.time + 1.0 / 60))
      _ = try frame(watched)
    }
    try unseen.advance(to: start + 1.5)
    // Half way back from slot 2, whether or not slot 2 was ever drawn.
    expectClose(try frame(unseen), Self.lerp(Self.slot(2), Self.slot(0), 0.5), "unseen")
    expectClose(try frame(watched), Self.lerp(Self.slot(2), Self.slot(0), 0.5), "watched")
  }

  /// On a spring the pill's y and height, which do not move, are at rest at once while its
  /// x glides on: drawing frames (which lets the resting coordinates go) changes nothing.
  @Test func aCoordinateAtRestLeavesTheOthersGliding() throws {
    let change = "self:animate(m.spring { response = 0.4, dampingRatio = 0.75 }, { sel = 2 })"
    let unseen = try makeHost(change: change)
    let watched = try makeHost(change: change)
    for h in [unseen, watched] { try h.tap(at: Point(h.margin + 5, h.margin + 5)) }
    let start = unseen.time
    for i in 1...12 {
      try watched.advance(to: start + Double(i) / 120)
      _ = try frame(watched)
    }
    try unseen.advance(to: start + 0.1)
    let shown = try frame(unseen)
    expectClose(try frame(watched), shown, "the same glide")
    #expect(
      shown.origin.x > Self.slot(0).origin.x + 1 && shown.origin.x < Self.slot(2).origin.x - 1)
  }

  @Test func withoutAnAnimationTheFrameJumps() throws {
    let h = try makeHost(change: "self.sel = self.next")
    try tap(h, next: 2)
    expectClose(try frame(h), Self.slot(2), "at once")
    #expect(!h.component.isAnimating)
  }

  @Test func twoNamespacesDoNotInterfere() throws {
    let h = try makeHost(change: "self:animate(m.linear(1), { other = 2 })")
    let start = h.time
    try h.tap(at: Point(h.margin + 5, h.margin + 5))
    try h.advance(to: start + 0.5)
    // The dot moves from slot 0 to slot 2; the pill, "pill" in another namespace, stays.
    expectClose(try frame(h), Self.slot(0), "pill stays")
    let dot0 = Rect(x: 45, y: 15, width: 10, height: 10)
    let dot2 = Rect(x: 245, y: 15, width: 10, height: 10)
    expectClose(try frame(h, "dot"), Self.lerp(dot0, dot2, 0.5), "dot middle")
  }

  @Test func aResizeInPlaceGlidesToo() throws {
    let source = Self.source(
      change: "self:animate(m.linear(1), { next = 2 })",
      pillWidth: "self.target.next == 2 and 80 or 40")
    let h = ComponentHost(component: try ComponentInstance(path: "tabs.lua", source: source))
    _ = try h.frame()
    let start = h.time
    try h.tap(at: Point(h.margin + 5, h.margin + 5))
    try h.advance(to: start + 0.5)
    expectClose(try frame(h), Self.lerp(Self.slot(0), Self.slot(0, width: 80), 0.5), "middle")
  }

  @Test func aWrongArgumentIsOneClearError() throws {
    for (call, expected) in [
      ("m.rect():matchedGeometry()", "bad argument #1 to 'matchedGeometry'"),
      ("m.rect():matchedGeometry('a', 3)", "bad argument #2 to 'matchedGeometry'"),
    ] {
      let text = """
        local m = morph
        return m.component { name = "Bad", size = { 10, 10 }, body = function(self) return \(call) end }
        """
      let h = ComponentHost(component: try ComponentInstance(path: "bad.lua", source: text))
      let error = #expect(throws: ScriptError.self) { _ = try h.frame() }
      let message = error?.description ?? ""
      #expect(message.contains(expected) && message.contains("bad.lua:2"), "\(message)")
    }
  }
}
