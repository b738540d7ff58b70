import CMorphEncode
import MorphRender

/// An animated PNG of palette indices (colour type 3), from frames quantized
/// to one palette shared by every frame (APNG has one PLTE): lossy, and far
/// smaller than truecolour. The palette is followed by one fully transparent
/// entry; after the first frame each frame stores the rectangle that changed
/// and blends it over the previous frame, its unchanged pixels taking that
/// entry (runs of it compress to almost nothing). In an opaque animation a
/// pixel is unchanged by the rule GIF frames use (`morph_gif_changes`: what
/// the screen shows is within `PaletteQuantizer.keepTolerance` of the new
/// colour's error); with translucent colours, when its index is the same, and
/// a rectangle whose changed pixels are not all opaque replaces its area
/// instead. Identical frames merge into one longer delay.
public struct IndexedAPNGEncoder {
  let level: Int32
  private var frames: APNGFrames
  private var palette: [UInt32] = []
  /// Which palette entries are opaque (1) or not (0).
  private var opaque = [UInt8](repeating: 0, count: 256)
  /// What each pixel shows (nil before the first frame).
  private var screen: Screen?
  private var size = (width: 0, height: 0)
  private var index = 0

  /// What the viewer shows: colours for an opaque palette (unchanged pixels
  /// are judged on colours there), else indices.
  private enum Screen {
    case colors([UInt32])
    case indices([UInt8])
  }

  /// libdeflate's level: indices compress far better than colours, so a
  /// slower level pays. On deck_fan at 2× (60 frames, 255 colours, `bench
  /// --export`): level 9 makes 1178 KiB in 2.0 s, 10 1087 KiB in 3.3 s, 11
  /// 1060 KiB in 4.8 s, 12 1047 KiB in 6.8 s.
  public static let defaultLevel: Int32 = 10

  public init(
    output: any EncodedOutput, count: Int, timing: FrameTiming,
    level: Int32 = IndexedAPNGEncoder.defaultLevel
  ) {
    frames = APNGFrames(output: output, count: count, timing: timing)
    self.level = level
  }

  /// The entry after the colours: fully transparent, for pixels that stay.
  private var transparentIndex: UInt8 { UInt8(palette.count) }

  public mutating func add(_ frame: QuantizedFrame) throws {
    defer { index += 1 }
    guard let screen else {
      try start(frame)
      return
    }
    guard frame.width == size.width, frame.height == size.height else {
      throw RenderError.invalidFrames("frame \(index + 1) differs in size from frame 1")
    }
    guard frame.colors == palette else {
      throw RenderError.invalidFrames(
        "frame \(index + 1) has a palette of its own; an APNG has one")
    }
    let stored: Making?
    switch screen {
    case .colors(var colors):
      self.screen = nil  // so `colors` is changed in place, not copied
      stored = opaquePart(frame, screen: &colors)
      self.screen = .colors(colors)
    case .indices(let indices):
      stored = translucentPart(frame, screen: indices)
      if stored != nil { self.screen = .indices(frame.indices) }
    }
    guard let stored else {
      frames.repeatShown(index)
      return
    }
    try frames.show(stored, from: index)
  }

  public mutating func finish() throws { try frames.finish() }

  private mutating func start(_ frame: QuantizedFrame) throws {
    guard frame.colors.count < 256 else {
      throw RenderError.invalidFrames("an indexed APNG holds at most 255 colours and a clear entry")
    }
    palette = frame.colors
    size = (frame.width, frame.height)
    for (i, color) in palette.enumerated() { opaque[i] = color >> 24 == 255 ? 1 : 0 }
    let entries = palette + [0]  // and the transparent entry
    let plte = entries.flatMap {
      [UInt8($0 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 >> 16 & 0xFF)]
    }
    try frames.start(
      header: PNGEncoder.header(width: frame.width, height: frame.height, channels: 1),
      chunks: [("PLTE", plte), ("tRNS", entries.map { UInt8($0 >> 24) })])
    try frames.show(
      part(frame.indices, rect: [0, 0, Int32(frame.width), Int32(frame.height)], blendOver: false),
      from: 0)
    screen =
      palette.allSatisfy { $0 >> 24 == 255 }
      ? .colors(frame.shownColors()) : .indices(frame.indices)
  }

  /// An opaque animation's changed rectangle, blending over; nil when no
  /// pixel changed beyond the tolerance.
  private func opaquePart(_ frame: QuantizedFrame, screen: inout [UInt32]) -> Making? {
    let display = frame.shownColors()
    var rect: [Int32] = [0, 0, 0, 0]
    let changed = morph_gif_changes(
      screen, frame.source, display, Int32(frame.width), Int32(frame.height),
      PaletteQuantizer.keepTolerance, 0, &rect)
    guard changed != 0 else { return nil }
    var crop = [UInt8](repeating: 0, count: Int(rect[2]) * Int(rect[3]))
    morph_crop_kept(
      &screen, frame.source, display, frame.indices, Int32(frame.width), rect,
      PaletteQuantizer.keepTolerance, transparentIndex, &crop)
    return part(crop, rect: rect, blendOver: true)
  }

  /// A translucent animation's rectangle of changed indices, blending over
  /// where every changed pixel is opaque; nil when no index changed.
  private func translucentPart(_ frame: QuantizedFrame, screen: [UInt8]) -> Making? {
    var rect: [Int32] = [0, 0, 0, 0]
    let changed = screen.withUnsafeBufferPointer { a in
      frame.indices.withUnsafeBufferPointer { b in
        morph_diff_rect_indices(
          a.baseAddress, b.baseAddress, Int32(frame.width), Int32(frame.height), &rect)
      }
    }
    guard changed != 0 else { return nil }
    var crop = crop(frame, over: screen, rect: rect, clearUnchanged: true)
    let blendOver = crop.changesOpaque
    if !blendOver { crop = self.crop(frame, over: screen, rect: rect, clearUnchanged: false) }
    return part(crop.indices, rect: rect, blendOver: blendOver)
  }

  /// Makes a stored part on another thread (`APNGFrames`).
  typealias Making = @Sendable () throws -> APNGFrames.Part

  /// `indices` (cropped to `rect`), compressed when `APNGFrames` asks.
  private func part(_ indices: [UInt8], rect: [Int32], blendOver: Bool) -> Making {
    let level = self.level
    return {
      let (width, height) = (Int(rect[2]), Int(rect[3]))
      let data = try indices.withUnsafeBufferPointer { (buffer) throws(RenderError) in
        try PNGEncoder.compressedRows(
          buffer.baseAddress!, stride: width, width: width, height: height, channels: 1,
          level: level)
      }
      return APNGFrames.Part(
        rect: (Int(rect[0]), Int(rect[1]), width, height), blendOver: blendOver, data: data)
    }
  }

  /// `rect` of the frame's indices, pixels whose index is unchanged cleared
  /// if asked; and whether every pixel kept as its own index is opaque.
  private func crop(
    _ frame: QuantizedFrame, over screen: [UInt8], rect: [Int32], clearUnchanged: Bool
  )
    -> (indices: [UInt8], changesOpaque: Bool)
  {
    var crop = [UInt8](repeating: 0, count: Int(rect[2]) * Int(rect[3]))
    let changesOpaque = screen.withUnsafeBufferPointer { shown in
      frame.indices.withUnsafeBufferPointer { indices in
        opaque.withUnsafeBufferPointer { opaque in
          crop.withUnsafeMutableBufferPointer {
            morph_crop_indices(
              shown.baseAddress, indices.baseAddress, Int32(frame.width), rect,
              opaque.baseAddress, clearUnchanged ? Int32(transparentIndex) : -1, $0.baseAddress)
          }
        }
      }
    }
    return (crop, changesOpaque != 0)
  }
}
