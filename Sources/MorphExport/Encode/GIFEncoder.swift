import CGif
import CMorphEncode
import Foundation
import MorphRender

/// Collects what giflib writes, handed on after each frame.
private final class GIFBytes {
  var bytes: [UInt8] = []
}

/// An animated GIF through giflib, from frames already quantized. Opaque
/// animations store only the rectangle that changed (pixels unchanged inside
/// it may be transparent, so the previous frame shows through); animations
/// with transparency store whole frames, each cleared before the next.
/// Identical frames merge into one longer delay (GIF counts centiseconds). A
/// pixel is unchanged when what the screen shows there is at most
/// `tolerance` levels further from its true colour than what the new palette
/// would show: so palette shifts from frame to frame do not make unchanged
/// pixels look changed (re-storing those costs most of the file), and the
/// error never drifts, being judged against each frame's truth. The image
/// data is coded by `morph_gif_encode`, which lets each pixel take whichever
/// symbol it accepts (transparent where the pixel may be kept, or another
/// palette colour at least as close to its truth) that makes the LZW string
/// longest. `lossy` trades error for size.
public final class GIFEncoder {
  let output: any EncodedOutput
  let count: Int
  let timing: FrameTiming
  /// With a transparent background, pixels under half alpha become transparent.
  let transparent: Bool
  private let sink = GIFBytes()
  private var gif: UnsafeMutablePointer<GifFileType>?
  private var globalColors: [UInt32] = []
  /// The true RGBA pixels of the last frame stored: an identical frame merges
  /// into its delay (a transparent animation merges only those).
  private var stored: [UInt8] = []
  /// The palette colour the viewer shows there, one packed RGBA word a pixel.
  private var screen: [UInt32] = []
  private var held: HeldFrame<Part>?
  private var index = 0
  /// Levels a channel by which a pixel may take its left neighbour's symbol
  /// (0: never).
  let lossy: Int32
  /// The most `lossy` accepts.
  public static let maxLossy = 32

  struct Part {
    var rect: [Int32]
    /// LZW sub-blocks (`morph_gif_encode`).
    var data: [UInt8]
    var colors: [UInt32]
    var transparentIndex: UInt8
  }

  public init(
    output: any EncodedOutput, count: Int, timing: FrameTiming, transparent: Bool, lossy: Int = 0
  ) {
    self.lossy = Int32(min(max(lossy, 0), Self.maxLossy))
    self.output = output
    self.count = count
    self.timing = timing
    self.transparent = transparent
  }

  deinit {
    // An export that failed midway: release giflib's state; the bytes are dropped.
    if gif != nil { EGifCloseFile(gif, nil) }
  }

  public func add(_ frame: QuantizedFrame) throws {
    defer { index += 1 }
    guard frame.colors.count <= PaletteQuantizer.maxColors else {
      throw RenderError.invalidFrames(
        "frame \(index + 1) has \(frame.colors.count) colours; a GIF frame holds at most "
          + "\(PaletteQuantizer.maxColors) and a transparent index")
    }
    guard gif != nil else {
      try start(frame)
      return
    }
    guard frame.source.count == stored.count else {
      throw RenderError.invalidFrames("frame \(index + 1) differs in size from frame 1")
    }
    let display = frame.shownColors(clearUnderHalfAlpha: transparent)
    var rect: [Int32] = [0, 0, Int32(frame.width), Int32(frame.height)]
    // The same true pixels merge at once (with `lossy`, what the screen shows
    // may sit off the truth and would look changed to the rule below).
    let changed =
      frame.source != stored
      && (transparent
        || morph_gif_changes(
          screen, frame.source, display, Int32(frame.width), Int32(frame.height),
          PaletteQuantizer.keepTolerance, lossy, &rect) != 0)
    guard changed else {
      held?.end = index + 1
      return
    }
    try flush()
    held = HeldFrame(
      payload: try part(frame, display, rect: rect), first: index, end: index + 1)
  }

  private func start(_ frame: QuantizedFrame) throws {
    var status: Int32 = 0
    guard
      let gif = EGifOpen(
        Unmanaged.passUnretained(sink).toOpaque(),
        { file, data, length in
          guard let file, let data, let user = file.pointee.UserData else { return 0 }
          let sink = Unmanaged<GIFBytes>.fromOpaque(user).takeUnretainedValue()
          sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
          return length
        }, &status)
    else { throw RenderError.encoder("giflib could not start: \(Self.describe(status))") }
    self.gif = gif
    EGifSetGifVersion(gif, true)
    globalColors = frame.colors
    try check(
      Self.withColorMap(globalColors) {
        EGifPutScreenDesc(gif, Int32(frame.width), Int32(frame.height), 8, 0, $0)
      })
    if timing.loops != 1 {
      // NETSCAPE2.0: how many times to repeat after the first play (0: forever).
      let repeats = timing.loops == 0 ? 0 : min(timing.loops - 1, 65535)
      try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE))
      try check(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)))
      try check(EGifPutExtensionBlock(gif, 3, [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8)]))
      try check(EGifPutExtensionTrailer(gif))
    }
    stored = frame.source
    screen = [UInt32](repeating: 0, count: frame.width * frame.height)
    held = HeldFrame(payload: try whole(frame), first: 0, end: 1)
    try drain()
  }

  /// The whole frame, pixels under half alpha transparent when the background is.
  private func whole(_ frame: QuantizedFrame) throws -> Part {
    let rect = [0, 0, Int32(frame.width), Int32(frame.height)]
    guard transparent else {
      return try code(frame, frame.shownColors(), rect: rect, mode: MORPH_GIF_WHOLE)
    }
    let colors = frame.colors
    var exact = frame
    exact.indices = frame.indices.map { i in
      colors[Int(i)] >> 24 < 128 ? frame.transparentIndex : i
    }
    return try code(exact, [], rect: rect, mode: MORPH_GIF_EXACT)
  }

  /// What a changed frame stores: with transparency the whole frame (each
  /// is cleared before the next); opaque, `rect`, where pixels that already
  /// show their colour (within the tolerance) may be transparent.
  private func part(_ frame: QuantizedFrame, _ display: [UInt32], rect: [Int32]) throws -> Part {
    stored = frame.source
    guard !transparent else { return try whole(frame) }
    return try code(frame, display, rect: rect, mode: MORPH_GIF_CHANGES)
  }

  /// `rect` of `frame` as GIF image data; the screen takes what it will show.
  private func code(
    _ frame: QuantizedFrame, _ display: [UInt32], rect: [Int32], mode: morph_gif_mode
  ) throws -> Part {
    var data: UnsafeMutablePointer<UInt8>?
    let length = screen.withUnsafeMutableBufferPointer { screen in
      frame.source.withUnsafeBufferPointer { source in
        display.withUnsafeBufferPointer { display in
          frame.indices.withUnsafeBufferPointer { indices in
            frame.colors.withUnsafeBufferPointer { colors in
              var image = morph_gif_image(
                screen: mode == MORPH_GIF_EXACT ? nil : screen.baseAddress,
                source: source.baseAddress,
                display: mode == MORPH_GIF_EXACT ? nil : display.baseAddress,
                indices: indices.baseAddress, colors: colors.baseAddress,
                color_count: Int32(colors.count), width: Int32(frame.width), rect_x: rect[0],
                rect_y: rect[1], rect_width: rect[2], rect_height: rect[3],
                tolerance: PaletteQuantizer.keepTolerance, lossy: lossy,
                mode: Int32(mode.rawValue), code_size: Int32(frame.tableBits),
                transparent_index: frame.transparentIndex)
              return morph_gif_encode(&image, &data)
            }
          }
        }
      }
    }
    defer { free(data) }
    guard length > 0, let data else {
      throw RenderError.encoder("not enough memory to code a GIF frame")
    }
    return Part(
      rect: rect, data: Array(UnsafeBufferPointer(start: data, count: length)),
      colors: frame.colors, transparentIndex: frame.transparentIndex)
  }

  public func finish() throws {
    guard gif != nil else { throw RenderError.invalidFrames("an animation needs frames") }
    try flush()
    var status: Int32 = 0
    let closed = EGifCloseFile(gif, &status)
    gif = nil
    guard closed == GIF_OK else {
      throw RenderError.encoder("giflib could not finish: \(Self.describe(status))")
    }
    try drain()
  }

  /// Writes the held frame, now that its delay is known.
  private func flush() throws {
    guard let held, let gif else { return }
    self.held = nil
    let part = held.payload
    var control = GraphicsControlBlock(
      DisposalMode: transparent ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT, UserInputFlag: false,
      DelayTime: Int32(timing.duration(held.first, held.end, count: count, unitsPerSecond: 100)),
      TransparentColor: Int32(part.transparentIndex))
    var extensionBytes = [UInt8](repeating: 0, count: 4)
    _ = EGifGCBToExtension(&control, &extensionBytes)
    try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, extensionBytes))
    let local = part.colors == globalColors ? nil : part.colors
    try check(
      Self.withColorMap(local) {
        EGifPutImageDesc(gif, part.rect[0], part.rect[1], part.rect[2], part.rect[3], false, $0)
      })
    // The coded sub-blocks, each led by its length, then the empty one.
    try part.data.withUnsafeBufferPointer { (data) throws in
      var offset = 0
      while offset < data.count {
        try check(EGifPutCodeNext(gif, data.baseAddress! + offset))
        offset += Int(data[offset]) + 1
      }
    }
    try check(EGifPutCodeNext(gif, nil))
    try drain()
  }

  private func drain() throws {
    guard !sink.bytes.isEmpty else { return }
    let bytes = sink.bytes
    sink.bytes.removeAll(keepingCapacity: true)
    try output.write(bytes)
  }

  private func check(_ status: Int32) throws {
    guard status == GIF_OK else {
      throw RenderError.encoder("giflib failed: \(Self.describe(gif?.pointee.Error ?? 0))")
    }
  }

  static func describe(_ code: Int32) -> String {
    GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
  }

  /// A giflib colour map of `colors` (nil gives nil), sized as
  /// `QuantizedFrame.tableBits` says, for the call.
  static func withColorMap(
    _ colors: [UInt32]?, _ body: (UnsafeMutablePointer<ColorMapObject>?) -> Int32
  ) -> Int32 {
    guard let colors else { return body(nil) }
    let size = 1 << QuantizedFrame.tableBits(colorCount: colors.count)
    let entries = (0..<size).map { i -> GifColorType in
      let c = i < colors.count ? colors[i] : 0
      return GifColorType(
        Red: UInt8(c & 0xFF), Green: UInt8((c >> 8) & 0xFF), Blue: UInt8((c >> 16) & 0xFF))
    }
    guard let map = GifMakeMapObject(Int32(size), entries) else { return GIF_ERROR }
    defer { GifFreeMapObject(map) }
    return body(map)
  }
}
