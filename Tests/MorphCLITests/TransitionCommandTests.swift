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

  @Test func renderAtATimeShowsTheToastComingAndGoing() {
    // Sliding in; at rest; leaving by itself (its timer's done ran at 2.0 s); gone.
    let expected = [
      ("0.08", "[[48, -32.925], [360, -32.925], [360, 47.381], [48, 47.381]], \"opacity\": 0.291"),
      ("1.2", "[[48, 24], [360, 24], [360, 104.307], [48, 104.307]], \"opacity\": 1,"),
      ("2.2", "[[48, -42.139], [360, -42.139], [360, 38.167], [48, 38.167]], \"opacity\": 0.176"),
    ]
    for (time, quad) in expected {
      let result = render(at: time)
      #expect(result.status == 0)
      #expect(
        result.out.contains("{\"id\": \"toast\", \"kind\": \"node\", \"quad\": \(quad)"),
        Comment(rawValue: "at \(time): \(result.out)"))
    }
    let gone = render(at: "2.9")
    #expect(gone.status == 0)
    #expect(!gone.out.contains("\"toast\""), Comment(rawValue: gone.out))
  }
}
