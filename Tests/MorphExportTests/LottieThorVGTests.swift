import Foundation
import MorphCore
import MorphExport
import Testing

/// Bundled plugins exported to Lottie, validated against the Lottie schema and played
/// frame by frame in ThorVG against the host's own frames.
@Suite struct LottieThorVGTests {
  @Test(arguments: ["deck_fan", "flip", "card_stack", "ticket_tear"])
  func playsWithinOnePercentOfTheHost(plugin: String) throws {
    let figures = try LottieVerification.verify(plugin)
    print(
      "lottie \(plugin): \(figures.frames) frames, worst \(figures.worstFraction * 100)% "
        + "off at frame \(figures.worstFrame) (rlottie \(figures.rlottieWorstFraction * 100)%), "
        + "\(figures.bytes) bytes; \(figures.report.summary)")
    #expect(figures.worstFraction <= 0.01, "\(plugin) frame \(figures.worstFrame)")
  }

  /// The played timeline (one tap, 30 frames a second), as `export --duration` samples it.
  @Test(arguments: ["deck_fan", "flip"])
  func aPlayedTapWithinOnePercent(plugin: String) throws {
    let figures = try LottieVerification.verify(plugin, frames: 31, played: true)
    print(
      "lottie \(plugin) played: \(figures.frames) frames, worst \(figures.worstFraction * 100)% "
        + "off at frame \(figures.worstFrame), \(figures.bytes) bytes")
    #expect(figures.worstFraction <= 0.01, "\(plugin) frame \(figures.worstFrame)")
  }
}
