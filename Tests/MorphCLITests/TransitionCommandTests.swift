import Foundation
import Testing

/// The toast's transition through the command line: `render --time` shows a removal
/// mid-way though it draws no frame before that moment (the body ran when state changed).
@Suite struct TransitionCommandTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples")

  func render(at time: String) -> (status: Int32, out: String) {
    let result = runCommand([
      "render", Self.examples.appendingPathComponent("plugins/toast.lua").path,
      "--input", Self.examples.appendingPathComponent("inputs/toast.txt").path,
      "--time", time, "--format", "json",
    ])
    return (result.status, result.out)
  }

  /// The toast's item in the dump: where its top-left corner is drawn, and its opacity.
  func toast(in dump: String) throws -> (x: Double, y: Double, opacity: Double)? {
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any])
    let commands = try #require(json["commands"] as? [Any])
    for command in commands {
      guard let item = (command as? [String: Any])?["item"] as? [String: Any],
        item["id"] as? String == "toast"
      else { continue }
      let transform = try #require(item["transform"] as? [Double])
      return (transform[6], transform[7], item["opacity"] as? Double ?? 1)
    }
    return nil
  }

  @Test func renderAtATimeShowsTheToastComingAndGoing() throws {
    // Sliding in; at rest; leaving by itself (its timer's done ran at 2 + 1/120 s, the
    // timer's own end, the tap landing on the release a tick after 0); gone. The
    // transform is written exactly, so y is compared to a thousandth.
    let expected: [(time: String, y: Double, opacity: Double)] = [
      ("0.08", -32.925, 0.291), ("1.2", 24, 1), ("2.2", -44.058, 0.153),
    ]
    for (time, y, opacity) in expected {
      let result = render(at: time)
      #expect(result.status == 0)
      let toast = try #require(try toast(in: result.out), "at \(time): \(result.out)")
      #expect(
        toast.x == 48 && abs(toast.y - y) < 0.001 && toast.opacity == opacity,
        "at \(time): \(toast)")
    }
    let gone = render(at: "2.9")
    #expect(gone.status == 0)
    #expect(try toast(in: gone.out) == nil, Comment(rawValue: gone.out))
  }
}
