/// Frames side by side in one image, for reviewing motion at a glance.
public enum Filmstrip {
  /// Lays `frames` left to right (or in rows of `columns`) with `gap` pixels
  /// of `background` between them. All frames must share one size.
  public static func compose(
    _ frames: [RasterImage], columns: Int? = nil, gap: Int = 8,
    background: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (255, 255, 255, 255)
  ) throws(RenderError) -> RasterImage {
    guard let first = frames.first else {
      throw RenderError.invalidDisplayList("a filmstrip needs at least one frame")
    }
    guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
      throw RenderError.invalidDisplayList("filmstrip frames differ in size")
    }
    let cols = max(1, min(columns ?? frames.count, frames.count))
    let rows = (frames.count + cols - 1) / cols
    let width = cols * first.width + (cols - 1) * gap
    let height = rows * first.height + (rows - 1) * gap
    guard width <= 16384, height <= 16384 else {
      throw RenderError.invalidCanvas(
        "filmstrip \(width)×\(height) is too large (max 16384 px a side)")
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for i in stride(from: 0, to: pixels.count, by: 4) {
      pixels[i] = background.r
      pixels[i + 1] = background.g
      pixels[i + 2] = background.b
      pixels[i + 3] = background.a
    }
    for (n, frame) in frames.enumerated() {
      let x0 = (n % cols) * (first.width + gap)
      let y0 = (n / cols) * (first.height + gap)
      for y in 0..<frame.height {
        let src = y * frame.width * 4
        let dst = ((y0 + y) * width + x0) * 4
        pixels.replaceSubrange(
          dst..<(dst + frame.width * 4), with: frame.pixels[src..<(src + frame.width * 4)])
      }
    }
    return RasterImage(width: width, height: height, pixels: pixels)
  }
}
