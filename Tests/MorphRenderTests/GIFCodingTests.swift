import CGif
import Foundation
import Testing

@testable import MorphRender

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
  /// frames drawn over the previous one, index 255 transparent), by giflib.
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
      for y in 0..<Int(desc.Height) {
        for x in 0..<Int(desc.Width) {
          let index = image.RasterBits[y * Int(desc.Width) + x]
          guard index != 255 else { continue }
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

  static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
    UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | 0xFF00_0000
  }

  /// The symbols of the first image's data, read by a strict LZW decoder
  /// that must meet the end code, where it must be (giflib stops at the
  /// pixel count and never reads it).
  static func strictSymbols(_ gif: [UInt8]) throws -> [UInt8] {
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
    var out: [UInt8] = []
    var bit = 0
    while true {
      guard bit + width <= data.count * 8 else { throw RenderError.io("no end code") }
      var code = 0
      for k in 0..<width where data[(bit + k) / 8] & (1 << ((bit + k) % 8)) != 0 {
        code |= 1 << k
      }
      bit += width
      if code == clear {
        table = (0..<(1 << minimum)).map { [UInt8($0)] } + [[], []]
        width = minimum + 1
        previous = nil
        continue
      }
      if code == end { return out }
      let entry: [UInt8]
      if code < table.count {
        entry = table[code]
      } else if code == table.count, let previous {
        entry = previous + [previous[0]]
      } else {
        throw RenderError.io("code \(code) before it was defined")
      }
      out += entry
      if let previous, table.count < 4096 { table.append(previous + [entry[0]]) }
      if table.count == 1 << width && width < 12 { width += 1 }
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
          levels.reduce(0, +) <= Int(GIFEncoder.tolerance) || levels.max()! <= lossy,
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
  /// codes within a few times a single run's size (3.9 KB against 1.3 KB;
  /// coded as given, the noise takes 25 KB).
  @Test func twoEqualSymbolsCodeAsOne() throws {
    let (width, height) = (320, 240)
    let palette = [Self.pack(200, 10, 10), Self.pack(200, 10, 10)]
    let noisy = (0..<(width * height)).map { UInt8(Self.noise($0, 2)) }
    let flat = [UInt8](repeating: 0, count: width * height)
    let mixed = try Self.encode([
      Self.frame(width: width, height: height, palette: palette, indices: noisy)
    ])
    let single = try Self.encode([
      Self.frame(width: width, height: height, palette: palette, indices: flat)
    ])
    #expect(mixed.count < 4 * single.count, "\(mixed.count) against \(single.count) bytes")
    #expect(try Self.decode(mixed).first?.allSatisfy { $0 == 0x0A_0AC8 } == true)
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
    // From 10 891 to 10 893 pixels the last code fills the 10-bit codes'
    // table and the end code lands on a byte boundary: written a bit too
    // narrow, the decoder runs out of data (found by review).
    let noise = (0..<10_900).map { UInt8(Self.noise($0, 200)) }
    for width in 10_880...10_900 {
      let indices = Array(noise[0..<width])
      let frame = Self.frame(width: width, height: 1, palette: palette, indices: indices)
      let expected = indices.map { $0 == 199 ? GIFQuantizer.transparentIndex : $0 }
      let symbols = try Self.strictSymbols(try Self.encode([frame], transparent: true))
      #expect(symbols == expected, "\(width) pixels")
    }
  }
}
