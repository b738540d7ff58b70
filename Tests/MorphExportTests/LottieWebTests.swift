import Foundation
import Testing

/// The exports played in lottie-web (5.7.5, its svg renderer) in Debian's chromium, frame by
/// frame against the host's own frames, as `LottieThorVGTests` plays them in ThorVG.
@Suite(
  .enabled(
    if: LottieVerification.lottieWebAvailable,
    "needs /usr/bin/chromium, Python's playwright and pylottie (scripts/install-deps.sh)"))
struct LottieWebTests {
  static let plugins =
    ["deck_fan", "flip", "card_stack", "ticket_tear"] + LottieThorVGTests.examples

  @Test(arguments: plugins)
  func playsWithinOnePercentOfTheHost(plugin: String) throws {
    let worst = try LottieVerification.verifyInLottieWeb(plugin)
    print("lottie-web \(plugin): worst \(worst.fraction * 100)% off at frame \(worst.frame)")
    guard let reason = Self.knownIssues[plugin] else {
      #expect(worst.fraction <= 0.01, "\(plugin) frame \(worst.frame)")
      return
    }
    withKnownIssue("docs/lottie.md, Player differences seen: \(reason)") {
      #expect(worst.fraction <= 0.01, "\(plugin) frame \(worst.frame)")
    }
  }

  /// Plugins lottie-web does not yet draw within 1 %, and why (a fix makes `withKnownIssue`
  /// fail, so the entry goes).
  static let knownIssues = [
    "deck_fan": "lottie-web 5.7.5 cuts a drop shadow to its layer's bounds",
    "flip": "lottie-web 5.7.5 cuts a drop shadow to its layer's bounds",
    "Examples/plugins/progress_ring.lua":
      "lottie-web 5.7.5 garbles a shape whose keyframes differ in vertex count",
  ]
}
