import Foundation
import MorphCore
import MorphRender
import MorphScript
import Testing

@testable import MorphHost

/// `appear(self)`, SwiftUI's `onAppear`: once per load, after the state exists and before
/// the first frame, so what it animates runs from the first frame with no input.
@Suite struct AppearTests {
  static let source = """
    local m = morph
    return m.component {
      name = "Appearing",
      size = { 200, 200 },
      state = { turn = 0, appeared = 0 },
      appear = function(self)
        self.appeared = self.appeared + 1
        self:animate(m.linear(1):repeatForever { autoreverses = false }, { turn = 1 })
      end,
      body = function(self)
        return m.circle():trim(0, 0.2):stroke { color = "#FF0000", width = 10 }
          :rotate(-90 + 360 * self.turn):frame(100, 100)
      end,
    }
    """

  func makeHost(_ text: String = source, reduceMotion: Bool = false) throws -> ComponentHost {
    ComponentHost(
      component: try ComponentInstance(
        path: "appearing.lua", source: text,
        options: ComponentOptions(reduceMotion: reduceMotion)))
  }

  @Test func itRunsOnceBeforeTheFirstFrame() throws {
    let h = try makeHost()
    #expect(h.component.presented("appeared") == 1)
    #expect(h.component.engine.animatingKeys.contains("turn"))
    _ = try h.frame()
    try h.advance(to: 0.5)
    _ = try h.frame()
    #expect(h.component.presented("appeared") == 1)
  }

  @Test func whatItAnimatesRunsFromTheFirstFrameWithNoInput() throws {
    let h = try makeHost()
    try h.advance(to: 0.25)
    #expect(abs(try #require(h.component.presented("turn")) - 0.25) < 1e-4)
    try h.advance(to: 1.5)
    #expect(abs(try #require(h.component.presented("turn")) - 0.5) < 1e-4)
    // Endless on purpose: the host keeps drawing, and it never counts as unsettled.
    #expect(h.component.isContinuous)
    #expect(try h.settle(limit: 1) == h.time)
  }

  @Test func aHotReloadKeepsStateAndDoesNotRunItAgain() throws {
    let h = try makeHost()
    try h.advance(to: 0.3)
    try h.reload(source: Self.source.replacingOccurrences(of: "#FF0000", with: "#00FF00"))
    #expect(h.component.presented("appeared") == 1)
    #expect(abs(try #require(h.component.presented("turn")) - 0.3) < 1e-4)
    try h.advance(to: 0.4)
    #expect(abs(try #require(h.component.presented("turn")) - 0.4) < 1e-4)
  }

  @Test func reduceMotionAppliesItsChangesAtOnce() throws {
    let h = try makeHost(reduceMotion: true)
    #expect(h.component.presented("turn") == 1)
    #expect(!h.component.isContinuous)
  }

  @Test func anErrorInItNamesThePluginsLine() {
    let broken = Self.source.replacingOccurrences(
      of: "self.appeared = self.appeared + 1", with: "self.nothing.here = 1")
    let error = #expect(throws: ScriptError.self) { try makeHost(broken) }
    #expect(error?.chunk == "appearing.lua")
    #expect(error?.line == 7)
  }

  /// Rendered: the trimmed arc starts at 12 o'clock and a quarter second later has turned
  /// a quarter, with no input in between.
  @Test func aRenderShowsTheArcTurningByItself() throws {
    let h = try makeHost()
    let renderer = CairoRenderer()
    let first = try h.image(try h.frame(), renderer: renderer)
    try h.advance(to: 0.25)
    let later = try h.image(try h.frame(), renderer: renderer)
    // The pixel on the ring `degrees` clockwise from 12 o'clock: red where the arc is.
    func inked(_ image: RasterImage, _ degrees: Double) -> Bool {
      let a = degrees * .pi / 180
      let (cx, cy) = (Double(image.width) / 2, Double(image.height) / 2)
      let p = image.pixel(x: Int(cx + 50 * sin(a)), y: Int(cy - 50 * cos(a)))
      return p.r > 200 && p.g < 100
    }
    #expect(inked(first, 36) && !inked(first, 126))
    #expect(!inked(later, 36) && inked(later, 126))
  }
}
