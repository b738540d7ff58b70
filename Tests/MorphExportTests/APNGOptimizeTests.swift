import Foundation
import MorphCore
import MorphRender
import Testing

@testable import MorphExport

/// `export --optimize`: the strongest lossless APNG (zopfli over every filter strategy),
/// decoded by ffmpeg back to exactly the frames a PNG sequence holds.
@Suite struct APNGOptimizeTests {
  static let repository = ExporterTests.repository

  static func plugin(_ name: String) -> String {
    repository.appendingPathComponent("Plugins/\(name).lua").path
  }

  /// The frames of `exporter` as a PNG sequence, decoded.
  static func truth(_ exporter: Exporter, in dir: URL) throws -> [RasterImage] {
    let folder = dir.appendingPathComponent("frames")
    let written = try exporter.write(to: folder)
    return try (1...written.frames).map { i in
      let name = String(format: "frame-%04d.png", i)
      return try RasterImage.decodePNG(
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
    }
  }

  /// The optimized APNG decodes to the PNG frames; returns its size and the default's.
  static func sizes(_ exporter: Exporter) throws -> (optimized: Int, standard: Int) {
    let dir = try ExporterTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let frames = try truth(exporter, in: dir)
    var optimizing = exporter
    optimizing.encoding.optimize = true
    let url = dir.appendingPathComponent("optimized.apng")
    let written = try optimizing.write(to: url)
    #expect(written.summary.contains("optimized"))
    let decoded = try Probe.rgbaFrames(url.path, width: written.width, height: written.height)
    #expect(decoded.count == frames.count)
    for (i, (frame, got)) in zip(frames, decoded).enumerated() {
      #expect(frame.pixels == got, "frame \(i + 1) decodes differently")
    }
    let standard = dir.appendingPathComponent("standard.apng")
    try exporter.write(to: standard)
    func size(_ url: URL) throws -> Int {
      try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
    }
    return (try size(url), try size(standard))
  }

  /// Opaque (stored as RGB): the deck fan over white.
  @Test func anOpaqueExportDecodesExactlyAndIsSmaller() throws {
    let exporter = Exporter(
      plugin: Self.plugin("deck_fan"), timeline: .progress(frames: 4), scale: 0.5)
    let (optimized, standard) = try Self.sizes(exporter)
    print("APNG --optimize, deck_fan 4 frames at 0.5: \(optimized) bytes, default \(standard)")
    #expect(optimized < standard)
  }

  /// Transparent (RGBA, each frame blending over or replacing, whichever is smaller).
  @Test func aTransparentExportDecodesExactly() throws {
    let exporter = Exporter(
      plugin: Self.plugin("flip"), timeline: .progress(frames: 4), scale: 0.5, background: nil)
    let (optimized, standard) = try Self.sizes(exporter)
    #expect(optimized <= standard)
  }

  /// The encoder on its own: every filter strategy still decodes to the same pixels,
  /// including a frame whose first row is filtered against a row of zeros.
  @Test func everyFilterStrategyDecodesExactly() throws {
    let dir = try ExporterTests.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let frames = (0..<3).map { (i: Int) -> RasterImage in
      let pixels = (0..<(16 * 9 * 4)).map { (k: Int) -> UInt8 in
        k % 4 == 3 ? UInt8(128 + (k * i) % 128) : UInt8((60 * i + k * k) % 256)
      }
      return RasterImage(width: 16, height: 9, pixels: pixels)
    }
    let path = dir.appendingPathComponent("three.apng").path
    let file = try OutputFile(path)
    var encoder = APNGEncoder(
      output: FileOutput(file), count: 3, timing: FrameTiming(fps: 30), compression: .optimized)
    for frame in frames { try encoder.add(frame) }
    try encoder.finish()
    try file.commit()
    #expect(try Probe.rgbaFrames(path, width: 16, height: 9) == frames.map { $0.pixels })
  }
}
