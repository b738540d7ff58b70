/// Frames side by side in one image, for reviewing motion at a glance.
public enum Filmstrip {
  /// The widest or tallest sheet, in pixels.
  public static let maxSide = 16384

  /// Where each frame of a strip goes: left to right, in rows of `columns`,
  /// `gap` pixels apart. Composing, streaming and splitting a strip all use it.
  public struct Layout: Equatable, Sendable {
    public let count: Int
    public let frameWidth: Int
    public let frameHeight: Int
    public let columns: Int
    public let gap: Int
    /// Room under each frame for its label (0: no labels).
    public let labelHeight: Int

    public init(
      count: Int, frameWidth: Int, frameHeight: Int, columns: Int? = nil, gap: Int = 8,
      labelHeight: Int = 0
    ) {
      self.count = count
      self.frameWidth = frameWidth
      self.frameHeight = frameHeight
      self.columns = max(1, min(columns ?? count, count))
      self.gap = gap
      self.labelHeight = labelHeight
    }

    public var rows: Int { (count + columns - 1) / columns }
    public var width: Int { columns * frameWidth + (columns - 1) * gap }
    public var height: Int { rows * (frameHeight + labelHeight) + (rows - 1) * gap }

    /// The top-left pixel of frame `n`.
    public func origin(of n: Int) -> (x: Int, y: Int) {
      ((n % columns) * (frameWidth + gap), (n / columns) * (frameHeight + labelHeight + gap))
    }

    /// Refuses a sheet larger than `maxSide` a side, before any frame exists.
    public func check() throws(RenderError) {
      // Frames are at most 16384 px a side and counts small, so no product overflows.
      guard width <= maxSide, height <= maxSide else {
        throw RenderError.invalidCanvas(
          "filmstrip \(width)×\(height) is too large (max \(maxSide) px a side)")
      }
    }
  }

  /// The label room for frames `frameHeight` pixels tall: readable, never more than the frame.
  public static func labelHeight(frameHeight: Int) -> Int {
    min(max(16, frameHeight / 10), 48)
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
    var sheet = try Sheet(
      Layout(
        count: frames.count, frameWidth: first.width, frameHeight: first.height, columns: columns,
        gap: gap), background: background)
    for (n, frame) in frames.enumerated() { try sheet.place(frame, at: n) }
    return sheet.image
  }

  /// A sheet laid out before any frame exists, so an oversized one is refused
  /// up front and frames can be placed as they are rendered, in any order.
  public struct Sheet {
    public let layout: Layout
    public internal(set) var image: RasterImage

    public init(
      _ layout: Layout,
      background: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (255, 255, 255, 255)
    ) throws(RenderError) {
      guard layout.count >= 1 else {
        throw RenderError.invalidDisplayList("a filmstrip needs at least one frame")
      }
      try layout.check()
      self.layout = layout
      var pixels = [UInt8](repeating: 0, count: layout.width * layout.height * 4)
      for i in stride(from: 0, to: pixels.count, by: 4) {
        pixels[i] = background.r
        pixels[i + 1] = background.g
        pixels[i + 2] = background.b
        pixels[i + 3] = background.a
      }
      image = RasterImage(width: layout.width, height: layout.height, pixels: pixels)
    }

    /// Copies frame `n` into its cell.
    public mutating func place(_ frame: RasterImage, at n: Int) throws(RenderError) {
      guard frame.width == layout.frameWidth, frame.height == layout.frameHeight else {
        throw RenderError.invalidDisplayList("filmstrip frames differ in size")
      }
      guard n >= 0, n < layout.count else {
        throw RenderError.invalidDisplayList("filmstrip frame \(n + 1) is past the sheet")
      }
      let (x0, y0) = layout.origin(of: n)
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
