import CDeflate
import CMorphEncode

/// A rectangle of an image's pixels.
public struct PixelBox: Hashable, Sendable, Codable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The whole of a `width`×`height` image.
  public init(width: Int, height: Int) { self.init(x: 0, y: 0, width: width, height: height) }

  public var area: Int { width * height }

  /// The smallest box holding both.
  public func union(_ other: PixelBox) -> PixelBox {
    let (x0, y0) = (min(x, other.x), min(y, other.y))
    let (x1, y1) = (max(x + width, other.x + other.width), max(y + height, other.y + other.height))
    return PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The part inside a `width`×`height` image.
  public func clamped(width w: Int, height h: Int) -> PixelBox {
    let (x0, y0) = (max(0, x), max(0, y))
    let (x1, y1) = (min(w, x + width), min(h, y + height))
    return PixelBox(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }
}

/// PNGs of live frames, where speed matters more than size (the browser
/// preview's stream over loopback): rows filtered Up without the per-row
/// search and deflated at libdeflate's fastest level — on deck_fan at 2×
/// about a third of `PNGEncoder`'s time, for files about 1.3× larger. Any
/// rectangle of an image can be encoded, so only what changed is sent. The
/// compressor and buffers are kept between frames; one encoder per thread.
public final class StreamingPNGEncoder {
  public static let level: Int32 = 1

  private let compressor: OpaquePointer
  private var filtered: [UInt8] = []
  private var compressed: [UInt8] = []

  public init() throws(RenderError) {
    guard let compressor = libdeflate_alloc_compressor(Self.level) else {
      throw .encoder("cannot allocate a PNG compressor")
    }
    self.compressor = compressor
  }

  deinit { libdeflate_free_compressor(compressor) }

  /// A complete PNG of the pixels of `image` inside `box` (which must lie inside it).
  public func encode(_ image: RasterImage, box: PixelBox) throws(RenderError) -> [UInt8] {
    guard box.width > 0, box.height > 0, box.x >= 0, box.y >= 0,
      box.x + box.width <= image.width, box.y + box.height <= image.height
    else {
      throw .invalidCanvas(
        "cannot encode \(box.width)×\(box.height) at (\(box.x), \(box.y)) of a "
          + "\(image.width)×\(image.height) image")
    }
    let count = (box.width * 4 + 1) * box.height
    if filtered.count < count { filtered = [UInt8](repeating: 0, count: count) }
    image.pixels.withUnsafeBufferPointer { pixels in
      filtered.withUnsafeMutableBufferPointer {
        morph_png_filter_up(
          pixels.baseAddress! + (box.y * image.width + box.x) * 4, image.width * 4,
          Int32(box.width), Int32(box.height), $0.baseAddress!)
      }
    }
    let bound = libdeflate_zlib_compress_bound(compressor, count)
    if compressed.count < bound { compressed = [UInt8](repeating: 0, count: bound) }
    let size = filtered.withUnsafeBufferPointer { input in
      compressed.withUnsafeMutableBufferPointer { output in
        libdeflate_zlib_compress(
          compressor, input.baseAddress, count, output.baseAddress, output.count)
      }
    }
    guard size > 0 else { throw .encoder("PNG compression failed") }
    var out = PNGChunks.signature
    out.reserveCapacity(size + 64)
    PNGChunks.append(&out, "IHDR", PNGEncoder.header(width: box.width, height: box.height))
    PNGChunks.append(&out, "IDAT", Array(compressed[0..<size]))
    PNGChunks.append(&out, "IEND", [])
    return out
  }

  /// The smallest box holding every pixel where `old` and `new` differ; the
  /// whole of `new` when their sizes differ, nil when they are the same.
  public static func changedBox(from old: RasterImage, to new: RasterImage) -> PixelBox? {
    guard old.width == new.width, old.height == new.height else {
      return PixelBox(width: new.width, height: new.height)
    }
    var rect: [Int32] = [0, 0, 0, 0]
    let changed = old.pixels.withUnsafeBufferPointer { a in
      new.pixels.withUnsafeBufferPointer { b in
        morph_diff_rect(a.baseAddress!, b.baseAddress!, Int32(new.width), Int32(new.height), &rect)
      }
    }
    guard changed != 0 else { return nil }
    return PixelBox(
      x: Int(rect[0]), y: Int(rect[1]), width: Int(rect[2]), height: Int(rect[3]))
  }
}
