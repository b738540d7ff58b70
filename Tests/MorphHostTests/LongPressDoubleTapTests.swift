import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// Counts each gesture a component receives.
private func counter() throws -> ComponentHost {
  let source = """
    local function bump(key) return function(self, e) self[key] = self[key] + 1; self.last = e.phase or "none" end end
    return morph.component {
      state = { taps = 0, doubles = 0, longs = 0, hovers = 0, last = false },
      body = function(self) return morph.rect() end,
      tap = bump("taps"), doubleTap = bump("doubles"), longPress = bump("longs"), hover = bump("hovers"),
    }
    """
  return ComponentHost(component: try ComponentInstance(path: "gestures.lua", source: source))
}

private func count(_ host: ComponentHost, _ key: String) -> Double {
  host.component.target(key) ?? -1
}

private func play(_ script: String, on host: ComponentHost, until t: Double) throws {
  var player = ScriptPlayer(try InputScript.parse(script, file: "g.txt"))
  try player.play(until: t, on: host)
}

/// Long press, double tap and hover, from SwiftUI's documented defaults:
/// `LongPressGesture(minimumDuration: 0.5, maximumDistance: 10)` succeeds
/// while the finger is still down; `onTapGesture(count: 2)`; and
/// `onContinuousHover`'s `active(location)` / `ended` phases.
@Suite struct LongPressDoubleTapTests {
  @Test func aPressHeldHalfASecondIsALongPressNotATap() throws {
    let host = try counter()
    try host.pointerDown(at: host.center)
    try host.advance(by: 0.45)
    #expect(count(host, "longs") == 0)
    try host.advance(by: 0.06)
    #expect(count(host, "longs") == 1)  // before the finger lifts
    try host.advance(by: 1)
    #expect(count(host, "longs") == 1)  // once
    try host.pointerUp(at: host.center)
    #expect(count(host, "taps") == 0)
  }

  @Test func movingTenPointsCancelsTheLongPress() throws {
    let host = try counter()
    try host.pointerDown(at: host.center)
    try host.advance(by: 0.1)
    try host.pointerMoved(to: host.center + Point(10, 0))
    try host.advance(by: 0.6)
    #expect(count(host, "longs") == 0)
  }

  @Test func aShortPressIsStillATap() throws {
    let host = try counter()
    try play("0 longpress\n", on: host, until: 0.2)
    #expect(count(host, "longs") == 0)
    try play("0 tap\n", on: host, until: 0.5)
    #expect(count(host, "taps") == 1)
  }

  @Test func theLongpressVerbHoldsPastTheMinimumDuration() throws {
    let host = try counter()
    try play("0 longpress 10,10\n", on: host, until: 1)
    #expect(count(host, "longs") == 1)
    #expect(count(host, "taps") == 0)
  }

  @Test func twoTapsWithinTheIntervalAreATapThenADoubleTap() throws {
    let host = try counter()
    try play("0 doubletap\n", on: host, until: 0.5)
    #expect(count(host, "taps") == 1)
    #expect(count(host, "doubles") == 1)
    // Taps further apart than the interval are two taps.
    let apart = try counter()
    try play("0 tap\n0.5 tap\n", on: apart, until: 1)
    #expect(count(apart, "taps") == 2)
    #expect(count(apart, "doubles") == 0)
  }

  @Test func withoutADoubleTapHandlerEveryTapIsATap() throws {
    let source = """
      return morph.component {
        state = { taps = 0 }, body = function() return morph.rect() end,
        tap = function(self) self.taps = self.taps + 1 end,
      }
      """
    let host = ComponentHost(component: try ComponentInstance(path: "t.lua", source: source))
    try play("0 doubletap\n", on: host, until: 0.5)
    #expect(host.component.target("taps") == 2)
  }

  @Test func hoverIsActiveInsideAndEndsOnceOutside() throws {
    let host = try counter()
    try play(
      "0 hover 10,10\n0.1 hover 20,10\n0.2 hover -50,10\n0.3 hover -60,10\n", on: host, until: 1)
    #expect(count(host, "hovers") == 3)
    guard case .string("ended") = host.component.stateValue("last") else {
      Issue.record("the hover did not end")
      return
    }
  }

  /// The pointer leaving the view (a browser's `pointerleave`) ends a
  /// running hover once, and is nothing when none runs.
  @Test func endHoverEndsARunningHoverOnce() throws {
    let host = try counter()
    try host.endHover()
    try play("0 hover 10,10\n", on: host, until: 0.1)
    try host.endHover()
    try host.endHover()
    #expect(count(host, "hovers") == 2)
    guard case .string("ended") = host.component.stateValue("last") else {
      Issue.record("the hover did not end")
      return
    }
  }

  /// `onLongPress` and `onDoubleTap` on a node take the gesture over the
  /// node only (hit-tested like `onTap`); elsewhere the component's own.
  @Test func nodeModifiersTakeTheGestureOverTheirNode() throws {
    let source = """
      local function bump(key) return function(self) self[key] = self[key] + 1 end end
      return morph.component {
        size = { 200, 100 },
        state = { nodeLong = 0, nodeDouble = 0, longs = 0, doubles = 0, taps = 0 },
        body = function(self)
          return morph.hstack { spacing = 0,
            morph.rect():frame(100, 100):onLongPress(bump("nodeLong")):onDoubleTap(bump("nodeDouble")),
            morph.rect():frame(100, 100),
          }
        end,
        tap = bump("taps"), longPress = bump("longs"), doubleTap = bump("doubles"),
      }
      """
    let host = ComponentHost(component: try ComponentInstance(path: "nodes.lua", source: source))
    try play(
      "0 longpress 50,50\n1 longpress 150,50\n2 doubletap 50,50\n3 doubletap 150,50\n", on: host,
      until: 4)
    #expect(count(host, "nodeLong") == 1 && count(host, "longs") == 1)
    #expect(count(host, "nodeDouble") == 1 && count(host, "doubles") == 1)
    #expect(count(host, "taps") == 2)  // the first tap of each pair
  }

  @Test func theNewVerbsAreParsedAndCheckedLikeTheOthers() throws {
    #expect(throws: InputScript.ParseError.self) { try InputScript.parse("0 hover\n", file: "s") }
    do {
      _ = try InputScript.parse("0 swipe\n", file: "s.txt")
    } catch {
      #expect(
        error.description
          == "s.txt:1: unknown event 'swipe'; expected tap, doubletap, longpress, hover, drag, key or progress"
      )
    }
    let script = try InputScript.parse("1 longpress 3,4\n2 doubletap\n", file: "s")
    #expect(script.events.map(\.action) == [.longPress(Point(3, 4)), .doubleTap(nil)])
    #expect(script.duration == 2 + InputScript.doubleTapGap)
  }
}
