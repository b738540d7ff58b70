import Foundation
import MorphRender

/// `bench --export`'s Lottie figures: the deck fan's Lottie, gzipped, against the lossless
/// WebP and the GIF of the same frames, and its export time against the PNG sequence's,
/// each export a child process, measured side by side in one run.
extension BenchCommand {
  static func lottieExport(frames: Int) throws -> [String] {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    /// Wall-clock seconds of one export. (A child's peak RSS here would start from this
    /// process's own, raised by the size comparisons run before: not printed.)
    func export(_ out: String) throws -> Double {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = try peakMemory(["export", "deck_fan", "--frames", "\(frames)", "-o", out])
      return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    // Best of three, interleaved, so both see the same load.
    var lottie = Double.infinity
    var png = Double.infinity
    for run in 0..<3 {
      lottie = min(lottie, try export(path("fan.json")))
      png = min(png, try export(path("frames-\(run)")))
    }
    _ = try export(path("fan.webp"))
    _ = try export(path("fan.gif"))
    let json = fileSize(path("fan.json"))
    let gzipped = try gzipSize(path("fan.json"))
    let (webp, gif) = (fileSize(path("fan.webp")), fileSize(path("fan.gif")))
    func kib(_ bytes: Int) -> String { String(format: "%.1f KiB", Double(bytes) / 1024) }
    let perFrame = (lottie / Double(frames) * 1000, png / Double(frames) * 1000)
    return [
      "export deck_fan as Lottie, \(frames) frames (canvas size), against the same frames:",
      "  size: Lottie \(kib(json)), gzipped \(kib(gzipped)); lossless WebP \(kib(webp)), GIF "
        + "\(kib(gif)); gzipped Lottie "
        + String(
          format: "%.3f× the WebP (goal ≤ 0.1×), %.3f× the GIF",
          Double(gzipped) / Double(webp), Double(gzipped) / Double(gif)),
      String(
        format:
          "  time (best of 3, interleaved, whole process): Lottie %.1f ms a frame, PNG sequence "
          + "%.1f ms a frame, ratio %.2f",
        perFrame.0, perFrame.1, perFrame.0 / perFrame.1),
    ]
  }

  /// Peak RSS of a Lottie export of a path whose points all move every frame (issue
  /// 37's case, at 10 000 points rather than 90 000) at the 40 and 400 frames,
  /// each a child process: the writer holds a window of frames (`LottieStream`), not
  /// all of them. `--memory 8` has the plugin's garbage paths collected early, so the
  /// figure is the writer's, not Lua's collector's pace.
  static func lottieMemory(points: Int = 10_000, short: Int = 40, long: Int = 400) throws
    -> String
  {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let plugin = dir.appendingPathComponent("moving_path.lua")
    try Data(
      """
      return morph.component {
        name = "MovingPath", size = { 400, 300 }, state = { lift = 0 }, progress = "lift",
        body = function(self)
          return morph.shape(morph.path(function(p)
            p:move(0, 150 + self.lift * 100)
            for i = 1, \(points - 1) do
              p:line(i * 400 / \(points), 150 + 100 * math.sin(i * 0.001) + self.lift * 100)
            end
          end)):stroke(morph.color "#000000", 1)
        end,
      }

      """.utf8
    ).write(to: plugin)
    let peaks = try [short, long].map { frames in
      try peakMemory([
        "export", plugin.path, "--frames", "\(frames)", "--memory", "8", "-o",
        dir.appendingPathComponent("path-\(frames).json").path,
      ])
    }
    let mib = peaks.map { Double($0) / 1_048_576 }
    return String(
      format:
        "export a %d-point path moving point by point as Lottie, peak RSS: %d frames %.1f MiB, "
        + "%d frames %.1f MiB, ratio %.2f (goal: within 10 %%)", points, short, mib[0], long,
      mib[1], mib[1] / mib[0])
  }

  private static func fileSize(_ path: String) -> Int {
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int {
      return size
    }
    return 0
  }

  /// A file's size gzipped at level 9, computed in process (the shipped binary runs no
  /// outside program): libdeflate's zlib stream plus the 12 bytes by which gzip's
  /// 10-byte header and 8-byte trailer outweigh zlib's 2 and 4.
  private static func gzipSize(_ path: String) throws -> Int {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    return try PNGEncoder.deflate(bytes, level: 9).count + 12
  }
}
