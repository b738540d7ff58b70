import Foundation
import Testing

/// The tab bar's matched pill through the command line: `render --time` shows it on its
/// way between tabs, stretching, and turned back by a tap while it moves.
@Suite struct MatchedGeometryCommandTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples")

  /// The pill's drawn left edge and width in the dump at `time`.
  func pill(at time: String) throws -> (x: Double, width: Double) {
    let result = runCommand([
      "render", Self.examples.appendingPathComponent("plugins/tab_bar.lua").path,
      "--input", Self.examples.appendingPathComponent("inputs/tabs.txt").path,
      "--time", time, "--format", "json",
    ])
    #expect(result.status == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let commands = try #require(json["commands"] as? [Any])
    for command in commands {
      guard let item = (command as? [String: Any])?["item"] as? [String: Any],
        item["id"] as? String == "pill"
      else { continue }
      let transform = try #require(item["transform"] as? [Double])
      let frame = try #require(item["frame"] as? [String: Double])
      return (transform[6], try #require(frame["width"]))
    }
    Issue.record("no pill at \(time): \(result.out)")
    return (0, 0)
  }

  @Test func renderAtATimeShowsThePillGliding() throws {
    // Home; on the spring toward Library; at Library; toward Me; turned back home.
    let expected: [(time: String, x: Double, width: Double)] = [
      ("0", 58.527, 70.635), ("0.1", 135.521, 74.785), ("0.9", 215.876, 79.116),
      ("1.1", 256.544, 65.106), ("1.2", 256.7, 55.448), ("3.5", 58.527, 70.635),
    ]
    for (time, x, width) in expected {
      let pill = try pill(at: time)
      #expect(abs(pill.x - x) < 0.01 && abs(pill.width - width) < 0.01, "at \(time): \(pill)")
    }
  }
}
