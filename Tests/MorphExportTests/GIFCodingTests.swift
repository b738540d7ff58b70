import CGif
import Foundation
import MorphRender
import Testing

@testable import MorphExport

/// The GIF encoder's own LZW coder (`morph_gif_encode`), read back by
/// giflib's decoder: every pixel shows a colour it accepts, runs compress as
/// LZW compresses them, and a pixel with two equally good symbols takes the
/// one that makes the string longer.
@Suite struct GIFCodingTests {
  /// Where giflib reads from: the bytes and how far it has read.
  private final class Reader {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  /// Every frame of an opaque GIF as the viewer shows it (packed RGB words;
  /// frames drawn over the previous one, without their transparent index), by giflib.
  static func decode(_ bytes: [UInt8]) throws -> [[UInt32]] {
    let reader = Reader(bytes)
    var status: Int32 = 0
    let gif = DGifOpen(
      Unmanaged.passUnretained(reader).toOpaque(),
      { file, buffer, length in
        guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
        let reader = Unmanaged<Reader>.fromOpaque(user).takeUnretainedValue()
        let count = min(Int(length), reader.bytes.count - reader.offset)
        for k in 0..<count { buffer[k] = reader.bytes[reader.offset + k] }
        reader.offset += count
        return Int32(count)
      }, &status)
    guard let gif else { throw RenderError.io("giflib could not open: \(status)") }
    defer { DGifCloseFile(gif, &status) }
    guard DGifSlurp(gif) == GIF_OK else {
      throw RenderError.io("giflib could not read: \(gif.pointee.Error)")
    }
    let width = Int(gif.pointee.SWidth)
    var screen = [UInt32](repeating: 0, count: width * Int(gif.pointee.SHeight))
    var frames: [[UInt32]] = []
    for n in 0..<Int(gif.pointee.ImageCount) {
      let image = gif.pointee.SavedImages[n]
      let desc = image.ImageDesc
      let map = (desc.ColorMap ?? gif.pointee.SColorMap)!.pointee
      var control = GraphicsControlBlock()
      guard DGifSavedExtensionToGCB(gif, Int32(n), &control) == GIF_OK else {
        throw RenderError.io("frame \(n) has no graphics control block")
      }
      for y in 0..<Int(desc.Height) {
        for x in 0..<Int(desc.Width) {
          let index = image.RasterBits[y * Int(desc.Width) + x]
          guard index != control.TransparentColor else { continue }
          let c = map.Colors[Int(index)]
          screen[(Int(desc.Top) + y) * width + Int(desc.Left) + x] =
            UInt32(c.Red) | UInt32(c.Green) << 8 | UInt32(c.Blue) << 16
        }
      }
      frames.append(screen)
    }
    return frames
  }

  /// A fixed pseudo-random number for `n` (a multiplicative hash): the test
  /// data is the same on every run.
  static func noise(_ n: Int, _ modulo: Int) -> Int {
    Int((UInt64(n) &* 0x9E37_79B9_7F4A_7C15) >> 40) % modulo
  }

  /// As `noise`, scrambled further (splitmix64's finaliser), so that
  /// neighbours share no pattern LZW could learn.
  static func scrambled(_ n: Int, _ modulo: Int) -> Int {
    var z = UInt64(n) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) >> 1) % modulo
  }

  static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
    UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | 0xFF00_0000
  }

  /// What a strict LZW decoder read from an image's data.
  struct StrictRead {
    var symbols: [UInt8] = []
    var codeSize = 0
    /// The width grew just before the end code (the code added for the last string filled it).
    var endWidened = false
    /// Clear codes after the first.
    var clears = 0
    /// Codes read while the table was full (no clear when it filled).
    var codesOnAFullTable = 0
  }

  /// The first image's data, read by a strict LZW decoder that must meet the
  /// end code, where it must be (giflib stops at the pixel count and never
  /// reads it).
  static func strictRead(_ gif: [UInt8]) throws -> StrictRead {
    var at = 13 + (gif[10] & 0x80 != 0 ? 3 << (Int(gif[10] & 7) + 1) : 0)
    while gif[at] == 0x21 {  // extensions: label, then sub-blocks
      at += 2
      while gif[at] != 0 { at += Int(gif[at]) + 1 }
      at += 1
    }
    guard gif[at] == 0x2C else { throw RenderError.io("no image descriptor") }
    let flags = gif[at + 9]
    at += 10 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0)
    let minimum = Int(gif[at])
    at += 1
    var data: [UInt8] = []
    while gif[at] != 0 {
      data += gif[(at + 1)..<(at + 1 + Int(gif[at]))]
      at += Int(gif[at]) + 1
    }
    let (clear, end) = (1 << minimum, (1 << minimum) + 1)
    var table: [[UInt8]] = []
    var width = minimum + 1
    var previous: [UInt8]? = nil
    var read = StrictRead(codeSize: minimum)
    var bit = 0
    var cleared = false
    while true {
      guard bit + width <= data.count * 8 else { throw RenderError.io("no end code") }
      var code = 0
      for k in 0..<width where data[(bit + k) / 8] & (1 << ((bit + k) % 8)) != 0 {
        code |= 1 << k
      }
      bit += width
      if code == clear {
        if cleared { read.clears += 1 }
        cleared = true
        table = (0..<(1 << minimum)).map { [UInt8($0)] } + [[], []]
        width = minimum + 1
        previous = nil
        continue
      }
      if code == end { return read }
      if table.count == 4096 { read.codesOnAFullTable += 1 }
      let entry: [UInt8]
      if code < table.count {
        entry = table[code]
      } else if code == table.count, let previous {
        entry = previous + [previous[0]]
      } else {
        throw RenderError.io("code \(code) before it was defined")
      }
      read.symbols += entry
      if let previous, table.count < 4096 { table.append(previous + [entry[0]]) }
      read.endWidened = table.count == 1 << width && width < 12
      if read.endWidened { width += 1 }
      previous = entry
    }
  }

  static func encode(_ frames: [QuantizedFrame], transparent: Bool = false, lossy: Int = 0)
    throws -> [UInt8]
  {
    let output = MemoryOutput()
    let encoder = GIFEncoder(
      output: output, count: frames.count, timing: FrameTiming(fps: 10), transparent: transparent,
      lossy: lossy)
    for frame in frames { try encoder.add(frame) }
    try encoder.finish()
    return output.bytes
  }

  /// A frame whose true colours are exactly its palette's.
  static func frame(width: Int, height: Int, palette: [UInt32], indices: [UInt8])
    -> QuantizedFrame
  {
    let source = indices.flatMap { i -> [UInt8] in
      let c = palette[Int(i)]
      return [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16 & 0xFF), 255]
    }
    return QuantizedFrame(
      width: width, height: height, indices: indices, colors: palette, source: source)
  }

  /// Noisy frames that change in patches, with a palette holding colours
  /// twice and one a level off, at sizes down to one pixel and with `lossy`:
  /// every decoded pixel is within the encoder's tolerance of its truth (or,
  /// lossy, within `lossy` levels a channel), and no worse than that.
  @Test(arguments: [(61, 37, 0), (1, 1, 0), (1, 300, 0), (300, 2, 0), (61, 37, 3), (300, 2, 8)])
  func everyPixelShowsAColourItAccepts(width: Int, height: Int, lossy: Int) throws {
    var palette: [UInt32] = (0..<40).map { (k: Int) -> UInt32 in
      let level = UInt8(k * 6)
      return Self.pack(level, 255 - level, 90)
    }
    palette += [Self.pack(0, 255, 90), Self.pack(6, 249, 90), Self.pack(1, 255, 90)]
    var indices = (0..<(width * height)).map { UInt8(Self.noise($0, 43)) }
    var frames: [QuantizedFrame] = []
    for n in 1...6 {
      frames.append(Self.frame(width: width, height: height, palette: palette, indices: indices))
      let (x0, y0) = (Self.noise(n, width), Self.noise(n + 100, height))
      for y in y0..<min(y0 + 15, height) {
        for x in x0..<min(x0 + 20, width) {
          indices[y * width + x] = UInt8(Self.noise(y * 977 + x + n, 43))
        }
      }
    }
    let decoded = try Self.decode(try Self.encode(frames, lossy: lossy))
    #expect(decoded.count == frames.count)
    for (frame, shown) in zip(frames, decoded) {
      for i in 0..<(width * height) {
        let truth = frame.source[(i * 4)..<(i * 4 + 3)].map(Int.init)
        let levels = (0..<3).map { c in abs(Int(shown[i] >> (8 * c) & 0xFF) - truth[c]) }
        // The quantised colour is the truth here: within the tolerance of it.
        #expect(
          levels.reduce(0, +) <= Int(PaletteQuantizer.keepTolerance) || levels.max()! <= lossy,
          "pixel \(i): \(levels)")
      }
    }
  }

  /// A run of one colour codes as LZW codes runs: strings one symbol longer
  /// each time, using the code the decoder adds just before it (a coder that
  /// cannot use it needs twice the codes).
  @Test func aRunTakesStringsOfGrowingLength() throws {
    let (width, height) = (640, 480)
    let bytes = try Self.encode([
      Self.frame(
        width: width, height: height, palette: [Self.pack(20, 40, 60)],
        indices: [UInt8](repeating: 0, count: width * height))
    ])
    // 307 200 pixels: 783 strings of growing length, 9 to 11 bits each,
    // about 950 bytes, after some 820 bytes of header and colour table (a
    // coder that cannot use the newest code needs twice the strings).
    #expect(bytes.count < 2000, "\(bytes.count) bytes")
    let decoded = try Self.decode(bytes)
    #expect(decoded.first?.allSatisfy { $0 == 0x3C_2814 } == true)
  }

  /// A colour the palette holds twice, the quantiser choosing either at
  /// random: the pixels take whichever makes the string longer, so the frame
  /// codes at a fraction of the noise coded as given (two distinct colours in
  /// the same pattern): 3.0 KB against 11.2 KB.
  @Test func twoEqualSymbolsCodeAsOne() throws {
    let (width, height) = (320, 240)
    let noisy = (0..<(width * height)).map { UInt8(Self.scrambled($0, 2)) }
    let red = Self.pack(200, 10, 10)
    let mixed = try Self.encode([
      Self.frame(width: width, height: height, palette: [red, red], indices: noisy)
    ])
    let asGiven = try Self.encode([
      Self.frame(
        width: width, height: height, palette: [red, Self.pack(10, 200, 10)], indices: noisy)
    ])
    #expect(mixed.count * 3 < asGiven.count, "\(mixed.count) against \(asGiven.count) bytes")
    #expect(try Self.decode(mixed).first?.allSatisfy { $0 == 0x0A_0AC8 } == true)
  }

  /// A palette of N colours takes a colour table (and LZW symbols) just wide
  /// enough for them and the transparent index after them, at least GIF's
  /// 2 bits; the pixels read back exactly, by giflib and a strict decoder.
  @Test(arguments: [(1, 2), (3, 2), (4, 3), (15, 4), (16, 5), (127, 7), (128, 8), (255, 8)])
  func tablesAreAsWideAsThePaletteNeeds(colors: Int, bits: Int) throws {
    let palette = (0..<colors).map { (k: Int) -> UInt32 in
      Self.pack(UInt8(k), UInt8(255 - k), UInt8(k * 7 % 256))
    }
    let (width, height) = (37, 23)
    let indices = (0..<(width * height)).map { UInt8(Self.scrambled($0, colors)) }
    let frame = Self.frame(width: width, height: height, palette: palette, indices: indices)
    #expect(frame.tableBits == bits)
    let bytes = try Self.encode([frame])
    let read = try Self.strictRead(bytes)
    #expect(read.codeSize == bits)
    #expect(read.symbols == indices)
    let shown = try #require(try Self.decode(bytes).first)
    #expect(shown == indices.map { palette[Int($0)] & 0xFF_FFFF })
  }

  /// A full string table is cleared at once (keeping it, as GIF allows, has
  /// broken decoders); noise fills it again and again, and reads back exactly.
  @Test func aFullTableIsClearedAtOnce() throws {
    let width = 256
    let palette = (0..<64).map { (k: Int) -> UInt32 in Self.pack(UInt8(k * 4), 90, UInt8(255 - k)) }
    let indices = (0..<(width * 160)).map { UInt8(Self.scrambled($0, 64)) }
    let frame = Self.frame(width: width, height: 160, palette: palette, indices: indices)
    let bytes = try Self.encode([frame])
    let read = try Self.strictRead(bytes)
    #expect(read.codesOnAFullTable == 0)
    #expect(read.clears > 3)
    #expect(read.symbols == indices)
    #expect(try Self.decode(bytes).first == indices.map { palette[Int($0)] & 0xFF_FFFF })
  }

  /// A frame of 256 colours has no room for the transparent index: refused.
  @Test func aPaletteOf256ColoursIsRefused() throws {
    let palette = (0..<256).map { Self.pack(UInt8($0), 0, 0) }
    let frame = Self.frame(
      width: 16, height: 16, palette: palette, indices: (0..<256).map { UInt8($0) })
    #expect(throws: RenderError.self) { _ = try Self.encode([frame]) }
  }

  /// A transparent animation stores each frame's indices exactly, clear
  /// where alpha is under half; the data ends with its end code, read at
  /// the width the decoder has reached, whatever the length (rows of noise
  /// whose last code falls just as the width grows, after clears included).
  @Test func exactFramesEndWhereAStrictDecoderExpects() throws {
    // The last entry is clear (alpha 0): stored as the transparent index.
    let palette = (0..<200).map { (k: Int) -> UInt32 in
      let level = UInt8(k)
      return k == 199 ? 0 : Self.pack(level, 255 - level, 40)
    }
    // Where the last code fills a width's table, the end code takes the
    // wider width; written a bit too narrow, a decoder runs out of data when
    // it lands on a byte boundary (found by review). Some of these lengths
    // end so (checked below, so the case stays covered).
    let noise = (0..<3_490).map { UInt8(Self.noise($0, 200)) }
    var widenedEnds: [Int] = []
    for width in 3_465...3_490 {
      let indices = Array(noise[0..<width])
      let frame = Self.frame(width: width, height: 1, palette: palette, indices: indices)
      let expected = indices.map { $0 == 199 ? frame.transparentIndex : $0 }
      let read = try Self.strictRead(try Self.encode([frame], transparent: true))
      #expect(read.symbols == expected, "\(width) pixels")
      if read.endWidened { widenedEnds.append(width) }
    }
    #expect(!widenedEnds.isEmpty)
  }
}
