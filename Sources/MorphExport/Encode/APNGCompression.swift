import CMorphEncode
import CZopfli
import MorphRender

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How an APNG's frames are filtered and deflated: fast by default; strongest with
/// `export --optimize` (`optimized`), for a file written once and served often.
public struct APNGCompression: Sendable, Hashable {
  /// The deflate implementation and its effort.
  public enum Deflater: Sendable, Hashable {
    /// libdeflate at `level` (1…12).
    case libdeflate(level: Int32)
    /// zopfli's exhaustive search over `iterations` rounds: smaller than libdeflate's
    /// level 12, and far slower.
    case zopfli(iterations: Int32)
  }

  public var deflater: Deflater
  /// Try the filter strategies (libpng's per-row heuristic, then each of the five filters
  /// on every row), judge them by a quick deflate, and keep the one that compresses
  /// smallest (as zopflipng does).
  public var triesFilters: Bool

  public init(deflater: Deflater, triesFilters: Bool) {
    self.deflater = deflater
    self.triesFilters = triesFilters
  }

  /// The default: libdeflate's level 9 over libpng's heuristic.
  public static let standard = APNGCompression(
    deflater: .libdeflate(level: APNGEncoder.defaultLevel), triesFilters: false)

  /// `--optimize`: every filter strategy, then zopfli at its own default of 15 iterations.
  /// On six deck fan frames at 2× against the default: libdeflate's level 12 with the same
  /// filter search 0.901×, zopfli 1 iteration 0.879×, 3 0.872×, 15 0.871× (3 times 1
  /// iteration's CPU). All 60 frames: 0.769× ffmpeg's APNG, 9.4 s of CPU a frame.
  public static let optimized = APNGCompression(
    deflater: .zopfli(iterations: 15), triesFilters: true)

  /// The libdeflate level that judges filter strategies: quick, and ranks them as the
  /// strong deflaters do.
  static let judgeLevel: Int32 = 6

  /// Filtered buffers the encoder holds at once beyond the crop: the best so far and the
  /// one being tried.
  var filteredBuffers: Int { triesFilters ? 2 : 1 }

  /// `width`×`height` pixels of `channels` bytes (rows `stride` apart) as the zlib stream
  /// an IDAT or fdAT chunk holds.
  func compress(
    _ pixels: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, channels: Int,
    stop: CancelFlag = CancelFlag()
  ) throws -> [UInt8] {
    var best = PNGEncoder.filteredRows(
      pixels, stride: stride, width: width, height: height, channels: channels)
    if triesFilters {
      var bestSize = try PNGEncoder.deflate(best, level: Self.judgeLevel).count
      for type in 0..<5 {
        try stop.check()
        var trial = [UInt8](repeating: 0, count: best.count)
        trial.withUnsafeMutableBufferPointer {
          morph_png_filter_fixed(
            pixels, stride, Int32(width), Int32(height), Int32(channels), Int32(type),
            $0.baseAddress!)
        }
        let size = try PNGEncoder.deflate(trial, level: Self.judgeLevel).count
        if size < bestSize { (best, bestSize) = (trial, size) }
      }
    }
    return try deflate(best, stop: stop)
  }

  /// Filtered rows as a zlib stream.
  func deflate(_ filtered: [UInt8], stop: CancelFlag = CancelFlag()) throws -> [UInt8] {
    try stop.check()
    switch deflater {
    case .libdeflate(let level): return try PNGEncoder.deflate(filtered, level: level)
    case .zopfli(let iterations):
      return try Self.zopfli(filtered, iterations: iterations, stop: stop)
    }
  }

  /// Bytes of input zopfli compresses between two looks at the stop flag. A zopfli call
  /// cannot be interrupted, and one over a whole 2× deck fan frame took seconds: in
  /// pieces (each still sees the bytes before it, as zopfli's own 1 MB master blocks do)
  /// a stopped export's compressions end soon after it. Measured on four deck fan frames
  /// at 2×: 121 261 bytes against 121 116 in one piece (+0.12 %; 64 KiB pieces: +1 %),
  /// decoding to the same pixels, at no more CPU.
  static let zopfliPiece = 256 << 10

  /// A zlib stream (RFC 1950: header, deflate, Adler-32) made by zopfli piece by piece,
  /// checking `stop` between pieces.
  private static func zopfli(_ input: [UInt8], iterations: Int32, stop: CancelFlag) throws
    -> [UInt8]
  {
    var options = ZopfliOptions()
    ZopfliInitOptions(&options)
    options.numiterations = iterations
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var bit: UInt8 = 0
    defer { free(out) }
    var start = 0
    repeat {
      try stop.check()
      let end = min(start + zopfliPiece, input.count)
      input.withUnsafeBufferPointer {
        ZopfliDeflatePart(
          &options, 2, end == input.count ? 1 : 0, $0.baseAddress, start, end, &bit, &out, &size)
      }
      start = end
    } while start < input.count
    guard let out, size > 0 else { throw RenderError.encoder("zopfli compression failed") }
    // 0x78 0xDA: deflate with a 32 KiB window, the strongest level (as zopfli writes it).
    var stream: [UInt8] = [0x78, 0xDA]
    stream += UnsafeBufferPointer(start: out, count: size)
    var a: UInt32 = 1
    var b: UInt32 = 0
    for chunk in Swift.stride(from: 0, to: input.count, by: 5552) {
      for byte in input[chunk..<min(chunk + 5552, input.count)] {
        a += UInt32(byte)
        b += a
      }
      a %= 65521
      b %= 65521
    }
    let adler = b << 16 | a
    stream += [
      UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF),
    ]
    return stream
  }
}
