import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// What SwiftUI ports needed and the host lacked (issue 36): custom transitions with
/// their phase, `AnyTransition.animation`, a timer on the component's clock,
/// `transformEffect`/`projectionEffect`, `strokeBorder`, Display P3 and `redacted`.
@Suite struct VocabularyTests {
  private func host(_ source: String) throws -> ComponentHost {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vocab-\(UUID()).lua")
    try source.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    return try DocumentHost(path: url.path).componentHost(for: "a test")
  }

  private func item(_ h: ComponentHost, _ id: String) throws -> DisplayItem? {
    try h.frame().list.items.first { $0.id == id }
  }

  private func log(_ h: ComponentHost) -> String {
    guard case .string(let s) = h.component.stateValue("log") else { return "?" }
    return s
  }

  /// The turn of an item's transform, in degrees clockwise.
  private func degrees(_ item: DisplayItem) -> Double {
    atan2(item.transform.m12, item.transform.m11) * 180 / .pi
  }

  static let spin = """
    local m = morph
    local spin = m.transition.custom(function(node, phase)
      return node:opacity(1 - math.abs(phase.value)):rotate(90 * phase.value)
    end)
    return m.component {
      size = { 200, 200 },
      props = { own = false },
      state = { shown = false, log = "" },
      tap = function(self)
        if self.own then self.shown = not self.shown
        else self:animate(m.linear(1), { shown = not self.shown }) end
      end,
      body = function(self)
        local t = self.own and spin:animation(m.linear(2)) or spin
        local card = self.shown and m.rect():fill("blue"):frame(100, 100):id("card"):transition(t)
          :onDisappear(function(s) s.log = s.log .. "gone;" end)
        return m.zstack { card or m.empty(), m.spacer() }
      end,
    }
    """

  @Test func aCustomTransitionRunsItsPhaseFromMinusOneToZeroInAndZeroToOneOut() throws {
    let h = try host(Self.spin)
    _ = try h.frame()
    try h.tap()
    try h.advance(to: 0.5)
    let inserting = try #require(try item(h, "card"))
    #expect(abs(inserting.opacity - 0.5) < 1e-9)
    #expect(abs(degrees(inserting) + 45) < 1e-9)  // willAppear is −1, as SwiftUI's
    try h.advance(to: 1.5)
    let shown = try #require(try item(h, "card"))
    #expect(shown.opacity == 1 && abs(degrees(shown)) < 1e-9)
    try h.tap()
    try h.advance(to: 1.75)
    let leaving = try #require(try item(h, "card"))
    #expect(abs(leaving.opacity - 0.75) < 1e-6)
    #expect(abs(degrees(leaving) - 22.5) < 1e-5)
    #expect(log(h) == "")
    try h.advance(to: 2.5)
    #expect(try item(h, "card") == nil)
    #expect(log(h) == "gone;")
  }

  @Test func aTransitionsOwnAnimationRunsUnderAPlainChange() throws {
    let h = try host(Self.spin.replacingOccurrences(of: "own = false", with: "own = true"))
    _ = try h.frame()
    try h.tap()
    try h.advance(to: 1)
    let card = try #require(try item(h, "card"))
    #expect(abs(card.opacity - 0.5) < 1e-9)
  }

  @Test func aCustomTransitionComposesWithABuiltInOne() throws {
    let source = Self.spin.replacingOccurrences(
      of: "local t = self.own and spin:animation(m.linear(2)) or spin",
      with: "local t = spin:combined(m.transition.offset(0, 40))")
    let h = try host(source)
    _ = try h.frame()
    try h.tap()
    try h.advance(to: 0.5)
    let card = try #require(try item(h, "card"))
    #expect(abs(card.opacity - 0.5) < 1e-9)
    let shown = try #require(try item(h, "card"))
    try h.advance(to: 1)
    let rest = try #require(try item(h, "card"))
    // Half of the 40-point offset is left at 0.5 s: the centre is 20 points lower.
    let centre = { (i: DisplayItem) in i.transform.apply(Point(50, 50)) }
    #expect(abs(centre(shown).y - centre(rest).y - 20) < 1e-9)
  }

  @Test func aCustomTransitionMustReturnTheNodeItWasGiven() throws {
    let source = Self.spin.replacingOccurrences(
      of: "return node:opacity(1 - math.abs(phase.value)):rotate(90 * phase.value)",
      with: "return m.zstack { node }")
    let h = try host(source)
    _ = try h.frame()
    try h.tap()
    try h.advance(to: 0.5)
    #expect {
      _ = try h.frame()
    } throws: { error in
      "\(error)".contains("must return the node it was given")
    }
  }

  static let timer = """
    local m = morph
    return m.component {
      size = { 100, 100 },
      state = { x = 0, log = "" },
      appear = function(self)
        self:after(0.5, function(s)
          s.log = s.log .. string.format("fired at %.17g;", s.time)
          s:animate(m.linear(1), { x = 100 })
        end)
        self:after(10, function(s) s.log = s.log .. "late;" end)
      end,
      body = function(self) return m.rect():frame(10, 10):offset(self.x, 0):id("box") end,
    }
    """

  @Test func aTimerFiresAtItsMomentWhateverTheSamples() throws {
    for step in [0.3, 0.7, 2.0] {
      let h = try host(Self.timer)
      _ = try h.frame()
      var t = 0.0
      while t < 1.5 {
        t = min(1.5, t + step)
        try h.advance(to: t)
      }
      #expect(log(h) == "fired at 0.5;")
      // The animation it started is timed from 0.5 s, not from the sample after it.
      #expect(abs((h.component.presented("x") ?? 0) - 100) < 1e-9)
      try h.advance(to: 1.0e3)
      #expect(log(h) == "fired at 0.5;late;")
    }
  }

  @Test func aTimerKeepsTheHostWaitingAndEndsWithTheComponent() throws {
    let h = try host(Self.timer)
    _ = try h.frame()
    #expect(h.component.isSettling)
    try h.component.unload()
    #expect(!h.component.isSettling)
    try h.advance(to: 20)
    #expect(log(h) == "")
  }

  @Test func aTimerSurvivesAHotReload() throws {
    let h = try host(Self.timer)
    _ = try h.frame()
    try h.advance(to: 0.25)
    try h.reload(
      source: Self.timer.replacingOccurrences(
        of: "size = { 100, 100 }", with: "size = { 120, 100 }"))
    try h.advance(to: 0.75)
    #expect(log(h) == "fired at 0.5;")
  }

  @Test func strokeBorderStrokesTheOutlineInsetByHalfItsWidth() throws {
    let h = try host(
      """
      return morph.component { size = { 100, 100 },
        body = function() return morph.rect():strokeBorder("red", 8):frame(100, 100):id("r") end }
      """)
    let r = try #require(try item(h, "r"))
    #expect(r.path.bounds == Rect(x: 4, y: 4, width: 92, height: 92))
    #expect(r.frame == Rect(x: 0, y: 0, width: 100, height: 100))
    #expect(r.stroke?.width == 8)
  }

  @Test func transformEffectSkewsAboutTheViewsOrigin() throws {
    let h = try host(
      """
      return morph.component { size = { 100, 100 },
        body = function()
          return morph.rect():frame(100, 100):transformEffect{1, 0, 0.5, 1, 0, 0}:id("r")
        end }
      """)
    let r = try #require(try item(h, "r"))
    let origin = r.transform.apply(Point(0, 0))
    // The top edge stays; the bottom edge moves right by half the height.
    #expect(r.transform.apply(Point(100, 0)) - origin == Point(100, 0))
    #expect(r.transform.apply(Point(0, 100)) - origin == Point(50, 100))
  }

  @Test func projectionEffectIsTheGivenHomography() throws {
    let h = try host(
      """
      return morph.component { size = { 100, 100 },
        body = function()
          return morph.rect():frame(100, 100):projectionEffect{1, 0, 0.001, 0, 1, 0, 0, 0, 1}:id("r")
        end }
      """)
    let r = try #require(try item(h, "r"))
    let origin = r.transform.apply(Point(0, 0))
    let corner = r.transform.apply(Point(100, 100)) - origin
    #expect(abs(corner.x - 100 / 1.1) < 1e-9 && abs(corner.y - 100 / 1.1) < 1e-9)
  }

  @Test func displayP3GreyIsTheSameGreyAndItsRedClampsToSRGBRed() throws {
    let grey = Color(displayP3Red: 0.5, green: 0.5, blue: 0.5)
    #expect(abs(grey.red - 0.5) < 1e-6 && abs(grey.green - 0.5) < 1e-6)
    let red = Color(displayP3Red: 1, green: 0, blue: 0)
    #expect(abs(red.red - 1) < 1e-12 && red.green == 0 && red.blue == 0)
    // A P3 colour inside sRGB keeps its look: P3 (0.9175, 0.2003, 0.1386) is sRGB red-ish
    // #FF0000 within a step.
    let inside = Color(displayP3Red: 0.9175, green: 0.2003, blue: 0.1386)
    #expect(abs(inside.red - 1) < 0.01 && inside.green < 0.01 && inside.blue < 0.01)
  }

  @Test func redactedTextDrawsOneBarPerLineAndImagesABox() throws {
    let h = try host(
      """
      return morph.component { size = { 200, 100 },
        body = function()
          return morph.vstack { morph.text("One\\nTwo", { size = 20 }):id("t") }:redacted()
        end }
      """)
    let t = try #require(try item(h, "t"))
    #expect(t.kind == .path && t.text == nil)
    // Two lines: two rounded bars.
    #expect(t.path.elements.filter { if case .move = $0 { true } else { false } }.count == 2)
  }
}
