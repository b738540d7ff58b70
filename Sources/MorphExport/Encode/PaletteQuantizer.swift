import CImageQuant
import MorphRender

/// A frame reduced to at most 255 colours by libimagequant: one palette index
/// per pixel. The entry after the colours is kept free: it is the encoders'
/// transparent index (GIF's at the end of its colour table, APNG's right
/// after the colours).
public struct QuantizedFrame: Sendable {
  public let width: Int
  public let height: Int
  public var indices: [UInt8]
  /// RGBA of each palette entry, as packed by `PaletteQuantizer.pack`.
  public var colors: [UInt32]
  /// The frame's true RGBA pixels, which the encoder judges change on.
  public var source: [UInt8]

  /// The colour each pixel shows, opaque (one packed RGBA word a pixel);
  /// with `clearUnderHalfAlpha`, pixels whose colour is under half alpha
  /// show nothing (0), as a transparent GIF clears them.
  public func shownColors(clearUnderHalfAlpha: Bool = false) -> [UInt32] {
    indices.map { i in
      let color = colors[Int(i)]
      return clearUnderHalfAlpha && color >> 24 < 128 ? 0 : color | 0xFF00_0000
    }
  }

  /// The frame's GIF colour table holds 1 << tableBits entries.
  public var tableBits: Int { Self.tableBits(colorCount: colors.count) }
  /// The last entry of the colour table, never a colour.
  public var transparentIndex: UInt8 { UInt8((1 << tableBits) - 1) }

  /// The bits of a GIF colour table (its LZW minimum code size) for
  /// `colorCount` colours and a transparent index after them: GIF's tables
  /// hold a power of two entries, at least 4. Fewer colours make a smaller
  /// table and narrower codes.
  public static func tableBits(colorCount: Int) -> Int {
    var bits = 2
    while 1 << bits < colorCount + 1 { bits += 1 }
    return bits
  }
}

/// Palettes for GIF and indexed APNG: per frame, or one shared by every frame (built from a
/// histogram of all of them, then used to remap each).
public enum PaletteQuantizer {
  /// The most colours a palette holds: one of GIF's 256 entries is the transparent index.
  public static let maxColors = 255
  /// The most colours a palette holds unless asked: with the transparent
  /// index, a 128-entry table, 7-bit symbols. On deck_fan at 2× (`bench
  /// --export`): 0.796× ffmpeg's size at 0.057 levels of mean error (ffmpeg:
  /// 0.062); 255 colours give 0.97× at 0.021.
  public static let defaultColors = 127
  /// Levels, summed over R, G and B, by which keeping what the screen shows
  /// may be further from the truth than storing the pixel anew (GIF and
  /// indexed APNG frames, `morph_gif_changes`). Measured on
  /// deck_fan at 2× (`bench --export`, ffmpeg's GIF: 0.062 levels of mean
  /// error), with 255 colours: 0 gives 1.03× ffmpeg's size at 0.014, 1 gives
  /// 0.97× at 0.022, 2 gives 0.90× at 0.038, 3 lets every grey shadow pixel
  /// lag a level (0.70× at 0.155). Fewer colours are the better trade: at
  /// ffmpeg's error, 1 with 121 colours is 0.77× and 2 with 141 colours 0.81×.
  public static let keepTolerance: Int32 = 1
  /// The fewest `colors` a palette may be limited to (libimagequant's own floor).
  public static let minColors = 2

  /// How frames are quantized.
  public struct Settings: Sendable {
    public var dither: Bool
    /// The most colours a palette holds, `minColors` to `maxColors`.
    public var colors: Int

    public init(dither: Bool = true, colors: Int = PaletteQuantizer.defaultColors) {
      self.dither = dither
      self.colors = min(max(colors, PaletteQuantizer.minColors), PaletteQuantizer.maxColors)
    }
  }

  static func attributes(_ settings: Settings) throws(RenderError) -> OpaquePointer {
    guard let attr = liq_attr_create() else { throw .encoder("cannot start libimagequant") }
    liq_set_max_colors(attr, Int32(settings.colors))
    return attr
  }

  /// `frame` with a palette of its own.
  public static func quantize(_ frame: RasterImage, _ settings: Settings) throws(RenderError)
    -> QuantizedFrame
  {
    let attr = try attributes(settings)
    defer { liq_attr_destroy(attr) }
    return try frame.pixels.withUnsafeBufferPointer { (buffer) throws(RenderError) in
      let image = try liqImage(attr, buffer.baseAddress!, frame)
      defer { liq_image_destroy(image) }
      var result: OpaquePointer?
      guard liq_image_quantize(image, attr, &result) == LIQ_OK, let result else {
        throw .encoder("libimagequant could not make a palette for a frame")
      }
      defer { liq_result_destroy(result) }
      return try remap(image, with: result, frame: frame, dither: settings.dither)
    }
  }

  static func liqImage(_ attr: OpaquePointer, _ pixels: UnsafePointer<UInt8>, _ frame: RasterImage)
    throws(RenderError) -> OpaquePointer
  {
    guard
      let image = liq_image_create_rgba(attr, pixels, Int32(frame.width), Int32(frame.height), 0)
    else { throw .encoder("libimagequant refused a \(frame.width)×\(frame.height) frame") }
    return image
  }

  static func remap(
    _ image: OpaquePointer, with result: OpaquePointer, frame: RasterImage, dither: Bool
  ) throws(RenderError) -> QuantizedFrame {
    liq_set_dithering_level(result, dither ? 1 : 0)
    var indices = [UInt8](repeating: 0, count: frame.width * frame.height)
    let status = indices.withUnsafeMutableBufferPointer {
      liq_write_remapped_image(result, image, $0.baseAddress!, $0.count)
    }
    guard status == LIQ_OK else { throw .encoder("libimagequant could not remap a frame") }
    let palette = liq_get_palette(result)!.pointee
    let colors = withUnsafeBytes(of: palette.entries) { raw in
      (0..<Int(palette.count)).map { i in
        pack(raw[i * 4], raw[i * 4 + 1], raw[i * 4 + 2], raw[i * 4 + 3])
      }
    }
    return QuantizedFrame(
      width: frame.width, height: frame.height, indices: indices, colors: colors,
      source: frame.pixels)
  }

  /// One RGBA colour in a word, the byte order `RasterImage` uses in memory.
  static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
    UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
  }

  /// One palette for every frame: `add` each frame, then `remap` each.
  public final class SharedPalette {
    private let attr: OpaquePointer
    private let histogram: OpaquePointer
    private var result: OpaquePointer?
    private let dither: Bool

    public init(_ settings: Settings) throws(RenderError) {
      attr = try PaletteQuantizer.attributes(settings)
      guard let histogram = liq_histogram_create(attr) else {
        liq_attr_destroy(attr)
        throw .encoder("cannot start a libimagequant histogram")
      }
      self.histogram = histogram
      self.dither = settings.dither
    }

    deinit {
      if let result { liq_result_destroy(result) }
      liq_histogram_destroy(histogram)
      liq_attr_destroy(attr)
    }

    /// Counts `frame`'s colours (first pass).
    public func add(_ frame: RasterImage) throws(RenderError) {
      try frame.pixels.withUnsafeBufferPointer { (buffer) throws(RenderError) in
        let image = try PaletteQuantizer.liqImage(attr, buffer.baseAddress!, frame)
        defer { liq_image_destroy(image) }
        guard liq_histogram_add_image(histogram, attr, image) == LIQ_OK else {
          throw .encoder("libimagequant could not count a frame's colours")
        }
      }
    }

    /// `frame` in the shared palette (second pass).
    public func remap(_ frame: RasterImage) throws(RenderError) -> QuantizedFrame {
      if result == nil {
        guard liq_histogram_quantize(histogram, attr, &result) == LIQ_OK, result != nil else {
          throw .encoder("libimagequant could not make the shared palette")
        }
      }
      return try frame.pixels.withUnsafeBufferPointer { (buffer) throws(RenderError) in
        let image = try PaletteQuantizer.liqImage(attr, buffer.baseAddress!, frame)
        defer { liq_image_destroy(image) }
        return try PaletteQuantizer.remap(image, with: result!, frame: frame, dither: dither)
      }
    }
  }
}
