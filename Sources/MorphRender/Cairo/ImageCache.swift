import CCairo
import Foundation
import MorphCore

/// A PNG decoded to premultiplied ARGB32, never changed after decoding, so any thread may
/// draw from it.
final class DecodedImage: @unchecked Sendable {
  private let layer: CairoLayer
  var width: Int { layer.width }
  var height: Int { layer.height }
  var bytes: Int { Int(cairo_image_surface_get_stride(layer.surface)) * layer.height }

  init(_ layer: CairoLayer) { self.layer = layer }

  /// A surface over the decoded pixels for one draw (the caller destroys it): Cairo
  /// surfaces are not shared between threads, the pixels are.
  func surfaceForDrawing() -> OpaquePointer? {
    let stride = cairo_image_surface_get_stride(layer.surface)
    guard let data = cairo_image_surface_get_data(layer.surface) else { return nil }
    let surface: OpaquePointer = cairo_image_surface_create_for_data(
      data, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), stride)
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(surface)
      return nil
    }
    return surface
  }
}

/// The images frames draw, decoded once per file version (`ImageSource.stamp`) and shared
/// by every renderer, least recently used first out past `maxBytes` or `maxImages`.
public final class ImageCache: @unchecked Sendable {
  public static let shared = ImageCache()

  /// Decoded bytes kept at most (the images of one frame stay while it draws).
  public let maxBytes: Int
  public let maxImages: Int
  private let lock = NSLock()
  private var entries: [ImageSource: (image: DecodedImage, used: UInt64)] = [:]
  private var clock: UInt64 = 0
  /// How many files were decoded: the bench and tests read it.
  public private(set) var decodeCount = 0
  private var decodesByPath: [String: Int] = [:]

  /// How many times the file at `path` (as the image's source names it) was decoded: a
  /// count other images decoded meanwhile (other tests, other threads) do not move.
  public func decodeCount(ofPath path: String) -> Int {
    lock.lock()
    defer { lock.unlock() }
    return decodesByPath[path, default: 0]
  }

  public init(maxBytes: Int = 256 << 20, maxImages: Int = 64) {
    self.maxBytes = maxBytes
    self.maxImages = maxImages
  }

  /// Every image the commands draw (masks included), decoded or from the cache.
  func images(in commands: [DisplayCommand]) throws(RenderError) -> [ImageSource: DecodedImage] {
    var found: [ImageSource: DecodedImage] = [:]
    try collect(commands, into: &found)
    return found
  }

  private func collect(_ commands: [DisplayCommand], into found: inout [ImageSource: DecodedImage])
    throws(RenderError)
  {
    for command in commands {
      switch command {
      case .item(let item):
        guard case .image(let paint)? = item.fill, found[paint.source] == nil else { continue }
        found[paint.source] = try image(paint.source)
      case .beginGroup(let style):
        for mask in style.masks { try collect(mask, into: &found) }
      case .endGroup: continue
      }
    }
  }

  /// The decoded image of `source`, decoding it on first use.
  func image(_ source: ImageSource) throws(RenderError) -> DecodedImage {
    lock.lock()
    clock += 1
    if let entry = entries[source] {
      entries[source] = (entry.image, clock)
      lock.unlock()
      return entry.image
    }
    lock.unlock()
    let image = try Self.decode(source)
    lock.lock()
    defer { lock.unlock() }
    decodeCount += 1
    decodesByPath[source.path, default: 0] += 1
    entries[source] = (image, clock)
    evict()
    return image
  }

  /// Drops the least recently used images past the limits (never the newest).
  private func evict() {
    var total = entries.values.reduce(0) { $0 + $1.image.bytes }
    while entries.count > 1 && (total > maxBytes || entries.count > maxImages) {
      guard let oldest = entries.min(by: { $0.value.used < $1.value.used }) else { return }
      total -= oldest.value.image.bytes
      entries[oldest.key] = nil
    }
  }

  /// Decodes with Cairo's PNG reader (libpng), converted to ARGB32 whatever the file's
  /// format. The script layer checked the file's size, header and place before.
  private static func decode(_ source: ImageSource) throws(RenderError) -> DecodedImage {
    let name = (source.path as NSString).lastPathComponent
    let png: OpaquePointer = cairo_image_surface_create_from_png(source.path)
    defer { cairo_surface_destroy(png) }
    if let error = RenderError.check(cairo_surface_status(png), "decode the image '\(name)'") {
      throw error
    }
    // The size the script layer read and charged, or the file changed in between.
    guard Int(cairo_image_surface_get_width(png)) == source.pixelWidth,
      Int(cairo_image_surface_get_height(png)) == source.pixelHeight
    else { throw .io("the image '\(name)' changed while it was being read; save it again") }
    return DecodedImage(try CairoLayer.argb(copying: png, "convert the image '\(name)'"))
  }
}
