import Foundation
import MorphRender

/// What an export writes. The one table of formats: their names, the
/// extensions that choose them and what each can hold. A new format is a new
/// case here and a writer in `ExportWriter` (a vector one in `Exporter`).
public enum ExportFormat: String, CaseIterable, Sendable {
  /// Numbered PNGs in a folder: `frame-0001.png` …
  case pngSequence = "png"
  /// An animated PNG storing only what changed (indexed with `EncodingOptions.colors`).
  case apng
  /// An animated GIF, libimagequant's palettes.
  case gif
  /// An animated WebP, lossless unless `EncodingOptions.quality` is set.
  case webp
  /// H.264 video through ffmpeg.
  case mp4
  /// VP9 video through ffmpeg, alpha kept.
  case webm
  /// Lottie JSON: the display lists as one vector animation, never rasterised.
  case lottie
  /// A dotLottie archive (zip) holding the Lottie JSON.
  case dotLottie = "dotlottie"
  /// One PNG contact sheet with every frame side by side.
  case filmstrip

  /// The extensions that choose a format, in the order messages list them
  /// (`.png` alone is an animated PNG; no extension is a folder of PNGs).
  public static let extensions: [(name: String, format: ExportFormat)] = [
    ("png", .apng), ("apng", .apng), ("gif", .gif), ("webp", .webp), ("mp4", .mp4),
    ("webm", .webm), ("json", .lottie), ("lottie", .dotLottie),
  ]

  /// `extensions` by name.
  public static let byExtension = Dictionary(
    uniqueKeysWithValues: extensions.map { ($0.name, $0.format) })

  /// `.png .apng … .lottie`, for messages.
  public static var extensionList: String {
    extensions.map { "." + $0.name }.joined(separator: " ")
  }

  /// Every format's name, for messages.
  public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

  /// The format `path` asks for: its extension, or a PNG sequence for a
  /// folder (an existing one, or a path without an extension).
  public static func forPath(_ path: String) throws(ExportError) -> ExportFormat {
    let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
    if let format = byExtension[ext] { return format }
    if ext.isEmpty || isFolder(path) { return .pngSequence }
    throw .unknownFormat(
      "cannot tell the format of '\(path)': expected a folder (PNG frames) or "
        + extensionList)
  }

  /// Vector formats: made from the display lists, never rasterised (scale,
  /// threads and the raster settings do not apply).
  public var isVector: Bool { self == .lottie || self == .dotLottie }

  /// The largest frame side the format holds, if it has a limit.
  public var maxSide: Int? {
    switch self {
    case .webp: 16383
    case .gif: 65535
    default: nil
    }
  }

  /// The constant rate factors a video format takes; nil for the others.
  public var crfRange: ClosedRange<Int>? { VideoEncoder.Codec(self).map { 0...$0.maxCRF } }

  /// The frame size a format can hold, checked before anything renders.
  func checkSize(width: Int, height: Int) throws(ExportError) {
    if let limit = maxSide, width > limit || height > limit {
      throw .frameTooLarge(format: self, limit: limit, width: width, height: height)
    }
  }

  /// Checks the destination can be written before anything renders: a
  /// folder of frames must be a folder or not exist yet (its parent must); a
  /// file must be replaceable.
  func checkDestination(_ path: String) throws(ExportError) {
    guard self == .pngSequence else { return try OutputFile.checkReplaceable(path) }
    if FileManager.default.fileExists(atPath: path) {
      guard Self.isFolder(path) else {
        throw .unwritable(path: path, reason: "exists and is not a folder")
      }
    } else {
      try OutputFile.checkReplaceable(path)
    }
  }

  static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }
}

/// How an export's frames are encoded: timing and each format's settings.
/// Settings a format does not read are ignored.
public struct EncodingOptions: Sendable {
  /// Times the animation plays, 0 for ever (APNG, GIF, WebP).
  public var loops: Int
  /// Seconds the last frame is held longer (animations and video).
  public var hold: Double
  /// GIF: one palette for every frame (two passes) instead of one per frame.
  public var sharedPalette: Bool
  /// GIF and indexed APNG: dither when quantizing.
  public var dither: Bool
  /// GIF's palette size (default `PaletteQuantizer.defaultColors`); given for
  /// an APNG, it makes an indexed one.
  public var colors: Int?
  /// GIF: how many levels a pixel may be off for longer runs (0…`GIFEncoder.maxLossy`).
  public var lossy: Int
  /// Lossless APNG: the strongest compression (`APNGCompression.optimized`), far slower.
  public var optimize: Bool
  /// WebP: lossy at this quality in [0, 100]; nil is lossless.
  public var quality: Double?
  /// MP4 and WebM: the constant rate factor (nil: the codec's default).
  public var crf: Int?
  /// Filmstrip: each frame's time or progress under it.
  public var labels: Bool
  /// Filmstrip: frames a row (nil: all in one row).
  public var columns: Int?

  public init(
    loops: Int = 0, hold: Double = 0, sharedPalette: Bool = false, dither: Bool = true,
    colors: Int? = nil, lossy: Int = 0, quality: Double? = nil, crf: Int? = nil,
    labels: Bool = false, columns: Int? = nil, optimize: Bool = false
  ) {
    self.optimize = optimize
    self.loops = loops
    self.hold = hold
    self.sharedPalette = sharedPalette
    self.dither = dither
    self.colors = colors
    self.lossy = lossy
    self.quality = quality
    self.crf = crf
    self.labels = labels
    self.columns = columns
  }

  /// Times an animation may loop (GIF and APNG store 16 bits).
  public static let loopRange = 0...65535
  /// Seconds the last frame may be held.
  public static let holdRange = 0.0...600
  /// WebP's lossy qualities.
  public static let qualityRange = 0.0...100
  /// A filmstrip's frames a row.
  public static let columnsRange = 1...100

  /// Every frame is quantized to one palette, counted in a first pass over
  /// the frames: GIF's shared palette, and an indexed APNG.
  public func sharesOnePalette(_ format: ExportFormat) -> Bool {
    switch format {
    case .gif: sharedPalette
    case .apng: colors != nil
    default: false
    }
  }

  /// How a lossless APNG's frames are compressed.
  var apngCompression: APNGCompression { optimize ? .optimized : .standard }

  /// How GIF frames are quantized.
  var gifQuantizer: PaletteQuantizer.Settings {
    PaletteQuantizer.Settings(dither: dither, colors: colors ?? PaletteQuantizer.defaultColors)
  }

  /// Refuses a setting out of its range for `format`, before anything renders.
  func check(for format: ExportFormat) throws(ExportError) {
    func require(_ ok: Bool, _ text: String) throws(ExportError) {
      if !ok { throw .invalidSetting(text) }
    }
    try require(Self.loopRange.contains(loops), "loops must be in \(Self.loopRange), got \(loops)")
    try require(Self.holdRange.contains(hold), "hold must be in \(Self.holdRange) s, got \(hold)")
    if let colors {
      let range = PaletteQuantizer.minColors...PaletteQuantizer.maxColors
      try require(range.contains(colors), "colors must be in \(range), got \(colors)")
    }
    try require(
      !(optimize && colors != nil), "optimize applies to a lossless APNG, not an indexed one")
    try require(
      lossy >= 0 && lossy <= GIFEncoder.maxLossy, "lossy must be in 0…\(GIFEncoder.maxLossy)")
    if let quality {
      try require(
        Self.qualityRange.contains(quality),
        "quality must be in \(Self.qualityRange), got \(quality)")
    }
    if let crf, let codec = VideoEncoder.Codec(format) {
      try require(
        crf >= 0 && crf <= codec.maxCRF,
        "crf must be in 0…\(codec.maxCRF) for \(format.rawValue), got \(crf)")
    }
    if let columns {
      try require(
        Self.columnsRange.contains(columns),
        "columns must be in \(Self.columnsRange), got \(columns)")
    }
  }
}
