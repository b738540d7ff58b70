import CDeflate

/// Writes an animated PNG from PNG frames: the first frame's IDAT chunks
/// become the default image, later frames' become fdAT chunks, each preceded
/// by an fcTL with its delay. Frames must share one size and pixel format
/// (they do when they come from one renderer).
public enum APNGWriter {
  static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

  /// `frames` are complete PNG files; `delay` is seconds per frame as a
  /// fraction (numerator, denominator), e.g. (1, 30) for 30 fps.
  public static func write(
    frames: [[UInt8]], delay: (numerator: UInt16, denominator: UInt16), loops: UInt32 = 0
  ) throws(RenderError) -> [UInt8] {
    var stream = APNGStream(frameCount: frames.count, delay: delay, loops: loops)
    var out: [UInt8] = []
    for png in frames { out += try stream.frame(png) }
    return out + (try stream.end())
  }

  /// The frame delay for `fps` frames per second, as APNG's 16-bit fraction:
  /// (1, fps) when fps is a whole number that fits, else the nearest
  /// millisecond (clamped to what 16 bits hold, so no rate can overflow).
  public static func delay(fps: Double) -> (numerator: UInt16, denominator: UInt16) {
    if fps == fps.rounded(), fps >= 1, fps <= Double(UInt16.max) { return (1, UInt16(fps)) }
    let milliseconds = fps > 0 ? (1000 / fps).rounded() : Double(UInt16.max)
    return (UInt16(min(max(milliseconds, 1), Double(UInt16.max))), 1000)
  }

  public struct Chunk: Equatable {
    public var type: String
    public var data: [UInt8]
  }

  /// The chunks of a PNG file (checks the signature and lengths, not CRCs).
  public static func chunks(_ png: [UInt8]) throws(RenderError) -> [Chunk] {
    guard png.count >= 8, Array(png[0..<8]) == signature else {
      throw RenderError.invalidPNG("not a PNG file")
    }
    var result: [Chunk] = []
    var i = 8
    while i + 12 <= png.count {
      let length =
        Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
      let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
      guard i + 12 + length <= png.count else {
        throw RenderError.invalidPNG("truncated PNG chunk \(type)")
      }
      result.append(Chunk(type: type, data: Array(png[(i + 8)..<(i + 8 + length)])))
      i += 12 + length
      if type == "IEND" { break }
    }
    return result
  }

  static func append(_ out: inout [UInt8], _ type: String, _ data: [UInt8]) {
    let typeBytes = Array(type.utf8)
    out += be32(UInt32(data.count)) + typeBytes + data
    out += be32(crc32(typeBytes + data))
  }

  static func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }

  static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

  /// CRC-32 as PNG defines it (ISO 3309), libdeflate's.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
  }
}

/// An animated PNG written as its frames come: each call returns the bytes to
/// append to the file (the header with the first frame). The frame count is
/// fixed up front (it goes in the header), so nothing is patched afterwards
/// and no frame is held longer than one call.
public struct APNGStream {
  public let frameCount: Int
  public let delay: (numerator: UInt16, denominator: UInt16)
  public let loops: UInt32
  private var header: [UInt8]?
  private var index = 0
  private var sequence: UInt32 = 0

  public init(
    frameCount: Int, delay: (numerator: UInt16, denominator: UInt16), loops: UInt32 = 0
  ) {
    self.frameCount = frameCount
    self.delay = delay
    self.loops = loops
  }

  /// The bytes for the next frame, `png` being a complete PNG file.
  public mutating func frame(_ png: [UInt8]) throws(RenderError) -> [UInt8] {
    guard index < frameCount, frameCount <= Int(UInt32.max) else {
      throw RenderError.invalidFrames("more frames than the \(frameCount) announced")
    }
    let parts = try APNGWriter.chunks(png)
    let ihdr = parts.first { $0.type == "IHDR" }?.data
    var out: [UInt8] = []
    if let header {
      guard ihdr == header else {
        throw RenderError.invalidFrames("frame \(index + 1) differs in size or format from frame 1")
      }
    } else {
      guard let ihdr, ihdr.count == 13 else {
        throw RenderError.invalidPNG("frame 1 is not a PNG (no IHDR)")
      }
      header = ihdr
      out = APNGWriter.signature
      APNGWriter.append(&out, "IHDR", ihdr)
      APNGWriter.append(&out, "acTL", APNGWriter.be32(UInt32(frameCount)) + APNGWriter.be32(loops))
    }
    var control = APNGWriter.be32(sequence) + Array(header![0..<8])  // width, height
    control += APNGWriter.be32(0) + APNGWriter.be32(0)  // x, y offset
    // Delay, then dispose "none" and blend "source".
    control += APNGWriter.be16(delay.numerator) + APNGWriter.be16(delay.denominator) + [0, 0]
    APNGWriter.append(&out, "fcTL", control)
    sequence += 1
    for part in parts where part.type == "IDAT" {
      if index == 0 {
        APNGWriter.append(&out, "IDAT", part.data)
      } else {
        APNGWriter.append(&out, "fdAT", APNGWriter.be32(sequence) + part.data)
        sequence += 1
      }
    }
    index += 1
    return out
  }

  /// The file's last bytes; every announced frame must have been given.
  public func end() throws(RenderError) -> [UInt8] {
    guard header != nil else { throw RenderError.invalidFrames("an animation needs frames") }
    guard index == frameCount else {
      throw RenderError.invalidFrames("\(index) frames given, \(frameCount) announced")
    }
    var out: [UInt8] = []
    APNGWriter.append(&out, "IEND", [])
    return out
  }
}
