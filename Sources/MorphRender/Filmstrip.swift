/// Frames side by side in one image, for reviewing motion at a glance.
public enum Filmstrip {
  /// Where each frame of a strip goes: left to right, in rows of `columns`,
  /// `gap` pixels apart. Composing and splitting a strip both use it.
  public struct Layout: Equatable, Sendable {
    public let count: Int
    public let frameWidth: Int
    public let frameHeight: Int
    public let columns: Int
    public let gap: Int

    public init(count: Int, frameWidth: Int, frameHeight: Int, columns: Int? = nil, gap: Int = 8) {
      self.count = count
      self.frameWidth = frameWidth
      self.frameHeight = frameHeight
      self.columns = max(1, min(columns ?? count, count))
      self.gap = gap
    }

    public var rows: Int { (count + columns - 1) / columns }
    public var width: Int { columns * frameWidth + (columns - 1) * gap }
    public var height: Int { rows * frameHeight + (rows - 1) * gap }

    /// The top-left pixel of frame `n`.
    public func origin(of n: Int) -> (x: Int, y: Int) {
      ((n % columns) * (frameWidth + gap), (n / columns) * (frameHeight + gap))
    }
  }

  /// Lays `frames` out as `Layout` says, with `background` between them. All
  /// frames must share one size.
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
    let layout = Layout(
      count: frames.count, frameWidth: first.width, frameHeight: first.height, columns: columns,
      gap: gap)
    let (width, height) = (layout.width, layout.height)
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
      let (x0, y0) = layout.origin(of: n)
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
