import Foundation
import MorphCore
import MorphRender
import Testing

@testable import MorphExport

/// The one-call API: every format written by `Exporter.write` and read back
/// by a decoder that is not ours, and bad input refused with one error that
/// leaves nothing behind.
@Suite struct ExporterTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let flip = repository.appendingPathComponent("Plugins/flip.lua").path

  /// Six frames of flip over its progress range, at half scale, video through the ffmpeg
  /// on PATH.
  static let exporter = {
    var exporter = Exporter(plugin: flip, timeline: .progress(frames: 6), scale: 0.5)
    exporter.ffmpeg = VideoEncoder.locate(
      searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "")
    return exporter
  }()

  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("exporter-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The folder holds only what `names` says.
  static func contents(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  @Test func aGIFHasEveryFrameForGiflib() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("flip.gif")
    let written = try Self.exporter.write(to: url)
    #expect(written.format == .gif && written.frames == 6)
    #expect(written.summary == "wrote \(url.path) (GIF, 6 frames, a palette per frame)")
    let frames = try GIFCodingTests.decode([UInt8](try Data(contentsOf: url)))
    #expect(frames.count == 6)
    #expect(frames.allSatisfy { $0.count == written.width * written.height })
    #expect(Set(frames).count > 1, "the frames differ")
  }

  /// APNG, MP4 and WebM: ffprobe reads every frame at the size written.
  @Test(arguments: [("flip.apng", "apng"), ("flip.mp4", "h264"), ("flip.webm", "vp9")])
  func ffmpegReadsEveryFrame(name: String, codec: String) throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent(name)
    let written = try Self.exporter.write(to: url)
    let video = try Probe.video(url.path)
    #expect(video.codec == codec)
    #expect(video.frames == 6)
    // Video pads an odd side to an even one.
    #expect(video.width == written.width + written.width % 2)
    #expect(video.height == written.height + written.height % 2)
  }

  /// The APNG encoder is the one APNG writer: the frames it stores as they
  /// come are the frames ffmpeg decodes, pixel for pixel.
  @Test func anAPNGDecodesToTheFramesGiven() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let frames = (0..<3).map { (i: Int) -> RasterImage in
      let pixels = (0..<32).map { (k: Int) -> UInt8 in
        k % 4 == 3 ? 255 : UInt8((60 * i + k * 7) % 256)
      }
      return RasterImage(width: 4, height: 2, pixels: pixels)
    }
    let path = dir.appendingPathComponent("three.apng").path
    let file = try OutputFile(path)
    var encoder = APNGEncoder(output: FileOutput(file), count: 3, timing: FrameTiming(fps: 30))
    for frame in frames { try encoder.add(frame) }
    try encoder.finish()
    try file.commit()
    #expect(try Probe.rgbaFrames(path, width: 4, height: 2) == frames.map { $0.pixels })
    var empty = APNGEncoder(output: MemoryOutput(), count: 3, timing: FrameTiming(fps: 30))
    #expect(throws: RenderError.self) { try empty.finish() }
  }

  @Test func aWebPHasEveryFrameForLibwebp() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("flip.webp")
    let written = try Self.exporter.write(to: url)
    let webp = try Probe.webp(url.path)
    #expect(webp.width == written.width && webp.height == written.height)
    #expect(webp.frames == 6)
  }

  /// No extension: a folder of numbered PNGs, each a whole frame; played
  /// through time, a frame every 1/fps s with both ends included.
  @Test func aFolderHoldsEveryFrameAsAPNG() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = dir.appendingPathComponent("frames")
    var exporter = Self.exporter
    exporter.timeline = .time(duration: 0.5, fps: 10)
    let written = try exporter.write(to: folder)
    #expect(written.format == .pngSequence && written.frames == 6)
    #expect(try Self.contents(folder) == (1...6).map { String(format: "frame-%04d.png", $0) })
    let last = try RasterImage.decodePNG(
      [UInt8](try Data(contentsOf: folder.appendingPathComponent("frame-0006.png"))))
    #expect(last.width == written.width && last.height == written.height)
  }

  @Test func aFilmstripIsOneSheetOfEveryFrame() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("sheet.png")
    var exporter = Self.exporter
    exporter.encoding.columns = 3
    let written = try exporter.write(to: url, format: .filmstrip)
    let sheet = try RasterImage.decodePNG([UInt8](try Data(contentsOf: url)))
    let layout = Filmstrip.Layout(
      count: 6, frameWidth: written.width, frameHeight: written.height, columns: 3)
    #expect(sheet.width == layout.width && sheet.height == layout.height)
  }

  /// One moment as a PNG is the same picture as that moment in a sequence.
  @Test func aSingleFrameIsTheSequencesFrame() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    var exporter = Self.exporter
    exporter.timeline = .progress(0...1, frames: 3)
    let folder = dir.appendingPathComponent("frames")
    try exporter.write(to: folder)
    let middle = try RasterImage.decodePNG(
      [UInt8](try Data(contentsOf: folder.appendingPathComponent("frame-0002.png"))))
    let single = dir.appendingPathComponent("half.png")
    let image = try exporter.writeFrame(to: single, at: .progress(0.5))
    #expect(try RasterImage.decodePNG([UInt8](try Data(contentsOf: single))) == middle)
    #expect(image == middle)
    #expect(try exporter.frame(at: .progress(0.5)).summary.progress == 0.5)
  }

  /// The observer sees every frame of both passes of a shared palette, and can stop the export.
  @Test func theObserverSeesEachFrameAndCanCancel() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    var exporter = Self.exporter
    exporter.encoding.sharedPalette = true
    var seen: [Int] = []
    try exporter.write(
      to: dir.appendingPathComponent("one-palette.gif"),
      observer: ExportObserver(frameDone: { done, total in
        #expect(total == 12)
        seen.append(done)
      }))
    #expect(seen == Array(1...12))
    var made = 0
    let cancelled = ExportObserver(isCancelled: {
      made += 1
      return made > 3
    })
    let url = dir.appendingPathComponent("cancelled.apng")
    #expect(throws: ExportError.cancelled) {
      try Self.exporter.write(to: url, observer: cancelled)
    }
    #expect(try Self.contents(dir) == ["one-palette.gif"])
  }

  @Test func lottieIsWrittenFromTheDisplayListsWithItsReport() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    var exporter = Self.exporter
    exporter.background = nil
    exporter.fidelityReport = dir.appendingPathComponent("report.json").path
    var seen: [Int] = []
    let written = try exporter.write(
      to: dir.appendingPathComponent("flip.json"),
      observer: ExportObserver(frameDone: { done, _ in seen.append(done) }))
    #expect(written.format == .lottie && written.frames == 6 && seen == Array(1...6))
    let fidelity = try #require(written.fidelity)
    #expect(fidelity.entries.count > 0)
    let json = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: dir.appendingPathComponent("flip.json")))
        as? [String: Any])
    #expect(json["op"] as? Int == 6)
    let report = try Data(contentsOf: dir.appendingPathComponent("report.json"))
    #expect(String(decoding: report, as: UTF8.self) == fidelity.json)
    let archive = try exporter.write(to: dir.appendingPathComponent("flip.lottie"))
    #expect(archive.format == .dotLottie)
    let zip = try Data(contentsOf: dir.appendingPathComponent("flip.lottie"))
    #expect(zip.prefix(4) == Data([0x50, 0x4b, 0x03, 0x04]))
    let cancelled = ExportObserver(isCancelled: { true })
    #expect(throws: ExportError.cancelled) {
      try Self.exporter.write(to: dir.appendingPathComponent("gone.json"), observer: cancelled)
    }
    #expect(try Self.contents(dir) == ["flip.json", "flip.lottie", "report.json"])
  }

  // MARK: Bad input: one error, nothing written

  /// The error, expected to be one line without a command line's words.
  static func refusal(_ body: () throws -> Void) -> ExportError? {
    do {
      try body()
      return nil
    } catch {
      let text = "\(error)"
      #expect(!text.contains("\n") && !text.contains("--") && !text.contains("morphhost"))
      #expect(error is ExportError, "\(type(of: error)): \(text)")
      return error as? ExportError
    }
  }

  @Test func aMissingPluginIsOneError() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let missing = dir.appendingPathComponent("nowhere.lua").path
    let error = Self.refusal {
      try Exporter(plugin: missing).write(to: dir.appendingPathComponent("a.gif"))
    }
    guard case .failed = error else {
      Issue.record("got \(String(describing: error))")
      return
    }
    #expect(error?.description.contains("nowhere.lua") == true)
    #expect(try Self.contents(dir).isEmpty)
  }

  @Test func anUnwritablePathIsOneError() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("no-such-folder/flip.gif")
    let error = Self.refusal { try Self.exporter.write(to: target) }
    #expect(error == .unwritable(path: target.path, reason: "its folder does not exist"))
    #expect(error?.description == "cannot write \(target.path): its folder does not exist")
    // A folder where a file should be is refused too, and left as it was.
    let folder = dir.appendingPathComponent("taken.gif")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    guard case .unwritable = Self.refusal({ try Self.exporter.write(to: folder) }) else {
      Issue.record("a folder was replaced")
      return
    }
    #expect(try Self.contents(dir) == ["taken.gif"])
  }

  @Test func anUnknownFormatIsOneError() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let error = Self.refusal { try Self.exporter.write(to: dir.appendingPathComponent("a.bmp")) }
    guard case .unknownFormat = error else {
      Issue.record("got \(String(describing: error))")
      return
    }
    #expect(error?.exitStatus == .usage)
    #expect(error?.description.contains("a.bmp") == true)
    #expect(try Self.contents(dir).isEmpty)
  }

  @Test func settingsOutOfRangeAreRefusedBeforeAnyFrame() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    var exporter = Self.exporter
    exporter.encoding.crf = 60
    let error = Self.refusal { try exporter.write(to: dir.appendingPathComponent("a.mp4")) }
    #expect(error == .invalidSetting("crf must be in 0…51 for mp4, got 60"))
    exporter = Self.exporter
    exporter.timeline = .progress(frames: ExportTimeline.maxFrames + 1)
    guard case .invalidTimeline = Self.refusal({ try exporter.write(to: dir) }) else {
      Issue.record("too many frames were accepted")
      return
    }
    #expect(try Self.contents(dir).isEmpty)
  }
}

extension ExportError: Equatable {
  /// Equal cases with equal values; a plugin's errors compare by their text.
  public static func == (a: ExportError, b: ExportError) -> Bool { a.description == b.description }
}
