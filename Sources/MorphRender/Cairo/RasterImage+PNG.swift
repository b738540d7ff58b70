import CCairo
import Foundation

/// Feeds a byte array to Cairo's PNG reader.
private final class ByteSource {
  let bytes: [UInt8]
  var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }
}

extension RasterImage {
  /// The image as a PNG (8-bit RGBA, the pixels exactly), through `PNGEncoder`.
  public func pngData() throws(RenderError) -> [UInt8] {
    try PNGEncoder.encode(self)
  }

  /// Writes the image as a PNG file at `path`.
  public func writePNG(to path: String) throws(RenderError) {
    let bytes = try pngData()
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    } catch {
      throw .io("cannot write PNG to \(path): \(error.localizedDescription)")
    }
  }

  /// Decodes a PNG (any format libpng and Cairo read) into straight RGBA.
  public static func decodePNG(_ bytes: [UInt8]) throws(RenderError) -> RasterImage {
    let source = ByteSource(bytes)
    let png: OpaquePointer = withExtendedLifetime(source) {
      cairo_image_surface_create_from_png_stream(
        { closure, data, length in
          guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
          let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
          let count = Int(length)
          guard source.bytes.count - source.offset >= count else { return CAIRO_STATUS_READ_ERROR }
          source.bytes.withUnsafeBufferPointer {
            data.update(from: $0.baseAddress! + source.offset, count: count)
          }
          source.offset += count
          return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(source).toOpaque())
    }
    defer { cairo_surface_destroy(png) }
    if let error = RenderError.check(cairo_surface_status(png), "decode a PNG") { throw error }
    let layer = try CairoLayer.argb(copying: png, "convert a decoded PNG")
    let (width, height) = (layer.width, layer.height)
    var image = RasterImage(width: width, height: height)
    layer.withPixels(writes: false) { data, stride in
      image.pixels.withUnsafeMutableBufferPointer { out in
        PixelConversion.unpremultiply(
          data, stride: stride, width: width, height: height, into: out.baseAddress!)
      }
    }
    return image
  }
}
