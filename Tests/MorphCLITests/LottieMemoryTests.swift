import Foundation
import Testing

/// Issue 37: a Lottie export's memory does not grow with its frames. A path whose
/// points all move every frame held every frame's outline until the keyframes were
/// chosen at the end (a 90 000-point path: about 60 MB a frame); now the samples past
/// the writer's window become layers in a spool on disk.
@Suite struct LottieMemoryTests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/moving_path.lua").path

  /// 8 frames (one run of layers spooled, the rest at the end) against 36; before, 36
  /// frames held 4.5 times the outlines. `--memory 8`: the plugin's paths, once
  /// garbage, are collected when its small heap cap is reached rather than left to
  /// pile up under the default cap, so the peak is the writer's.
  @Test(
    .disabled(
      if: Subprocess.underAddressSanitizer, "ASan's quarantine grows with the frames freed"))
  func peakMemoryDoesNotGrowWithTheFrames() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morph-lottie-memory-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // The spool goes to TMPDIR, unlinked as it is opened.
    let spool = dir.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
    let peaks = try [8, 36].map { frames in
      let out = dir.appendingPathComponent("path-\(frames).json")
      let result = try Subprocess.run(
        [
          "export", Self.fixture, "--frames", "\(frames)", "--memory", "8", "-o", out.path,
        ], environment: ["TMPDIR": spool.path], deadline: 300)
      #expect(result.status == 0, Comment(rawValue: result.err))
      let json = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any])
      #expect(json["op"] as? Int == frames)
      return Double(result.peakMemory)
    }
    #expect(peaks[1] / peaks[0] <= 1.10, "peak RSS \(peaks[0]) → \(peaks[1]) bytes")
    // Nothing left beside the files: the spool is unlinked from the start.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
        "path-36.json", "path-8.json", "tmp",
      ])
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
  }
}
