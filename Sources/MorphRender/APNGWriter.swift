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
    guard let first = frames.first else { throw RenderError.io("an animation needs frames") }
    let header = try chunks(first).first { $0.type == "IHDR" }
    guard let ihdr = header, ihdr.data.count == 13 else {
      throw RenderError.io("frame 1 is not a PNG (no IHDR)")
    }
    var out = signature
    append(&out, "IHDR", ihdr.data)
    append(&out, "acTL", be32(UInt32(frames.count)) + be32(loops))
    var sequence: UInt32 = 0
    for (index, png) in frames.enumerated() {
      let parts = try chunks(png)
      guard parts.first(where: { $0.type == "IHDR" })?.data == ihdr.data else {
        throw RenderError.io("frame \(index + 1) differs in size or format from frame 1")
      }
      var control = be32(sequence) + Array(ihdr.data[0..<8])  // width, height
      control += be32(0) + be32(0)  // x, y offset
      // Delay, then dispose "none" and blend "source".
      control += be16(delay.numerator) + be16(delay.denominator) + [0, 0]
      append(&out, "fcTL", control)
      sequence += 1
      for part in parts where part.type == "IDAT" {
        if index == 0 {
          append(&out, "IDAT", part.data)
        } else {
          append(&out, "fdAT", be32(sequence) + part.data)
          sequence += 1
        }
      }
    }
    append(&out, "IEND", [])
    return out
  }

  public struct Chunk: Equatable {
    public var type: String
    public var data: [UInt8]
  }

  /// The chunks of a PNG file (checks the signature and lengths, not CRCs).
  public static func chunks(_ png: [UInt8]) throws(RenderError) -> [Chunk] {
    guard png.count >= 8, Array(png[0..<8]) == signature else {
      throw RenderError.io("not a PNG file")
    }
    var result: [Chunk] = []
    var i = 8
    while i + 12 <= png.count {
      let length =
        Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
      let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
      guard i + 12 + length <= png.count else {
        throw RenderError.io("truncated PNG chunk \(type)")
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

  private static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  /// CRC-32 as PNG defines it (ISO 3309).
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
