import MorphCore
import MorphRender
import MorphTestSupport
import Testing

/// Every text the bundled plugins and examples show, drawn from its glyph outlines (as
/// Lottie, SVG and PDF draw it) against the raster's own text, over the progress range and
/// played from one tap (card_stack's tapped caption changes then).
@Suite struct TextOutlinePluginTests {
  static let plugins = ["deck_fan", "flip", "card_stack", "ticket_tear"]

  @Test(arguments: plugins + LottieThorVGTests.examples, [false, true])
  func outlinesDrawAsTheRasterDraws(plugin: String, played: Bool) throws {
    let lists =
      played
      ? try LottieVerification.playedFrames(plugin, count: 8, fps: 8)
      : try LottieVerification.frames(plugin, count: 6)
    for (i, list) in lists.enumerated() {
      let difference = try TextOutlines.difference(list)
      #expect(TextOutlines.tolerance.allows(difference), "\(plugin) frame \(i): \(difference)")
    }
  }
}
