/// Pixels a backend produced: 8-bit RGBA, straight (not premultiplied) alpha,
/// rows top to bottom with no padding. Terminal and PNG output start from it.
public struct RasterImage: Hashable, Sendable {
  public let width: Int
  public let height: Int
  public var pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height * 4, "pixel buffer size mismatch")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A transparent image.
  public init(width: Int, height: Int) {
    self.init(
      width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
  }

  /// The pixel at (x, y) as (r, g, b, a).
  public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let i = (y * width + x) * 4
    return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
  }
}
