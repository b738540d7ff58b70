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
/// animated PNG, GIF or WebP, an MP4 or WebM video, or a filmstrip contact
/// sheet. Frames stream: each is rasterised and encoded as it comes, so memory
/// does not grow with length.
enum ExportCommand {
  static let usage = """
    Usage: morphhost export PLUGIN -o OUT [options]

    OUT's extension chooses the format (or --format \(ExportFormat.names)):
      folder (no extension)  numbered PNGs: frame-0001.png …
      .png .apng             an animated PNG (only what changed is stored)
      .gif                   an animated GIF (libimagequant palettes)
      .webp                  an animated WebP (lossless unless --quality)
      .mp4 .webm             H.264 or VP9 video through ffmpeg (WebM keeps alpha)
      .json .lottie          Lottie vector animation (.lottie: a dotLottie archive);
                             --report FILE writes how each item mapped (docs/lottie.md)
      .png with --filmstrip  one contact sheet

    What to export (one of):
      --progress-range A:B --frames N   controlled mode: N frames from progress A to B
                                        (default: the plugin's progressRange, 24 frames)
      --duration S --fps F              play the input for S seconds at F frames per second
                                        (default input: one tap at 0; fps default 30)
    At most \(maxFrames) frames either way (--duration × --fps counts too).
    Options:
      --input SCRIPT      the input to play with --duration
      --scale S           pixels per point, 0.01…8 (default 1)
      --background C      #RRGGBB[AA], a name, or none (default white)
      --threads N         rasterising threads (default: one per core); the output is the same
      --set KEY=VALUE     override a prop (repeatable); --reduce-motion
      --loop N            times an animation plays, 0 for ever (default 0; apng gif webp)
      --hold S            hold the last frame S seconds longer (animations and video)
      --palette P         GIF: frame (a palette per frame, default) or global (one, two passes)
      --colors N          GIF: at most N colours a palette (\(PaletteQuantizer.minColors)-\(PaletteQuantizer.maxColors), default \(PaletteQuantizer.defaultColors));
                          APNG: indexed, one palette of N colours (lossy, much smaller)
      --dither on|off     GIF and indexed APNG dithering (default on)
      --lossy N           GIF: a pixel may be up to N levels off for longer runs, smaller
                          files (0-\(GIFEncoder.maxLossy), default 0; opaque backgrounds)
      --quality Q         WebP: lossy at quality Q in [0, 100] (default lossless)
      --crf N             MP4/WebM quality, lower is better (default 23 for H.264, 32 for VP9)
      --filmstrip N       one image of exactly N frames side by side (--columns C to wrap)
      --labels            the filmstrip shows each frame's time (or progress) under it
    \(ScriptLimits.optionsUsage(column: 22))
    Ctrl-C stops the export, removes what it wrote and exits with 130.
    """

  /// The most frames one export makes.
  static let maxFrames = 10_000

  enum Timeline {
    case progress(ClosedRange<Double>?, frames: Int)
    /// `filmstrip`: exactly that many frames spread over the duration, both ends included.
    case time(duration: Double, fps: Double, filmstrip: Int?)

    var frameCount: Int {
      switch self {
      case .progress(_, let frames): frames
      case .time(_, _, let n?): n
      case .time(let duration, let fps, nil): ExportCommand.frameCount(duration: duration, fps: fps)
      }
    }

    var fps: Double {
      if case .time(_, let fps, _) = self { return fps }
      return 30
    }

    /// Seconds into the input at frame `index` (time mode).
    func seconds(_ index: Int) -> Double {
      switch self {
      case .progress: 0
      case .time(let duration, _, let n?): n == 1 ? 0 : duration * Double(index) / Double(n - 1)
      case .time(_, let fps, nil): Double(index) / fps
      }
    }
  }

  /// Frames at 0, 1/fps, … up to and including `duration` (both already bounded).
  static func frameCount(duration: Double, fps: Double) -> Int {
    Int((duration * fps + 1e-9).rounded(.down)) + 1
  }

  /// Checks `-o` can be written before anything renders.
  enum Target {
    static func check(_ out: String, format: ExportFormat) throws {
      if format == .pngSequence {
        try checkFolder(out)
      } else {
        try OutputFile.checkReplaceable(out)
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

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    let play = try PlayOptions(&options)
    guard let out = try options.value("-o") ?? options.value("--output") else {
      throw UsageError(
        "export needs -o OUT (a folder, or a .png .apng .gif .webp .mp4 .webm .json .lottie file); see --help"
      )
    }
    let filmstrip = try options.int("--filmstrip", in: 1...100)
    let format = try ExportFormat.choose(
      name: try options.value("--format"), filmstrip: filmstrip != nil, output: out)
    try format.checkOptions(arguments)
    let scale = try options.scale()
    let background = try RenderRequest.parseBackground(try options.value("--background"))
    let threads =
      try options.int("--threads", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
    let timeline = try readTimeline(&options, filmstrip: filmstrip)
    let encoding = try EncodingOptions(&options, fps: timeline.fps)
    let report = try options.value("--report")
    let given = try options.positional(name: "plugin")
    try Target.check(out, format: format)
    let path = try resolvePlugin(given, output: output)
    let makeSource = { try FrameSource(path, timeline: timeline, play: play) }
    let source = try makeSource()
    if format.isVector {
      let export = LottieExport(
        format: format, path: out, report: report, timeline: timeline,
        // Lottie plays over the page: a background only when one is asked for.
        background: arguments.contains { $0.hasPrefix("--background") } ? background : nil)
      output.write(try export.write(source))
      return .success
    }
    let (width, height) = try CairoRenderer.pixelSize(source.canvas, scale: scale)
    try format.checkSize(width: width, height: height)
    let passes = encoding.sharesOnePalette(format) ? 2 : 1
    ByteBudget.returnLargeBuffers()
    let interruption = Interruption()
    interruption.start()
    defer { interruption.stop() }
    // A pipe to ffmpeg that closes early is an error to report, not a signal to die of.
    signal(SIGPIPE, SIG_IGN)
    let stream = FrameStream(
      source: source, makeSource: makeSource, count: timeline.frameCount, threads: threads,
      progress: ProgressBar(
        total: timeline.frameCount * passes, enabled: isatty(STDERR_FILENO) == 1),
      interruption: interruption
    ) { list, renderer in try renderer.render(list, scale: scale, background: background) }
    defer { stream.progress.finish() }
    let writer = ExportWriter(
      stream: stream, format: format, path: out, encoding: encoding, background: background,
      size: (width, height))
    output.write(try writer.write())
    return .success
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
      let f = fps ?? 30
      if let n = filmstrip { return .time(duration: d, fps: f, filmstrip: n) }
      let count = frameCount(duration: d, fps: f)
      guard count <= maxFrames else {
        throw UsageError(
          "--duration \(String(format: "%g", d)) at --fps \(String(format: "%g", f)) is \(count) frames; at most \(maxFrames)"
        )
      }
      return .time(duration: d, fps: f, filmstrip: nil)
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

/// An export's frames on their way to one output, through a `FramePipeline`:
/// made in order, rasterised (and for some formats encoded) on the workers,
/// handed over in order. Ctrl-C is noticed before each frame is made.
struct FrameStream {
  /// Bytes an export's frames may hold at once, shared by the frame queue
  /// and an APNG's compressions. At scale 2 (856×576 for the deck fan) a
  /// frame holds a few MB, so the counts (frames per worker, compressions
  /// waiting) bind first and nothing waits longer than before; at scale 8
  /// (3424×2304, 32 MB a raster, about 95 MB a frame while it is compressed)
  /// it lets one frame compress while the next renders, and keeps peak RSS
  /// under 400 MB. A frame larger than this still goes, alone.
  static let bytesInFlight = 160 << 20

  let source: FrameSource
  /// A fresh source for a second pass over the same frames (a shared GIF palette).
  let makeSource: () throws -> FrameSource
  let count: Int
  let threads: Int
  let progress: ProgressBar
  let interruption: Interruption
  let render: @Sendable (DisplayList, CairoRenderer) throws -> RasterImage
  /// What the frames in flight may hold, shared with the stages after them.
  let budget = ByteBudget(limit: FrameStream.bytesInFlight)

  /// Runs every frame of `source` through `work` (on the workers) into
  /// `consume` (in order), each frame holding `frameBytes` of the budget
  /// from before it is made until it is consumed.
  func run<Result>(
    _ source: FrameSource, frameBytes: Int,
    work: @escaping @Sendable (RasterImage) throws -> Result,
    consume: (Int, Result) throws -> Void
  ) throws {
    let render = self.render
    let interruption = self.interruption
    try FramePipeline.run(
      count: count, workers: threads, budget: budget, frameBytes: frameBytes,
      produce: { i in
        try interruption.check()
        return try source.next(i)
      },
      work: { list, renderer in try work(try render(list, renderer)) },
      consume: { i, result in
        try consume(i, result)
        progress.advance()
      })
    try interruption.check()
  }

  /// Every frame as a raster, in order, each holding `frameBytes` (at least its raster).
  func rasters(
    _ source: FrameSource? = nil, frameBytes: Int,
    _ consume: (Int, RasterImage) throws -> Void
  ) throws {
    try run(source ?? self.source, frameBytes: frameBytes, work: { $0 }, consume: consume)
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
    case .time:
      let host = try document.componentHost(for: "--duration")
      var player = ScriptPlayer(try play.script() ?? .defaultTap)
      make = { i in
        try player.play(until: timeline.seconds(i), on: host)
        return try host.frame().list
      }
    }
    label = { i in
      switch timeline {
      case .progress(let range, let frames):
        let points = ExportCommand.samples(range ?? document.progressRange, frames)
        return String(format: "%.3g", points[i])
      case .time: return String(format: "%.2f s", timeline.seconds(i))
      }
    }
  }

  /// What a filmstrip shows under frame `index`: its time, or its progress.
  let label: (Int) -> String

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
