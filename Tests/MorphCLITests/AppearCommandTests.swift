import Foundation
import Testing

/// A component with `appear` moves from load with no input: `render --time` shows it
/// where its appear animation has got to.
@Suite struct AppearCommandTests {
  static let spinner = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/plugins/spinner.lua").path

  @Test func renderAtATimeShowsTheAppearAnimation() throws {
    for (time, progress) in [("0", "0"), ("0.25", "0.25"), ("0.5", "0.5")] {
      let result = runCommand(["render", Self.spinner, "--time", time, "--format", "json"])
      #expect(result.status == 0, Comment(rawValue: result.err))
      #expect(result.out.contains("\"progress\": \(progress)\n"), Comment(rawValue: result.out))
      #expect(result.out.contains("\"trim\": [0, "))
    }
  }
}
