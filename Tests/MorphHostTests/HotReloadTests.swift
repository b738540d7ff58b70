import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// A small component whose source the tests rewrite.
private func source(color: String = "#FF0000", extra: String = "", body: String? = nil) -> String {
  """
  local m = morph
  return m.component {
    name = "Reloadable",
    state = { p = 0, label = "start"\(extra) },
    progress = "p",
    body = function(self)
      \(body ?? "return m.rect():fill('\(color)'):frame(100 + 100 * self.p, 50):id('box')")
    end,
    tap = function(self)
      self:animate(m.spring{ response = 0.5, dampingFraction = 0.8 }, { p = 1 - self.target.p })
      self.label = "tapped"
    end,
  }
  """
}

private func makeHost(_ text: String = source()) throws -> ComponentHost {
  ComponentHost(component: try ComponentInstance(path: "reloadable.lua", source: text))
}

@Suite struct HotReloadTests {
  @Test func goodEditKeepsPresentedValueVelocityAndAnimation() throws {
    let h = try makeHost()
    try h.tap()
    try h.advance(to: 0.1)
    let value = try #require(h.component.presented("p"))
    let velocity = h.component.engine.velocity("p", at: h.time)
    try h.reload(source: source(color: "#00FF00"))
    #expect(h.component.presented("p") == value)
    #expect(h.component.engine.velocity("p", at: h.time) == velocity)
    #expect(h.component.target("p") == 1)
    #expect(try item(try h.frame(), "box").fill == .color(try Color.parse("#00FF00")))
    #expect(try h.settle() != nil)
    #expect(h.component.presented("p") == 1)
  }

  @Test func newKeysStartAtTheirInitialValueAndHookRuns() throws {
    let h = try makeHost()
    try h.tap()
    try h.settle()
    let withHook = source(extra: ", count = 7").replacingOccurrences(
      of: "  tap = function(self)",
      with:
        "  reload = function(self, old) self.count = self.count + (old.p == 1 and 1 or 0) end,\n  tap = function(self)"
    )
    try h.reload(source: withHook)
    #expect(h.component.presented("p") == 1)
    #expect(h.component.presented("count") == 8)
  }

  @Test func brokenEditKeepsTheLastGoodVersionAndState() throws {
    let h = try makeHost()
    try h.tap()
    try h.advance(to: 0.2)
    let value = h.component.presented("p")
    let syntax = #expect(throws: ScriptError.self) {
      try h.reload(source: "return morph.component { body = function( end }")
    }
    #expect(syntax?.kind == .syntax)
    #expect(syntax?.chunk == "reloadable.lua")
    #expect(syntax?.line == 1)
    // A runtime error in the new body is caught before it replaces anything.
    #expect(throws: ScriptError.self) {
      try h.reload(source: source(body: "return self.nothing.here"))
    }
    #expect(h.component.presented("p") == value)
    #expect(h.component.name == "Reloadable")
    #expect(try item(try h.frame(), "box").fill == .color(try Color.parse("#FF0000")))
    // The fix is picked up on the next good save.
    try h.reload(source: source(color: "#0000FF"))
    #expect(try item(try h.frame(), "box").fill == .color(try Color.parse("#0000FF")))
  }

  @Test func twoHundredRapidSavesLoseNothing() throws {
    let h = try makeHost()
    try h.tap()
    for i in 0..<200 {
      try h.advance(by: 0.005)
      let before = h.component.presented("p")
      if i % 10 == 3 {
        #expect(throws: ScriptError.self) { try h.reload(source: "return 1 +") }
      } else {
        try h.reload(source: source(color: i % 2 == 0 ? "#FF0000" : "#00FF00"))
      }
      #expect(h.component.presented("p") == before)
    }
    #expect(h.component.target("p") == 1)
    #expect(try h.settle() != nil)
  }

  @Test func saveAndRestoreHandOnWhatTheOldCodeKnew() throws {
    let h = try makeHost(
      source(extra: ", memo = false").replacingOccurrences(
        of: "  tap = function(self)",
        with: "  save = function(self) return 'kept ' .. self.label end,\n  tap = function(self)"))
    try h.tap()
    try h.reload(
      source: source(extra: ", memo = false").replacingOccurrences(
        of: "  tap = function(self)",
        with: "  restore = function(self, saved) self.memo = saved end,\n  tap = function(self)"))
    let memo = h.component.stateValue("memo")
    guard case .string("kept tapped") = memo else {
      Issue.record("restore did not receive what save returned: \(String(describing: memo))")
      return
    }
  }
}
