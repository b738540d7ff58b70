import Foundation
import Testing

/// `export` to Lottie through the real program: files, report, summary, timelines.
@Suite struct LottieExportCommandTests {
  static func scratch() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morph-lottie-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test func writesTheAnimationTheReportAndASummary() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("fan.json").path
    let report = dir.appendingPathComponent("report.json").path
    let result = try Subprocess.run(
      ["export", "deck_fan", "-o", out, "--frames", "6", "--report", report], deadline: 120)
    #expect(result.status == 0, Comment(rawValue: result.err))
    #expect(
      result.err.contains("lottie: 5 items: 5 native, 0 baked"), Comment(rawValue: result.err))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out)))
        as? [String: Any])
    #expect(json["op"] as? Int == 6)
    // Each card and, just behind those that cast one there, its shadow as geometry.
    let layers = try #require(json["layers"] as? [[String: Any]])
    let shadows = layers.count { ($0["nm"] as? String)?.hasSuffix(" shadow") == true }
    #expect(layers.count - shadows == 5)
    #expect(shadows >= 4)
    let counts = try #require(
      (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
        as? [String: Any])?["counts"] as? [String: Int])
    #expect(counts["native"] == 5)
  }

  @Test func aPlayedTimelineAndADotLottieArchive() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("flip.lottie").path
    let result = try Subprocess.run(
      ["export", "flip", "-o", out, "--duration", "0.5", "--fps", "10"], deadline: 120)
    #expect(result.status == 0, Comment(rawValue: result.err))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
    #expect(bytes.prefix(4) == Data([0x50, 0x4b, 0x03, 0x04]))
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("manifest.json") && text.contains("animations/flip.json"))
    #expect(text.contains("\"fr\":10"))
    #expect(text.contains("\"op\":6"))
  }

  /// `--margin` as render's; `--scale` has no meaning for a vector animation: refused.
  @Test func aMarginAndNoScale() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("flip.json").path
    let result = try Subprocess.run(
      ["export", "flip", "-o", out, "--frames", "2", "--margin", "0"], deadline: 120)
    #expect(result.status == 0, Comment(rawValue: result.err))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out)))
        as? [String: Any])
    #expect(json["w"] as? Int == 380 && json["h"] as? Int == 240)
    let scaled = try Subprocess.run(["export", "flip", "-o", out, "--scale", "2"])
    #expect(scaled.status != 0)
    #expect(scaled.err.contains("--scale does not apply to lottie"), Comment(rawValue: scaled.err))
  }

  @Test func theReportOptionIsForLottieOnly() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try Subprocess.run(
      ["export", "deck_fan", "-o", dir.appendingPathComponent("fan.gif").path, "--report", "r"])
    #expect(result.status != 0)
    #expect(result.err.contains("--report does not apply to gif"), Comment(rawValue: result.err))
  }
}
