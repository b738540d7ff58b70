import CDeflate

/// Why a file is not a PNG the host will decode, in words a plugin author can act on:
/// `bad CRC in chunk IDAT`, `unsupported bit depth 7`, `unknown filter type 5 in row 3`.
public struct PNGCheckError: Error, Equatable, CustomStringConvertible {
  /// The cause, one line.
  public let reason: String
  /// True when the file does not even start like a PNG (no signature, no IHDR).
  public let notPNG: Bool

  init(_ reason: String, notPNG: Bool = false) {
    self.reason = reason
    self.notPNG = notPNG
  }

  public var description: String { reason }
}

/// The host's own check of a PNG file, run before Cairo (libpng) decodes it, so a broken
/// file is refused at the plugin's line with its real cause rather than as Cairo's `out of
/// memory`. Two steps, so the caller can refuse an oversized image before anything is
/// inflated:
///
/// 1. `init` walks the chunks: the signature, each chunk's length, type and CRC-32, IHDR
///    first and valid (sizes, bit depth for the colour type, methods), PLTE where colour
///    type 3 needs it and with no more entries than the bit depth can index, IDAT chunks
///    in one run, IEND last. Nothing is inflated.
/// 2. `checkImageData()` inflates the IDAT stream (libdeflate) into a buffer of exactly
///    the size the header implies — every row a filter byte and its pixels, per Adam7
///    pass when interlaced — so data that would be longer is refused without holding it,
///    and checks each row's filter byte.
public struct PNGCheck {
  public let width: Int
  public let height: Int
  public let bitDepth: Int
  public let colorType: Int
  public let interlaced: Bool
  private let bytes: [UInt8]
  /// Where each IDAT chunk's data is in `bytes`.
  private let idat: [Range<Int>]

  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Walks the file's chunks (step 1 above).
  public init(_ bytes: [UInt8]) throws(PNGCheckError) {
    guard bytes.count >= 16, Array(bytes[0..<8]) == Self.signature,
      Array(bytes[12..<16]) == Array("IHDR".utf8)
    else { throw PNGCheckError("not a PNG file", notPNG: true) }
    self.bytes = bytes
    var at = 8
    var header: (width: Int, height: Int, depth: Int, color: Int, interlaced: Bool)?
    var palette: Int?
    var idat: [Range<Int>] = []
    var idatEnded = false
    var sawIEND = false
    while at < bytes.count {
      guard bytes.count - at >= 8 else { throw PNGCheckError("truncated file") }
      let length = Self.word(bytes, at)
      let typeBytes = Array(bytes[(at + 4)..<(at + 8)])
      let type = Self.name(typeBytes)
      guard length <= 0x7FFF_FFFF else {
        throw PNGCheckError("chunk \(type) claims \(length) bytes (at most 2³¹−1)")
      }
      guard typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
        throw PNGCheckError("bad chunk type \(type)")
      }
      let data = (at + 8)..<(at + 8 + length)
      guard bytes.count - data.upperBound >= 4 else { throw PNGCheckError("truncated file") }
      let stored = UInt32(Self.word(bytes, data.upperBound))
      let computed = bytes.withUnsafeBufferPointer {
        UInt32(libdeflate_crc32(0, $0.baseAddress! + at + 4, 4 + length))
      }
      guard stored == computed else { throw PNGCheckError("bad CRC in chunk \(type)") }
      at = data.upperBound + 4
      if header == nil && type != "IHDR" { throw PNGCheckError("IHDR is not the first chunk") }
      if !idat.isEmpty && type != "IDAT" { idatEnded = true }
      switch type {
      case "IHDR":
        guard header == nil else { throw PNGCheckError("more than one IHDR chunk") }
        header = try Self.readHeader(bytes[data])
      case "PLTE":
        guard let header, header.color != 0, header.color != 4 else {
          throw PNGCheckError("palette (PLTE) in a greyscale image")
        }
        guard palette == nil else { throw PNGCheckError("more than one PLTE chunk") }
        guard idat.isEmpty else { throw PNGCheckError("PLTE after the image data") }
        guard length > 0, length % 3 == 0 else {
          throw PNGCheckError("PLTE of \(length) bytes (3 a colour)")
        }
        let entries = length / 3
        let most = header.color == 3 ? min(256, 1 << header.depth) : 256
        guard entries <= most else {
          throw PNGCheckError(
            "PLTE has \(entries) colours; bit depth \(header.depth) indexes at most \(most)")
        }
        palette = entries
      case "IDAT":
        guard !idatEnded else { throw PNGCheckError("IDAT chunks are not consecutive") }
        if header?.color == 3 && palette == nil {
          throw PNGCheckError("palette image without PLTE")
        }
        idat.append(data)
      case "IEND":
        sawIEND = true
      default:
        // A critical chunk (upper-case first letter) the decoder does not know must not be
        // skipped; ancillary ones may.
        if (65...90).contains(typeBytes[0]) {
          throw PNGCheckError("unknown critical chunk \(type)")
        }
      }
      if sawIEND { break }
    }
    guard let header else { throw PNGCheckError("truncated file") }
    guard !idat.isEmpty else {
      throw PNGCheckError(sawIEND ? "no image data (IDAT)" : "truncated file")
    }
    guard sawIEND else { throw PNGCheckError("no IEND chunk (truncated file?)") }
    self.width = header.width
    self.height = header.height
    self.bitDepth = header.depth
    self.colorType = header.color
    self.interlaced = header.interlaced
    self.idat = idat
  }

  /// IHDR's fields, each checked against the PNG specification (11.2.2).
  private static func readHeader(_ data: ArraySlice<UInt8>) throws(PNGCheckError) -> (
    width: Int, height: Int, depth: Int, color: Int, interlaced: Bool
  ) {
    guard data.count == 13 else { throw PNGCheckError("IHDR of \(data.count) bytes (13)") }
    let d = Array(data)
    let (width, height) = (word(d, 0), word(d, 4))
    guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
      throw PNGCheckError("size \(width)×\(height) pixels (each 1…2³¹−1)")
    }
    let (depth, color) = (Int(d[8]), Int(d[9]))
    let depths: [Int: [Int]] = [
      0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
    ]
    guard let allowed = depths[color] else { throw PNGCheckError("unknown colour type \(color)") }
    guard [1, 2, 4, 8, 16].contains(depth) else {
      throw PNGCheckError("unsupported bit depth \(depth)")
    }
    guard allowed.contains(depth) else {
      throw PNGCheckError("bit depth \(depth) with colour type \(color)")
    }
    guard d[10] == 0 else { throw PNGCheckError("unknown compression method \(d[10])") }
    guard d[11] == 0 else { throw PNGCheckError("unknown filter method \(d[11])") }
    guard d[12] <= 1 else { throw PNGCheckError("unknown interlace method \(d[12])") }
    return (width, height, depth, color, d[12] == 1)
  }

  /// Bits a pixel.
  var pixelBits: Int {
    bitDepth * [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType, default: 4]
  }

  /// The passes the image data holds, each as (width, height) in pixels: one for a plain
  /// image, Adam7's seven (empty ones left out) for an interlaced one.
  var passes: [(width: Int, height: Int)] {
    guard interlaced else { return [(width, height)] }
    // Adam7: (first column, column step, first row, row step) of each pass.
    let adam7 = [
      (0, 8, 0, 8), (4, 8, 0, 8), (0, 4, 4, 8), (2, 4, 0, 4), (0, 2, 2, 4), (1, 2, 0, 2),
      (0, 1, 1, 2),
    ]
    return adam7.map { x0, dx, y0, dy in
      ((width - x0 + dx - 1) / dx, (height - y0 + dy - 1) / dy)
    }.filter { $0.width > 0 && $0.height > 0 }
  }

  /// The bytes one row of `pixels` pixels takes after its filter byte.
  func rowBytes(_ pixels: Int) -> Int { (pixels * pixelBits + 7) / 8 }

  /// The size of the inflated image data: every row of every pass, each with its filter
  /// byte. Exact, so the buffer is no larger than the data must be; nil past `Int`.
  public var inflatedSize: Int? {
    var total = 0
    for pass in passes {
      let (row, o1) = (1 + rowBytes(pass.width)).multipliedReportingOverflow(by: pass.height)
      let (sum, o2) = total.addingReportingOverflow(row)
      guard !o1, !o2 else { return nil }
      total = sum
    }
    return total
  }

  /// Inflates the image data into a buffer of exactly `inflatedSize` bytes (step 2 above)
  /// and checks every row's filter byte.
  public func checkImageData() throws(PNGCheckError) {
    guard let size = inflatedSize else { throw PNGCheckError("image too large") }
    // The IDAT chunks' data as one zlib stream (each chunk may end anywhere in it): the
    // file's own bytes when there is one chunk, else a copy of them joined.
    let stream: ArraySlice<UInt8>
    if idat.count == 1 {
      stream = bytes[idat[0]]
    } else {
      var joined: [UInt8] = []
      joined.reserveCapacity(idat.reduce(0) { $0 + $1.count })
      for range in idat { joined.append(contentsOf: bytes[range]) }
      stream = joined[...]
    }
    guard let inflater = libdeflate_alloc_decompressor() else {
      throw PNGCheckError("not enough memory to check the image data")
    }
    defer { libdeflate_free_decompressor(inflater) }
    var inflated = [UInt8](repeating: 0, count: size)
    var produced = 0
    let result = stream.withUnsafeBytes { input in
      inflated.withUnsafeMutableBytes { output in
        libdeflate_zlib_decompress(
          inflater, input.baseAddress, input.count, output.baseAddress, size, &produced)
      }
    }
    switch result {
    case LIBDEFLATE_SUCCESS:
      guard produced == size else {
        throw PNGCheckError("image data too short: \(produced) of \(size) bytes")
      }
    case LIBDEFLATE_INSUFFICIENT_SPACE:
      throw PNGCheckError("image data longer than \(width)×\(height) pixels need (\(size) bytes)")
    default:
      throw PNGCheckError("corrupt image data")
    }
    var at = 0
    for (index, pass) in passes.enumerated() {
      let stride = 1 + rowBytes(pass.width)
      for row in 0..<pass.height {
        let filter = inflated[at]
        guard filter <= 4 else {
          let place = interlaced ? "row \(row + 1) of pass \(index + 1)" : "row \(row + 1)"
          throw PNGCheckError("unknown filter type \(filter) in \(place)")
        }
        at += stride
      }
    }
  }

  /// The big-endian 32-bit number at `at`.
  static func word(_ bytes: [UInt8], _ at: Int) -> Int {
    bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
  }

  /// A chunk type as text, printable bytes as they are and others as `\xNN`.
  static func name(_ type: [UInt8]) -> String {
    type.map { (32...126).contains($0) ? String(UnicodeScalar($0)) : "\\x" + hex($0) }.joined()
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
  }
}
