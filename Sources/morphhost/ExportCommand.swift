import Foundation
import MorphCore
import MorphHost
import MorphRender
import MorphScript

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `morphhost export`: frames for review — a numbered PNG sequence, an
/// animated PNG, or a filmstrip contact sheet. Frames stream: each is
/// rasterised and written as it comes, so memory does not grow with length.
enum ExportCommand {
  static let usage = """
    Usage: morphhost export PLUGIN -o OUT [options]

    OUT is a folder (a numbered PNG sequence: frame-0001.png …), a .png or
    .apng file (an animated PNG), or with --filmstrip a .png contact sheet.

    What to export (one of):
      --progress-range A:B --frames N   controlled mode: N frames from progress A to B
                                        (default: the plugin's progressRange, 24 frames)
      --duration S --fps F              play the input for S seconds at F frames per second
                                        (default input: one tap at 0; fps default 30)
    At most \(maxFrames) frames either way (--duration × --fps counts too).
    Options:
      --input SCRIPT      the input to play with --duration
      --filmstrip N       one image of N frames side by side (--columns C to wrap)
      --scale S           pixels per point, in (0, 8] (default 1)
      --background C      #RRGGBB[AA], a name, or none (default white)
      --threads N         rasterising threads (default: one per core); the output is the same
      --set KEY=VALUE     override a prop (repeatable); --reduce-motion
    """

  /// The most frames one export makes.
  static let maxFrames = 10_000

  enum Timeline {
    case progress(ClosedRange<Double>?, frames: Int)
    case time(duration: Double, fps: Double)

    var frameCount: Int {
      switch self {
      case .progress(_, let frames): frames
      case .time(let duration, let fps): ExportCommand.frameCount(duration: duration, fps: fps)
      }
    }

    var fps: Double {
      if case .time(_, let fps) = self { return fps }
      return 30
    }
  }

  /// Frames at 0, 1/fps, … up to and including `duration` (both already bounded).
  static func frameCount(duration: Double, fps: Double) -> Int {
    Int((duration * fps + 1e-9).rounded(.down)) + 1
  }

  /// What `-o` names, decided by its extension before anything renders.
  enum Target {
    case folder(String)
    case animation(String)
    case filmstrip(String, columns: Int?)

    static let formats = "a folder (no extension), .png or .apng (an animated PNG)"

    init(_ out: String, filmstrip: Bool, columns: Int?) throws {
      let ext = URL(fileURLWithPath: out).pathExtension.lowercased()
      if filmstrip {
        guard ext == "png" else {
          throw UsageError("--filmstrip writes one .png image; got '\(out)'")
        }
        self = .filmstrip(out, columns: columns)
      } else if ext == "png" || ext == "apng" {
        self = .animation(out)
      } else if ext.isEmpty || Self.isFolder(out) {
        self = .folder(out)
      } else {
        throw UsageError("export writes \(Self.formats); got '\(out)'")
      }
      switch self {
      case .animation(let path), .filmstrip(let path, _): try OutputFile.checkReplaceable(path)
      case .folder(let path): try Self.checkFolder(path)
      }
    }

    static func isFolder(_ path: String) -> Bool {
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        && isDirectory.boolValue
    }

    /// A folder target must be a folder or not exist yet (its parent must).
    static func checkFolder(_ path: String) throws {
      if FileManager.default.fileExists(atPath: path) {
        guard isFolder(path) else { throw OutputError(path, "exists and is not a folder") }
      } else {
        try OutputFile.checkReplaceable(path)
      }
    }
  }

  static func run(_ arguments: [String], output: some TextOutput) throws -> Int32 {
    var options = CommandLineOptions(arguments)
    let play = try PlayOptions(&options)
    guard let out = try options.value("-o") ?? options.value("--output") else {
      throw UsageError("export needs -o OUT (a folder, a .png/.apng file); see --help")
    }
    let scale = try options.scale()
    let background = try RenderRequest.parseBackground(try options.value("--background"))
    let filmstrip = try options.int("--filmstrip", in: 1...100)
    let columns = try options.int("--columns", in: 1...100)
    let threads =
      try options.int("--threads", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
    let timeline = try readTimeline(&options, filmstrip: filmstrip)
    let given = try options.positional(name: "plugin")
    let target = try Target(out, filmstrip: filmstrip != nil, columns: columns)
    let path = try resolvePlugin(given, output: output)
    let source = try FrameSource(path, timeline: timeline, play: play)
    let (width, height) = try CairoRenderer.pixelSize(source.canvas, scale: scale)
    let stream = FrameStream(
      source: source, count: timeline.frameCount, threads: threads,
      progress: ProgressBar(total: timeline.frameCount, enabled: isatty(STDERR_FILENO) == 1)
    ) { list, renderer in try renderer.render(list, scale: scale, background: background) }
    defer { stream.progress.finish() }
    switch target {
    case .filmstrip(let path, let columns):
      output.write(try stream.filmstrip(to: path, frame: (width, height), columns: columns))
    case .animation(let path):
      output.write(try stream.animation(to: path, fps: timeline.fps))
    case .folder(let folder):
      output.write(try stream.sequence(in: folder))
    }
    return 0
  }

  static func readTimeline(_ options: inout CommandLineOptions, filmstrip: Int?) throws -> Timeline
  {
    let duration = try options.double("--duration", in: .positive(upTo: 600))
    let fps = try options.double("--fps", in: .within(0.1...240))
    let range = try options.value("--progress-range")
    let frames = try options.int("--frames", in: 1...maxFrames)
    if duration != nil || fps != nil {
      guard range == nil, frames == nil else {
        throw UsageError("use either --progress-range/--frames or --duration/--fps, not both")
      }
      let d = duration ?? 1
      if let n = filmstrip { return .time(duration: d, fps: Double(max(1, n - 1)) / d) }
      let f = fps ?? 30
      let count = frameCount(duration: d, fps: f)
      guard count <= maxFrames else {
        throw UsageError(
          "--duration \(String(format: "%g", d)) at --fps \(String(format: "%g", f)) is \(count) frames; at most \(maxFrames)"
        )
      }
      return .time(duration: d, fps: f)
    }
    let count = filmstrip ?? frames ?? 24
    guard let range else { return .progress(nil, frames: count) }
    let parts = range.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
    guard parts.count == 2, let a = parts[0], let b = parts[1], a.isFinite, b.isFinite, a <= b
    else { throw UsageError("--progress-range expects A:B with A <= B, got '\(range)'") }
    let bounds = RenderRequest.progressBounds
    guard bounds.contains(a), bounds.contains(b) else {
      throw UsageError("--progress-range: A and B must be in \(bounds), got '\(range)'")
    }
    return .progress(a...b, frames: count)
  }

  static func samples(_ r: ClosedRange<Double>, _ n: Int) -> [Double] {
    n == 1
      ? [r.lowerBound]
      : (0..<n).map { r.lowerBound + (r.upperBound - r.lowerBound) * Double($0) / Double(n - 1) }
  }
}

/// An export's frames on their way to one kind of output, through a `FramePipeline`.
struct FrameStream {
  let source: FrameSource
  let count: Int
  let threads: Int
  let progress: ProgressBar
  let render: @Sendable (DisplayList, CairoRenderer) throws -> RasterImage

  /// Frames rasterised and encoded as PNG on the workers, handed over in order.
  private func pngs(_ consume: (Int, [UInt8]) throws -> Void) throws {
    let render = self.render
    try FramePipeline.run(
      count: count, workers: threads, produce: source.next,
      work: { try render($0, $1).pngData() },
      consume: { i, png in
        try consume(i, png)
        progress.advance()
      })
  }

  func animation(to path: String, fps: Double) throws -> String {
    let file = try OutputFile(path)
    var apng = APNGStream(frameCount: count, delay: APNGWriter.delay(fps: fps))
    try pngs { _, png in try file.write(try apng.frame(png)) }
    try file.write(try apng.end())
    try file.commit()
    return "wrote \(path) (animated PNG, \(count) frames)"
  }

  func sequence(in folder: String) throws -> String {
    let sequence = try PNGSequence(folder)
    try pngs { i, png in try sequence.write(png, frame: i) }
    sequence.keep()
    return "wrote \(count) frames to \(folder)/"
  }

  /// The sheet is laid out (and an oversized one refused) before any frame renders.
  func filmstrip(to path: String, frame: (width: Int, height: Int), columns: Int?) throws
    -> String
  {
    var sheet = try Filmstrip.Sheet(
      Filmstrip.Layout(
        count: count, frameWidth: frame.width, frameHeight: frame.height, columns: columns))
    try FramePipeline.run(
      count: count, workers: threads, produce: source.next, work: render,
      consume: { i, image in
        try sheet.place(image, at: i)
        progress.advance()
      })
    try OutputFile.write(try sheet.image.pngData(), to: path)
    return "wrote \(path) (\(count) frames, \(sheet.image.width)×\(sheet.image.height))"
  }
}

/// Makes an export's display lists one at a time, in order, on one Lua state.
final class FrameSource {
  let canvas: Size
  private let make: (Int) throws -> DisplayList

  init(_ path: String, timeline: ExportCommand.Timeline, play: PlayOptions) throws {
    let document = try DocumentHost(path: path, options: play.component)
    canvas = document.canvas
    switch timeline {
    case .progress(let range, let frames):
      let points = ExportCommand.samples(range ?? document.progressRange, frames)
      make = { try document.frame(progress: points[$0]).list }
    case .time(_, let fps):
      let host = try document.componentHost(for: "--duration")
      var player = ScriptPlayer(try play.script() ?? .defaultTap)
      make = { i in
        try player.play(until: Double(i) / fps, on: host)
        return try host.frame().list
      }
    }
  }

  func next(_ index: Int) throws -> DisplayList { try make(index) }
}

/// A numbered PNG sequence in a folder, written frame by frame. Unless kept,
/// a failed export removes what it wrote (and the folder, if it made it).
final class PNGSequence {
  let folder: String
  private let madeFolder: Bool
  private var written: [String] = []
  private var kept = false

  init(_ folder: String) throws {
    self.folder = folder
    madeFolder = !FileManager.default.fileExists(atPath: folder)
    if madeFolder && mkdir(folder, 0o777) != 0 { throw OutputError(folder, errno) }
  }

  func write(_ png: [UInt8], frame index: Int) throws {
    let path = folder + "/" + String(format: "frame-%04d.png", index + 1)
    try OutputFile.write(png, to: path)
    written.append(path)
  }

  func keep() { kept = true }

  deinit {
    guard !kept else { return }
    for path in written { unlink(path) }
    if madeFolder { rmdir(folder) }
  }
}

/// A one-line progress bar on standard error (terminals only).
final class ProgressBar: @unchecked Sendable {
  let total: Int
  let enabled: Bool
  private var done = 0
  private let lock = NSLock()

  init(total: Int, enabled: Bool) {
    self.total = total
    self.enabled = enabled && total >= 8
  }

  func advance() {
    guard enabled else { return }
    lock.withLock {
      done += 1
      let width = 30
      let filled = width * done / max(1, total)
      let bar =
        String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
      _ = writeAll(Array("\r[\(bar)] \(done)/\(total) frames".utf8), to: STDERR_FILENO)
    }
  }

  func finish() {
    if enabled { _ = writeAll(Array("\n".utf8), to: STDERR_FILENO) }
  }
}
