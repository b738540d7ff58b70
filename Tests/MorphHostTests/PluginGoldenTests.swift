import MorphCore
import MorphRender
import MorphTestSupport
import Testing

@testable import MorphHost

/// What each bundled plugin's goldens show.
struct GoldenCase: Sendable, CustomTestStringConvertible {
  var plugin: String
  /// Filmed side by side: both ends of the range and three points between.
  var filmstrip: [Double]
  /// The text frame's progress and size in cells.
  var textProgress: Double
  var textRows: Int

  var testDescription: String { plugin }

  static let all = [
    GoldenCase(plugin: "deck_fan", filmstrip: progressPoints, textProgress: 0.5, textRows: 22),
    // 1.25 and 3.75 show a card a quarter of the way off the top, swinging
    // out (sin(π/4)·15 times its offset); 2.5 the widest swing with the z
    // order about to flip (card 3 still on top, card 4 next).
    GoldenCase(
      plugin: "card_stack", filmstrip: [0, 1.25, 2.5, 3.75, 5], textProgress: 2.5, textRows: 30),
    GoldenCase(plugin: "flip", filmstrip: progressPoints, textProgress: 0.125, textRows: 22),
    GoldenCase(plugin: "ticket_tear", filmstrip: progressPoints, textProgress: 0.5, textRows: 22),
  ]
}

@Suite struct PluginGoldenTests {
  /// Compared frame by frame, each against an edge-tolerant bar.
  @Test(arguments: GoldenCase.all)
  func filmstrip(_ golden: GoldenCase) throws {
    let frames = try host(golden.plugin).images(progress: golden.filmstrip)
    let result = try Golden.assertFilmstrip(
      frames, matches: goldenPath("\(golden.plugin)-filmstrip.png"))
    #expect(result.passed, Comment(rawValue: result.description))
  }

  @Test(arguments: GoldenCase.all)
  func textFrame(_ golden: GoldenCase) throws {
    let frame = try host(golden.plugin).frame(atProgress: golden.textProgress)
    let text = try TerminalFrame.render(
      frame.list, cols: 64, rows: golden.textRows, mode: .ascii, renderer: CairoRenderer())
    try expectGoldenText(text, "\(golden.plugin)-\(golden.textProgress).txt")
  }

  /// A tap's frames equal controlled mode at the presented progress: what
  /// the sources are built for. (The card stack is driven by drags; its own
  /// suite checks the same on one.)
  @Test(arguments: ["deck_fan", "flip", "ticket_tear"])
  func controlledModeEqualsATap(_ plugin: String) throws {
    let interactive = try host(plugin)
    let key = try #require(interactive.component.progressKey)
    try interactive.tap()
    for t in [0.05, 0.13, 0.3, 0.47] {
      try interactive.advance(to: t)
      let live = try interactive.frame()
      let p = try #require(interactive.component.presented(key))
      let controlled = try host(plugin).frame(atProgress: p)
      #expect(sceneGeometry(live) == sceneGeometry(controlled), "t = \(t)")
    }
  }
}
