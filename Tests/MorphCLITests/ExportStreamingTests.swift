import Foundation
import MorphRender
import Testing

/// Issue 8, item 8: export streams its frames through a bounded queue.
@Suite struct ExportStreamingTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func outputIsTheSameWhateverTheThreadCount() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    var files: [Data] = []
    for threads in ["1", "3"] {
      let out = dir.appendingPathComponent("fan-\(threads).apng")
      let result = try Subprocess.run([
        "export", "deck_fan", "-o", out.path, "--frames", "12", "--threads", threads,
      ])
      #expect(result.status == 0, Comment(rawValue: result.err))
      files.append(try Data(contentsOf: out))
    }
    #expect(files[0] == files[1])
    let chunks = try PNGChunks.chunks([UInt8](files[0]))
    #expect(chunks.filter { $0.type == "fcTL" }.count == 12)
  }

  @Test func aSequenceIsWrittenFrameByFrame() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("frames")
    let result = try Subprocess.run([
      "export", "flip", "-o", out.path, "--duration", "0.5", "--fps", "10", "--threads", "2",
    ])
    #expect(result.status == 0, Comment(rawValue: result.err))
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(names == (1...6).map { String(format: "frame-%04d.png", $0) })
  }

  @Test func anOversizedFilmstripIsRefusedBeforeAnyFrameRenders() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("sheet.png").path
    let result = try Subprocess.run([
      "export", Self.fixtures.appendingPathComponent("first_frame_only.lua").path,
      "--filmstrip", "100", "--scale", "8", "-o", out,
    ])
    #expect(result.status == 1)
    #expect(result.err.contains("filmstrip") && result.err.contains("too large"))
    #expect(!result.err.contains("rendered"), Comment(rawValue: result.err))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func aFailedExportLeavesNoPartialFile() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fixture = Self.fixtures.appendingPathComponent("first_frame_only.lua").path
    let animation = dir.appendingPathComponent("a.apng").path
    let result = try Subprocess.run(["export", fixture, "--frames", "3", "-o", animation])
    #expect(result.status == 1)
    #expect(result.err.contains("frame past the first was rendered"))
    let folder = dir.appendingPathComponent("frames").path
    _ = try Subprocess.run(["export", fixture, "--frames", "3", "-o", folder])
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// Peak memory does not grow with the number of frames (it grew by a raster a frame:
  /// 2000 frames took 1 GB). Memory, not time: this holds on a loaded machine.
  @Test(
    .disabled(
      if: Subprocess.underAddressSanitizer, "ASan's quarantine grows with the frames freed"))
  func peakMemoryDoesNotGrowWithLength() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let peaks = try [20, 200].map { frames in
      let result = try Subprocess.run(
        [
          "export", "flip", "--frames", "\(frames)", "-o",
          dir.appendingPathComponent("flip-\(frames).apng").path,
        ], deadline: 300)
      #expect(result.status == 0, Comment(rawValue: result.err))
      return Double(result.peakMemory)
    }
    // 180 more frames held in memory would add 180 × 0.5 MB, about twice the whole process.
    #expect(peaks[1] / peaks[0] < 1.25, "peak RSS \(peaks[0]) → \(peaks[1]) bytes")
  }
}
