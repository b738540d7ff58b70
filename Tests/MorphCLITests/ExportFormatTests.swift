import Foundation
import MorphRender
import Testing

@testable import MorphCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 13: every export format, read back by decoders that are not morphhost's.
@Suite struct ExportFormatTests {
  static let size = (width: 428, height: 288)  // deck_fan at scale 1

  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Exports deck_fan over its whole progress range; the output's path.
  static func export(_ name: String, in dir: URL, frames: Int = 8, _ extra: [String] = [])
    throws -> String
  {
    let out = dir.appendingPathComponent(name).path
    let result = try Subprocess.run(
      ["export", "deck_fan", "-o", out, "--progress-range", "0:1", "--frames", "\(frames)"]
        + extra, deadline: 180)
    #expect(result.status == 0, Comment(rawValue: result.err))
    return out
  }

  /// The first and last frames `render` makes for the same export.
  static func references(_ extra: [String] = []) throws -> [RasterImage] {
    try ["0", "1"].map { try MediaProbe.render(["deck_fan", "--progress", $0] + extra) }
  }

  static func expectLossless(_ frames: [RasterImage], _ references: [RasterImage]) {
    for (frame, reference) in zip(frames, references) {
      #expect(MediaProbe.shareWithin(32, frame, reference) > 0.99)
    }
  }

  /// An export of `frames` frames with `--background none` is transparent
  /// where the render is clear and opaque where it is solid (first and last
  /// frames, every 97th pixel).
  static func expectAlphaKept(_ path: String, frames count: Int) throws {
    let frames = try MediaProbe.frames(path, width: 428, height: 288)
    #expect(frames.count == count)
    guard let first = frames.first, let last = frames.last else { return }
    for (frame, expected) in zip([first, last], try references(["--background", "none"])) {
      for i in stride(from: 3, to: expected.pixels.count, by: 4 * 97) {
        if expected.pixels[i] == 0 { #expect(frame.pixels[i] == 0) }
        if expected.pixels[i] == 255 { #expect(frame.pixels[i] == 255) }
      }
    }
  }

  static func expectClose(_ frames: [RasterImage], _ references: [RasterImage]) {
    for (frame, reference) in zip(frames, references) {
      let difference = MediaProbe.meanDifference(frame, reference)
      #expect(difference < 6, "mean difference \(difference) levels")
    }
  }

  @Test func progressShowsFramesRateAndTimeLeft() {
    let line = ProgressBar.line(done: 40, total: 120, seconds: 2)
    #expect(line.hasPrefix("[##########--------------------] 40/120 frames"))
    #expect(line.contains("20.0 fps") && line.contains("ETA 4.0 s"))
    #expect(ProgressBar.line(done: 0, total: 10, seconds: 0).contains("ETA …"))
  }

  @Test func apngStoresChangesAndReadsBack() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = try Self.export("fan.apng", in: dir, ["--loop", "3", "--hold", "0.5"])
    let stream = try MediaProbe.stream(out)
    #expect(stream["codec_name"] == "apng" && stream["nb_read_frames"] == "8")
    #expect(stream["width"] == "428" && stream["height"] == "288")
    let durations = try MediaProbe.durations(out)
    #expect(durations.count == 8)
    for d in durations.dropLast() { #expect(abs(d - 1.0 / 30) < 0.002) }
    #expect(abs((durations.last ?? 0) - (1.0 / 30 + 0.5)) < 0.002)
    let chunks = try PNGChunks.chunks([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
    let control = try #require(chunks.first { $0.type == "acTL" })
    #expect(Array(control.data[4..<8]) == [0, 0, 0, 3])  // plays three times
    // Later frames store a rectangle smaller than the canvas.
    let widths = chunks.filter { $0.type == "fcTL" }.map {
      Int($0.data[6]) << 8 | Int($0.data[7])
    }
    #expect(widths.first == 428 && widths.dropFirst().contains { $0 < 428 })
    let frames = try MediaProbe.frames(out, width: 428, height: 288)
    #expect(frames.count == 8)
    Self.expectLossless([frames[0], frames[7]], try Self.references())
  }

  /// An opaque animation is stored as RGB (colour type 2), a transparent one
  /// as RGBA; either way every frame ffmpeg decodes is the PNG sequence's exactly.
  @Test func apngIsRGBWhenOpaqueAndLosslessEitherWay() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (background, pixelFormat) in [([String](), "rgb24"), (["--background", "none"], "rgba")] {
      let apng = try Self.export("fan.apng", in: dir, frames: 5, background)
      #expect(try MediaProbe.stream(apng)["pix_fmt"] == pixelFormat)
      let folder = try Self.export("frames", in: dir, frames: 5, background)
      let decoded = try MediaProbe.frames(apng, width: 428, height: 288)
      let pngs = try (1...5).map { i in
        try MediaProbe.frames(
          folder + String(format: "/frame-%04d.png", i), width: 428, height: 288)[0]
      }
      #expect(decoded.count == 5)
      for (n, (frame, png)) in zip(decoded, pngs).enumerated() {
        #expect(frame == png, "frame \(n + 1) of the \(pixelFormat) APNG differs")
      }
      try FileManager.default.removeItem(atPath: apng)
      try FileManager.default.removeItem(atPath: folder)
    }
  }

  /// `--colors N` makes an indexed APNG (colour type 3, one palette and a
  /// clear entry): smaller than the truecolour one, close to the render,
  /// and with `--background none` clear where the render is.
  @Test func apngWithColorsIsIndexedSmallerAndClose() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let indexed = try Self.export("indexed.apng", in: dir, ["--scale", "2", "--colors", "64"])
    let truecolour = try Self.export("truecolour.apng", in: dir, ["--scale", "2"])
    let chunks = try PNGChunks.chunks([UInt8](try Data(contentsOf: URL(fileURLWithPath: indexed))))
    #expect(chunks.first { $0.type == "IHDR" }?.data[9] == 3)  // colour type 3: palette
    let palette = try #require(chunks.first { $0.type == "PLTE" })
    let alpha = try #require(chunks.first { $0.type == "tRNS" })
    #expect(palette.data.count <= 65 * 3 && alpha.data.count == palette.data.count / 3)
    #expect(alpha.data.last == 0)  // the clear entry after the colours
    let sizes = try [indexed, truecolour].map {
      try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0
    }
    #expect(sizes[0] < sizes[1], "indexed \(sizes[0]) bytes, truecolour \(sizes[1])")
    let frames = try MediaProbe.frames(indexed, width: 856, height: 576)
    #expect(frames.count == 8)
    Self.expectClose([frames[0], frames[7]], try Self.references(["--scale", "2"]))
    let clear = try Self.export("clear.apng", in: dir, ["--colors", "32", "--background", "none"])
    try Self.expectAlphaKept(clear, frames: 8)
  }

  @Test func identicalFramesMergeIntoLongerDelays() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    // flip settles well within 2 s: the rest of the timeline is one still frame.
    // A lossy GIF too: what it leaves on screen sits off the truth, and must
    // not look changed in every still frame.
    for (name, extra) in [("flip.apng", []), ("flip.gif", []), ("lossy.gif", ["--lossy", "4"])] {
      let out = dir.appendingPathComponent(name).path
      let result = try Subprocess.run(
        ["export", "flip", "-o", out, "--duration", "2", "--fps", "10", "--input", "tap"] + extra)
      #expect(result.status == 0, Comment(rawValue: result.err))
      let durations = try MediaProbe.durations(out)
      #expect(durations.count < 21, "\(name): \(durations.count) frames")
      #expect(abs(durations.reduce(0, +) - 2.1) < 0.02, "\(name): \(durations)")
    }
  }

  @Test func gifReadsBackWithItsLoopCount() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = try Self.export("fan.gif", in: dir, ["--loop", "3"])
    let stream = try MediaProbe.stream(out)
    #expect(stream["codec_name"] == "gif" && stream["nb_read_frames"] == "8")
    #expect(stream["width"] == "428" && stream["height"] == "288")
    // Centiseconds, rounded without drift: 8 frames at 30 fps last 0.27 s.
    let durations = try MediaProbe.durations(out)
    #expect(durations.count == 8)
    #expect(durations.allSatisfy { $0 == 0.03 || $0 == 0.04 })
    #expect(abs(durations.reduce(0, +) - 0.27) < 0.001)
    // NETSCAPE2.0: repeats after the first play, little-endian.
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    let tag = Array("NETSCAPE2.0".utf8)
    let at = try #require((0..<(bytes.count - 15)).first { Array(bytes[$0..<($0 + 11)]) == tag })
    #expect(Array(bytes[(at + 11)..<(at + 15)]) == [3, 1, 2, 0])
    let frames = try MediaProbe.frames(out, width: 428, height: 288)
    Self.expectClose([frames[0], frames[7]], try Self.references())
  }

  @Test func gifVariantsKeepTransparencyAndPalettes() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let clear = try Self.export("clear.gif", in: dir, frames: 4, ["--background", "none"])
    try Self.expectAlphaKept(clear, frames: 4)
    let global = try Self.export("global.gif", in: dir, ["--palette", "global", "--dither", "off"])
    Self.expectClose(
      try [MediaProbe.frames(global, width: 428, height: 288)].flatMap { [$0[0], $0[7]] },
      try Self.references())
  }

  /// `--colors N` caps each frame's palette: with 15 colours and the
  /// transparent index every colour table holds 16 entries (4-bit codes),
  /// the file is smaller than with the default, and the picture stays close.
  @Test func gifColorsCapEachPalette() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let few = try Self.export("few.gif", in: dir, ["--colors", "15"])
    let usual = try Self.export("usual.gif", in: dir)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: few)))
    let tables = Self.gifColorTables(bytes)
    #expect(tables.count == 8)  // the screen's (frame 1's), and one for each other frame
    #expect(tables.allSatisfy { $0 == 16 }, "\(tables)")
    let sizes = try [few, usual].map {
      try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0
    }
    #expect(sizes[0] < sizes[1], "15 colours \(sizes[0]) bytes, default \(sizes[1])")
    let frames = try MediaProbe.frames(few, width: 428, height: 288)
    #expect(frames.count == 8)
    Self.expectClose([frames[0], frames[7]], try Self.references())
  }

  /// The entries of each colour table of a GIF, the screen's first, read from
  /// the block structure (giflib hides the sizes it read).
  static func gifColorTables(_ gif: [UInt8]) -> [Int] {
    var tables: [Int] = []
    var at = 13
    if gif[10] & 0x80 != 0 {
      tables.append(2 << Int(gif[10] & 7))
      at += 3 * tables[0]
    }
    func skipSubBlocks() {
      while gif[at] != 0 { at += Int(gif[at]) + 1 }
      at += 1
    }
    while at < gif.count && gif[at] != 0x3B {
      if gif[at] == 0x21 {
        at += 2
        skipSubBlocks()
      } else {
        let flags = gif[at + 9]
        at += 10
        if flags & 0x80 != 0 {
          tables.append(2 << Int(flags & 7))
          at += 3 * tables.last!
        }
        at += 1  // the LZW minimum code size
        skipSubBlocks()
      }
    }
    return tables
  }

  /// `--lossy N` lets a pixel take its left neighbour's colour when that is
  /// within N levels: longer runs, a smaller file, a picture still close.
  @Test func lossyGIFIsSmallerAndStillClose() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let exact = try Self.export("exact.gif", in: dir, ["--scale", "2"])
    let lossy = try Self.export("lossy.gif", in: dir, ["--scale", "2", "--lossy", "4"])
    let sizes = try [lossy, exact].map {
      try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0
    }
    #expect(sizes[0] < sizes[1] * 9 / 10, "lossy \(sizes[0]) bytes, exact \(sizes[1])")
    let frames = try MediaProbe.frames(lossy, width: 856, height: 576)
    #expect(frames.count == 8)
    Self.expectClose([frames[0], frames[7]], try Self.references(["--scale", "2"]))
  }

  @Test func webpIsLosslessByDefaultAndLossyOnRequest() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = try Self.export("fan.webp", in: dir, ["--loop", "2", "--background", "none"])
    let info = try MediaProbe.tool("webpinfo", ["-summary", out])
    #expect(info.contains("Number of frames: 8"))
    #expect(info.contains("Loop count      : 2"))
    #expect(info.contains("Alpha: 1"))
    #expect(info.contains("Lossless"))
    #expect(info.contains("Duration: 33") && info.contains("Duration: 34"))
    let reference = try Self.references(["--background", "none"])
    let frames = try MediaProbe.webpFrames(out)
    #expect(frames.count == 8)
    Self.expectLossless([frames[0], frames[7]], reference)
    let lossy = try Self.export("lossy.webp", in: dir, ["--quality", "80"])
    #expect(!(try MediaProbe.tool("webpinfo", [lossy])).contains("Lossless"))
    Self.expectClose(try MediaProbe.webpFrames(lossy).suffix(1), try Self.references().suffix(1))
  }

  @Test func videoReadsBackThroughFFmpeg() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let mp4 = try Self.export("fan.mp4", in: dir, ["--crf", "18"])
    let stream = try MediaProbe.stream(mp4)
    #expect(stream["codec_name"] == "h264" && stream["nb_read_frames"] == "8")
    let frames = try MediaProbe.frames(mp4, width: 428, height: 288)
    Self.expectClose([frames[0], frames[7]], try Self.references())
    let webm = try Self.export("fan.webm", in: dir, ["--background", "none"])
    let vp9 = try MediaProbe.stream(webm)
    #expect(vp9["codec_name"] == "vp9" && vp9["alpha_mode"] == "1")
    let decoded = try MediaProbe.frames(
      webm, width: 428, height: 288, decoder: ["-c:v", "libvpx-vp9"])
    #expect(decoded.count == 8)
    #expect(decoded.first?.pixel(x: 0, y: 0).a == 0)  // the corner stays transparent
    // An odd size is padded to an even one.
    let odd = try Self.export("odd.mp4", in: dir, frames: 2, ["--scale", "1.25"])
    let padded = try MediaProbe.stream(odd)
    #expect(padded["width"] == "536" && padded["height"] == "360")
  }

  @Test func videoWithoutFFmpegNamesThePackage() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("fan.mp4").path
    let result = try Subprocess.run(
      ["export", "deck_fan", "-o", out, "--frames", "2"], environment: ["PATH": "/nonexistent"])
    #expect(result.status == 1)
    #expect(result.err.split(separator: "\n").count == 1)
    #expect(result.err.contains("apt-get install ffmpeg"), Comment(rawValue: result.err))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// Text is shaped by one Pango engine behind a lock, whichever thread rasterises.
  @Test func textExportsAreTheSameOnOneThreadOrTwo() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    var outputs: [Data] = []
    for threads in ["1", "2"] {
      let out = dir.appendingPathComponent("stack-\(threads).apng").path
      let result = try Subprocess.run(
        ["export", "card_stack", "-o", out, "--frames", "6", "--threads", threads], deadline: 180)
      #expect(result.status == 0, Comment(rawValue: result.err))
      outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
    }
    #expect(outputs[0] == outputs[1])
  }

  @Test func exportsAreTheSameWhateverTheRunOrThreads() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let exports: [(String, [String])] = [
      ("frames", []), ("fan.apng", []), ("indexed.apng", ["--colors", "64"]), ("fan.gif", []),
      ("fan.webp", []),
    ]
    for (name, extra) in exports {
      var outputs: [[Data]] = []
      for (run, threads) in [(0, "1"), (1, "2"), (2, "2")] {
        let out = try Self.export(
          "\(run)-\(name)", in: dir, frames: 6, ["--threads", threads, "--scale", "0.5"] + extra)
        let files =
          name == "frames"
          ? try FileManager.default.contentsOfDirectory(atPath: out).sorted().map {
            try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0))
          } : [try Data(contentsOf: URL(fileURLWithPath: out))]
        outputs.append(files)
      }
      #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2], "\(name) differs")
    }
  }

  @Test(arguments: [
    (["-o", "fan.bmp"], "fan.bmp"),
    (["-o", "fan.gif", "--fps", "0"], "--fps"),
    (["-o", "fan.gif", "--fps", "0.01"], "--fps"),
    (["-o", "fan.webp", "--frames", "1e9"], "--frames"),
    (["-o", "fan.mp4", "--duration", "-1"], "--duration"),
    (["-o", "fan.gif", "--crf", "20"], "--crf"),
    (["-o", "fan.apng", "--quality", "50"], "--quality"),
    (["-o", "fan.gif", "--lossy", "33"], "--lossy"),
    (["-o", "fan.gif", "--colors", "1"], "--colors"),
    (["-o", "fan.gif", "--colors", "256"], "--colors"),
    (["-o", "fan.webp", "--colors", "16"], "--colors"),
    (["-o", "fan.apng", "--dither", "off"], "--colors"),
    (["-o", "fan.apng", "--lossy", "2"], "--lossy"),
    (["-o", "/nonexistent/fan.gif"], "folder does not exist"),
    (["-o", "/dev/full", "--format", "gif"], "not a regular file"),
    (["-o", "/dev/full", "--format", "webm"], "not a regular file"),
  ])
  func badRequestsAreOneLineAndLeaveNothing(arguments: [String], mentioning: String) throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let absolute = arguments.map { $0.hasPrefix("fan.") ? dir.appendingPathComponent($0).path : $0 }
    let result = try Subprocess.run(["export", "deck_fan"] + absolute)
    #expect(!result.timedOut && result.signal == nil)
    #expect(result.status != 0)
    #expect(result.err.split(separator: "\n").count == 1, Comment(rawValue: result.err))
    #expect(result.err.contains(mentioning), Comment(rawValue: result.err))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  @Test func filmstripHasExactlyTheFramesAskedWithLabels() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("strip.png").path
    let plain = try Subprocess.run([
      "export", "deck_fan", "-o", out, "--duration", "0.72", "--fps", "12", "--filmstrip", "9",
      "--input", "tap",
    ])
    #expect(plain.status == 0, Comment(rawValue: plain.err))
    var sheet = try RasterImage.decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
    #expect(sheet.width == 9 * 428 + 8 * 8 && sheet.height == 288)
    let labelled = try Subprocess.run([
      "export", "deck_fan", "-o", out, "--duration", "0.72", "--filmstrip", "9", "--labels",
    ])
    #expect(labelled.status == 0, Comment(rawValue: labelled.err))
    sheet = try RasterImage.decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
    #expect(sheet.width == 9 * 428 + 8 * 8 && sheet.height == 288 + 28)
    // Something dark is written in the label strip under the first frame.
    let strip = (288..<sheet.height).flatMap { y in (0..<428).map { sheet.pixel(x: $0, y: y) } }
    #expect(strip.contains { $0.r < 128 })
  }

  /// Ctrl-C stops the export: exit status 130 and nothing left behind (the
  /// ffmpeg child included). Under a deadline, as every subprocess here.
  @Test(arguments: ["long.apng", "long.mp4", "frames"])
  func ctrlCRemovesPartialOutput(name: String) throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    // As from a terminal: SIGINT neither blocked nor ignored in the child.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &interrupt)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let arguments = [
      builtBinary.path, "export", "deck_fan", "-o", dir.appendingPathComponent(name).path,
      "--frames", "5000",
    ]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var pid: pid_t = 0
    #expect(posix_spawn(&pid, builtBinary.path, &actions, &attributes, argv, environ) == 0)
    var status: Int32 = 0
    func exited() -> Bool { waitpid(pid, &status, WNOHANG) == pid }
    let deadline = Date().addingTimeInterval(60)
    var done = false
    while !done, try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty,
      Date() < deadline
    {
      done = exited()
      usleep(20_000)
    }
    usleep(300_000)  // a few frames in
    kill(pid, SIGINT)
    while !done && Date() < deadline {
      done = exited()
      usleep(20_000)
    }
    if !done {
      kill(pid, SIGKILL)
      waitpid(pid, &status, 0)
    }
    #expect(done && status & 0x7F == 0 && (status >> 8) & 0xFF == 130, "status \(status)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }
}
