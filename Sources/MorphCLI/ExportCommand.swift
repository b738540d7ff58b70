import Foundation
import MorphCore
import MorphExport
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
/// sheet. The options become one `Exporter` (MorphExport), which streams the
/// frames; this command shows its progress and turns Ctrl-C into a cancel.
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
                                        (default: the plugin's progressRange, \(ExportTimeline.defaultFrames) frames)
      --duration S --fps F              play the input for S seconds at F frames per second
                                        (fps default \(Int(ExportTimeline.defaultFPS)))
    At most \(ExportTimeline.maxFrames) frames either way (--duration × --fps counts too).
    Options:
      --input SCRIPT      the input to play with --duration (default:
                          \(InputScript.defaultTapText); 'none' plays nothing)
      --scale S           pixels per point, \(Bounds.scale) (default 1; not Lottie: a vector
                          animation is drawn at the size its player is given)
      --margin M          points around the scene's frame (default \(Int(DocumentHost.defaultMargin)), as render's)
      --background C      #RRGGBB[AA], a name, or none (default white; Lottie: none)
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
      --optimize          APNG: the strongest lossless compression (zopfli, every row
                          filter tried), far slower; for a file written once
      --quality Q         WebP: lossy at quality Q in [0, 100] (default lossless)
      --crf N             MP4/WebM quality, lower is better (default 23 for H.264, 32 for VP9)
      --filmstrip N       one image of exactly N frames side by side (--columns C to wrap)
      --labels            the filmstrip shows each frame's time (or progress) under it
    \(ScriptLimits.optionsUsage(column: 22))
    Ctrl-C or SIGTERM stops the export, stops ffmpeg, removes what it wrote and exits
    with 130 (SIGINT) or 143 (SIGTERM).
    """

  static func run(_ arguments: [String], output: some TextOutput) throws -> ExitStatus {
    var options = CommandLineOptions(arguments)
    let play = try PlayOptions(&options)
    guard let out = try options.value("-o") ?? options.value("--output") else {
      throw UsageError(
        "export needs -o OUT (a folder, or a \(ExportFormat.extensionList) file); see --help"
      )
    }
    let filmstrip = try options.int("--filmstrip", in: 1...100)
    let format = try chooseFormat(
      name: try options.value("--format"), filmstrip: filmstrip != nil, output: out)
    try checkFormatOptions(arguments, format: format)
    var exporter = Exporter(plugin: "", timeline: try readTimeline(&options, filmstrip: filmstrip))
    exporter.scale = try options.scale()
    exporter.margin = try RenderRequest.readMargin(&options)
    exporter.ffmpeg = ProcessEnvironment.ffmpeg()
    let background = try options.value("--background")
    // Lottie plays over the page: a background only when one is asked for.
    exporter.background =
      format.isVector && background == nil ? nil : try RenderRequest.parseBackground(background)
    exporter.threads =
      try options.int("--threads", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
    exporter.encoding = try readEncoding(&options, format: format)
    exporter.component = play.component
    exporter.reads = play.reads
    exporter.fidelityReport = try options.value("--report")
    let given = try options.positional(name: "plugin")
    exporter.input = try play.script()
    exporter.plugin = try resolvePlugin(given, output: output)
    // Ctrl-C or SIGTERM: the export stops at its next check, stops ffmpeg, removes
    // what it wrote, and the command exits with 130 or 143.
    StopSignals.catchThem()
    defer { StopSignals.release() }
    // A pipe to ffmpeg that closes early is an error to report, not a signal to die of.
    signal(SIGPIPE, SIG_IGN)
    let progress = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
    defer { progress.finish() }
    let written: Exporter.Written
    do {
      written = try exporter.write(
        to: URL(fileURLWithPath: out), format: format,
        observer: ExportObserver(
          frameDone: progress.advance, isCancelled: { StopSignals.received != nil }))
    } catch .cancelled {
      progress.finish()
      throw StoppedBySignal(
        number: StopSignals.received ?? SIGINT, outcome: "no output was written")
    }
    if let fidelity = written.fidelity {
      FileHandle.standardError.write(Data("lottie: \(fidelity.summary)\n".utf8))
    }
    output.write(written.summary)
    return .success
  }

  /// From --format, --filmstrip and the output's extension.
  static func chooseFormat(name: String?, filmstrip: Bool, output: String) throws -> ExportFormat {
    let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
    if filmstrip {
      guard name == nil || name == "filmstrip", ext == "png" else {
        throw UsageError("--filmstrip writes one .png image; got '\(output)'")
      }
      return .filmstrip
    }
    if let name {
      guard let format = ExportFormat(rawValue: name.lowercased()), format != .filmstrip else {
        throw UsageError(
          "--format: expected one of \(ExportFormat.names) (a filmstrip: --filmstrip N), got '\(name)'"
        )
      }
      return format
    }
    do {
      return try ExportFormat.forPath(output)
    } catch {
      throw UsageError(
        "export writes a folder (PNG frames) or \(ExportFormat.extensionList); got '\(output)'"
      )
    }
  }

  /// Options only some formats read; giving one to another format is a usage error.
  static let specificOptions: [(option: String, formats: Set<ExportFormat>)] = [
    ("--loop", [.apng, .gif, .webp]),
    ("--hold", [.apng, .gif, .webp, .mp4, .webm]),
    ("--palette", [.gif]), ("--colors", [.gif, .apng]), ("--dither", [.gif, .apng]),
    ("--lossy", [.gif]), ("--optimize", [.apng]),
    ("--quality", [.webp]), ("--crf", [.mp4, .webm]),
    ("--labels", [.filmstrip]), ("--columns", [.filmstrip]),
    ("--report", [.lottie, .dotLottie]),
    // A vector animation has no pixels: players draw it at the size they are given.
    ("--scale", Set(ExportFormat.allCases.filter { !$0.isVector })),
  ]

  static func checkFormatOptions(_ arguments: [String], format: ExportFormat) throws {
    func given(_ option: String) -> Bool {
      arguments.contains { $0 == option || $0.hasPrefix(option + "=") }
    }
    for (option, formats) in specificOptions where !formats.contains(format) && given(option) {
      throw UsageError("\(option) does not apply to \(format.rawValue) output")
    }
    if format == .apng && given("--dither") && !given("--colors") {
      throw UsageError("--dither applies to an indexed APNG only: add --colors N")
    }
    if given("--optimize") && given("--colors") {
      throw UsageError("--optimize applies to a lossless APNG: drop --colors")
    }
  }

  /// The format options, each checked against its range with its option's name.
  static func readEncoding(_ options: inout CommandLineOptions, format: ExportFormat) throws
    -> EncodingOptions
  {
    var encoding = EncodingOptions()
    encoding.hold = try options.double("--hold", in: .within(EncodingOptions.holdRange)) ?? 0
    encoding.loops = try options.int("--loop", in: EncodingOptions.loopRange) ?? 0
    switch try options.value("--palette") {
    case nil, "frame": encoding.sharedPalette = false
    case "global": encoding.sharedPalette = true
    case let other?: throw UsageError("--palette expects frame or global, got '\(other)'")
    }
    switch try options.value("--dither") {
    case nil, "on": encoding.dither = true
    case "off": encoding.dither = false
    case let other?: throw UsageError("--dither expects on or off, got '\(other)'")
    }
    encoding.colors = try options.int(
      "--colors", in: PaletteQuantizer.minColors...PaletteQuantizer.maxColors)
    encoding.lossy = try options.int("--lossy", in: 0...GIFEncoder.maxLossy) ?? 0
    encoding.optimize = options.flag("--optimize")
    encoding.quality = try options.double("--quality", in: .within(EncodingOptions.qualityRange))
    encoding.crf = try options.int("--crf", in: format.crfRange ?? 0...63)
    encoding.labels = options.flag("--labels")
    encoding.columns = try options.int("--columns", in: EncodingOptions.columnsRange)
    return encoding
  }

  static func readTimeline(_ options: inout CommandLineOptions, filmstrip: Int?) throws
    -> ExportTimeline
  {
    let duration = try options.double(
      "--duration", in: .positive(upTo: ExportTimeline.maxDuration))
    let fps = try options.double("--fps", in: .within(VirtualTime.frameRates))
    let range = try options.value("--progress-range")
    let frames = try options.int("--frames", in: 1...ExportTimeline.maxFrames)
    if duration != nil || fps != nil {
      guard range == nil, frames == nil else {
        throw UsageError("use either --progress-range/--frames or --duration/--fps, not both")
      }
      let d = duration ?? ExportTimeline.defaultDuration
      let f = fps ?? ExportTimeline.defaultFPS
      if let n = filmstrip { return .time(duration: d, fps: f, frames: n) }
      let count = ExportTimeline.frameCount(duration: d, fps: f)
      guard count <= ExportTimeline.maxFrames else {
        throw UsageError(
          "--duration \(String(format: "%g", d)) at --fps \(String(format: "%g", f)) is \(count) frames; at most \(ExportTimeline.maxFrames)"
        )
      }
      return .time(duration: d, fps: f)
    }
    let count = filmstrip ?? frames ?? ExportTimeline.defaultFrames
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
}
