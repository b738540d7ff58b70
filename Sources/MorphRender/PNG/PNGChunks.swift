import CDeflate

/// PNG's container: the signature and chunks (length, type, data, CRC). The
/// one place that frames PNG bytes, for every PNG and animated PNG writer.
public enum PNGChunks {
  /// The eight bytes every PNG file starts with.
  public static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

  /// A chunk's type (`IHDR`, `IDAT`, `fcTL`…) and its data.
  public struct Chunk: Equatable, Sendable {
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

  /// Appends one chunk to `out`: length, type, data and CRC.
  public static func append(_ out: inout [UInt8], _ type: String, _ data: [UInt8]) {
    let typeBytes = Array(type.utf8)
    out += be32(UInt32(data.count)) + typeBytes + data
    out += be32(crc32(typeBytes + data))
  }

  /// A 32-bit number as PNG stores it, big-endian.
  public static func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }

  /// A 16-bit number as PNG stores it, big-endian.
  public static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

  /// CRC-32 as PNG defines it (ISO 3309), libdeflate's.
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
  }
}
