/// Frames side by side in one image, for reviewing motion at a glance.
public enum Filmstrip {
  /// The widest or tallest sheet, in pixels.
  public static let maxSide = 16384

  /// Lays `frames` left to right (or in rows of `columns`) with `gap` pixels
  /// of `background` between them. All frames must share one size.
  public static func compose(
    _ frames: [RasterImage], columns: Int? = nil, gap: Int = 8,
    background: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (255, 255, 255, 255)
  ) throws(RenderError) -> RasterImage {
    guard let first = frames.first else {
      throw RenderError.invalidDisplayList("a filmstrip needs at least one frame")
    }
    var sheet = try Sheet(
      frameWidth: first.width, frameHeight: first.height, count: frames.count, columns: columns,
      gap: gap, background: background)
    for (n, frame) in frames.enumerated() { try sheet.place(frame, at: n) }
    return sheet.image
  }

  /// A sheet laid out before any frame exists, so an oversized one is refused
  /// up front and frames can be placed as they are rendered, in any order.
  public struct Sheet {
    public let frameWidth: Int
    public let frameHeight: Int
    public let columns: Int
    public let gap: Int
    public private(set) var image: RasterImage

    public init(
      frameWidth: Int, frameHeight: Int, count: Int, columns: Int? = nil, gap: Int = 8,
      background: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (255, 255, 255, 255)
    ) throws(RenderError) {
      guard count >= 1 else {
        throw RenderError.invalidDisplayList("a filmstrip needs at least one frame")
      }
      let (width, height, cols) = try Self.size(
        frameWidth: frameWidth, frameHeight: frameHeight, count: count, columns: columns, gap: gap)
      self.frameWidth = frameWidth
      self.frameHeight = frameHeight
      self.columns = cols
      self.gap = gap
      var pixels = [UInt8](repeating: 0, count: width * height * 4)
      for i in stride(from: 0, to: pixels.count, by: 4) {
        pixels[i] = background.r
        pixels[i + 1] = background.g
        pixels[i + 2] = background.b
        pixels[i + 3] = background.a
      }
      image = RasterImage(width: width, height: height, pixels: pixels)
    }

    /// The sheet's pixel size and column count, or why it cannot be made.
    public static func size(
      frameWidth: Int, frameHeight: Int, count: Int, columns: Int?, gap: Int
    ) throws(RenderError) -> (width: Int, height: Int, columns: Int) {
      let cols = max(1, min(columns ?? count, count))
      let rows = (count + cols - 1) / cols
      // Frames are at most 16384 px a side and counts small, so no product overflows.
      let width = cols * frameWidth + (cols - 1) * gap
      let height = rows * frameHeight + (rows - 1) * gap
      guard width <= maxSide, height <= maxSide else {
        throw RenderError.invalidCanvas(
          "filmstrip \(width)×\(height) is too large (max \(maxSide) px a side)")
      }
      return (width, height, cols)
    }

    /// Copies frame `n` into its cell.
    public mutating func place(_ frame: RasterImage, at n: Int) throws(RenderError) {
      guard frame.width == frameWidth, frame.height == frameHeight else {
        throw RenderError.invalidDisplayList("filmstrip frames differ in size")
      }
      let x0 = (n % columns) * (frameWidth + gap)
      let y0 = (n / columns) * (frameHeight + gap)
      guard y0 + frameHeight <= image.height else {
        throw RenderError.invalidDisplayList("filmstrip frame \(n + 1) is past the sheet")
      }
      let width = image.width
      for y in 0..<frame.height {
        let src = y * frame.width * 4
        let dst = ((y0 + y) * width + x0) * 4
        image.pixels.replaceSubrange(
          dst..<(dst + frame.width * 4), with: frame.pixels[src..<(src + frame.width * 4)])
      }
    }
  }
}
