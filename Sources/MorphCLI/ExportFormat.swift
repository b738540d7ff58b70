import Foundation
import MorphRender

/// What `export` writes. The one table of formats: extensions, names, and the
/// options that only some formats take.
enum ExportFormat: String, CaseIterable {
  case pngSequence = "png"
  case apng
  case gif
  case webp
  case mp4
  case webm
  /// Lottie JSON (vector; `.lottie` a dotLottie archive of it).
  case lottie
  case dotLottie = "dotlottie"
  case filmstrip

  /// The extensions that choose a format (`.png` alone is an animated PNG, or
  /// a sheet with --filmstrip; no extension is a folder of PNGs).
  static let byExtension: [String: ExportFormat] = [
    "png": .apng, "apng": .apng, "gif": .gif, "webp": .webp, "mp4": .mp4, "webm": .webm,
    "json": .lottie, "lottie": .dotLottie,
  ]

  static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

  /// From --format, --filmstrip and the output's extension.
  static func choose(name: String?, filmstrip: Bool, output: String) throws -> ExportFormat {
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
          "--format: expected one of \(names) (a filmstrip: --filmstrip N), got '\(name)'")
      }
      return format
    }
    if let format = byExtension[ext] { return format }
    if ext.isEmpty || ExportCommand.Target.isFolder(output) { return .pngSequence }
    throw UsageError(
      "export writes a folder (PNG frames) or .png .apng .gif .webp .mp4 .webm .json .lottie; got '\(output)'"
    )
  }

  /// Options only some formats read; giving one to another format is a usage error.
  static let specificOptions: [(option: String, formats: Set<ExportFormat>)] = [
    ("--loop", [.apng, .gif, .webp]),
    ("--hold", [.apng, .gif, .webp, .mp4, .webm]),
    ("--palette", [.gif]), ("--colors", [.gif, .apng]), ("--dither", [.gif, .apng]),
    ("--lossy", [.gif]),
    ("--quality", [.webp]), ("--crf", [.mp4, .webm]),
    ("--labels", [.filmstrip]), ("--columns", [.filmstrip]),
    ("--report", [.lottie, .dotLottie]),
  ]

  /// Vector formats: made from the display lists, never rasterised.
  var isVector: Bool { self == .lottie || self == .dotLottie }

  func checkOptions(_ arguments: [String]) throws {
    func given(_ option: String) -> Bool {
      arguments.contains { $0 == option || $0.hasPrefix(option + "=") }
    }
    for (option, formats) in Self.specificOptions where !formats.contains(self) && given(option) {
      throw UsageError("\(option) does not apply to \(rawValue) output")
    }
    if self == .apng && given("--dither") && !given("--colors") {
      throw UsageError("--dither applies to an indexed APNG only: add --colors N")
    }
  }

  /// The frame size a format can hold, checked before anything renders.
  func checkSize(width: Int, height: Int) throws {
    let limit: Int? =
      switch self {
      case .webp: 16383
      case .gif: 65535
      default: nil
      }
    if let limit, width > limit || height > limit {
      throw UsageError("\(rawValue) frames are at most \(limit) px a side; got \(width)×\(height)")
    }
  }
}

/// The format options of one export, read and checked before anything renders.
struct EncodingOptions {
  var timing: FrameTiming
  var sharedPalette = false
  var dither = true
  /// `--colors`: GIF's palette size (default `PaletteQuantizer.defaultColors`);
  /// given for an APNG, it makes an indexed one.
  var colors: Int?
  var lossy = 0
  var quality: Double?
  var crf: Int?
  var labels = false
  var columns: Int?

  /// Every frame is quantized to one palette, counted in a first pass over
  /// the frames: GIF's `--palette global`, and an indexed APNG.
  func sharesOnePalette(_ format: ExportFormat) -> Bool {
    switch format {
    case .gif: sharedPalette
    case .apng: colors != nil
    default: false
    }
  }

  /// How GIF frames are quantized.
  var gifQuantizer: PaletteQuantizer.Settings {
    PaletteQuantizer.Settings(dither: dither, colors: colors ?? PaletteQuantizer.defaultColors)
  }

  init(_ options: inout CommandLineOptions, fps: Double) throws {
    let hold = try options.double("--hold", in: .within(0...600)) ?? 0
    let loops = try options.int("--loop", in: 0...65535) ?? 0
    timing = FrameTiming(fps: fps, hold: hold, loops: loops)
    switch try options.value("--palette") {
    case nil, "frame": sharedPalette = false
    case "global": sharedPalette = true
    case let other?: throw UsageError("--palette expects frame or global, got '\(other)'")
    }
    switch try options.value("--dither") {
    case nil, "on": dither = true
    case "off": dither = false
    case let other?: throw UsageError("--dither expects on or off, got '\(other)'")
    }
    colors = try options.int(
      "--colors", in: PaletteQuantizer.minColors...PaletteQuantizer.maxColors)
    lossy = try options.int("--lossy", in: 0...GIFEncoder.maxLossy) ?? 0
    quality = try options.double("--quality", in: .within(0...100))
    crf = try options.int("--crf", in: 0...63)
    labels = options.flag("--labels")
    columns = try options.int("--columns", in: 1...100)
  }
}
