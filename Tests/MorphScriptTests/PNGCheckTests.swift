import CDeflate
import Foundation
import Testing

@testable import MorphScript

/// PNG files built here, byte by byte, so each test can break exactly one thing.
enum PNGBytes {
  static func word(_ n: Int) -> [UInt8] {
    [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)]
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    let crc = body.withUnsafeBufferPointer { Int(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
    return word(data.count) + body + word(crc)
  }

  static func zlib(_ data: [UInt8]) -> [UInt8] {
    let compressor = libdeflate_alloc_compressor(6)!
    defer { libdeflate_free_compressor(compressor) }
    var out = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, data.count))
    let count = data.withUnsafeBytes { input in
      out.withUnsafeMutableBytes { output in
        libdeflate_zlib_compress(
          compressor, input.baseAddress, input.count, output.baseAddress, output.count)
      }
    }
    return Array(out[0..<count])
  }

  static func header(
    width: Int, height: Int, depth: Int = 8, color: Int = 6, interlace: Int = 0
  ) -> [UInt8] {
    chunk(
      "IHDR", word(width) + word(height) + [UInt8(depth), UInt8(color), 0, 0, UInt8(interlace)])
  }

  /// The raw (filtered) rows of a `width`×`height` image whose rows are `rowBytes` long,
  /// each with filter `filter` (all passes laid end to end when `passes` is given).
  static func rows(_ passes: [(width: Int, height: Int)], rowBytes: (Int) -> Int, filter: UInt8 = 0)
    -> [UInt8]
  {
    var raw: [UInt8] = []
    for pass in passes {
      for row in 0..<pass.height {
        raw.append(filter)
        raw += (0..<rowBytes(pass.width)).map { UInt8(truncatingIfNeeded: $0 * 7 + row) }
      }
    }
    return raw
  }

  /// An 8-bit RGBA image, its raw rows changed by `edit` before compressing.
  static func rgba(
    width: Int = 5, height: Int = 4, interlace: Int = 0, edit: (inout [UInt8]) -> Void = { _ in }
  ) -> [UInt8] {
    let passes: [(width: Int, height: Int)] =
      interlace == 1 ? adam7(width, height) : [(width, height)]
    var raw = rows(passes, rowBytes: { $0 * 4 })
    edit(&raw)
    return PNGCheck.signature + header(width: width, height: height, interlace: interlace)
      + chunk("IDAT", zlib(raw)) + chunk("IEND", [])
  }

  /// A 2-bit indexed image with `colors` palette entries (none: no PLTE).
  static func indexed(width: Int = 6, height: Int = 3, colors: Int?) -> [UInt8] {
    // Indices 0 and 1 only (and filter bytes 0).
    let raw = rows([(width, height)], rowBytes: { ($0 * 2 + 7) / 8 }).map { $0 & 0b0101_0101 }
    let palette = colors.map { chunk("PLTE", [UInt8](repeating: 200, count: $0 * 3)) } ?? []
    return PNGCheck.signature + header(width: width, height: height, depth: 2, color: 3)
      + palette + chunk("IDAT", zlib(raw)) + chunk("IEND", [])
  }

  static func adam7(_ width: Int, _ height: Int) -> [(width: Int, height: Int)] {
    let passes = [
      (0, 8, 0, 8), (4, 8, 0, 8), (0, 4, 4, 8), (2, 4, 0, 4), (0, 2, 2, 4), (1, 2, 0, 2),
      (0, 1, 1, 2),
    ]
    return passes.map { x0, dx, y0, dy in
      ((width - x0 + dx - 1) / dx, (height - y0 + dy - 1) / dy)
    }.filter { $0.width > 0 && $0.height > 0 }
  }

  /// Where chunk `type` starts (its length field).
  static func offset(of type: String, in png: [UInt8]) -> Int {
    var at = 8
    while Array(png[(at + 4)..<(at + 8)]) != Array(type.utf8) {
      at += 12 + PNGCheck.word(png, at)
    }
    return at
  }

  /// Rewrites chunk `type`'s CRC after its data was changed.
  static func fixCRC(_ type: String, in png: inout [UInt8]) {
    let at = offset(of: type, in: png)
    let length = PNGCheck.word(png, at)
    let crc = Array(png[(at + 4)..<(at + 8 + length)]).withUnsafeBufferPointer {
      Int(libdeflate_crc32(0, $0.baseAddress, $0.count))
    }
    png.replaceSubrange((at + 8 + length)..<(at + 12 + length), with: word(crc))
  }
}

/// The host's PNG check: every way a file can be broken, one cause each.
@Suite struct PNGCheckTests {
  func reason(_ png: [UInt8]) -> String? {
    do {
      try PNGCheck(png).checkImageData()
      return nil
    } catch {
      return error.reason
    }
  }

  @Test func goodImagesPass() throws {
    #expect(reason(PNGBytes.rgba()) == nil)
    #expect(reason(PNGBytes.rgba(width: 1, height: 1)) == nil)
    #expect(reason(PNGBytes.indexed(colors: 4)) == nil)
    // Interlaced: seven passes, some empty at this size.
    #expect(reason(PNGBytes.rgba(width: 5, height: 3, interlace: 1)) == nil)
    #expect(reason(PNGBytes.rgba(width: 13, height: 11, interlace: 1)) == nil)
    // The image data in three IDAT chunks, one empty, as encoders may write it.
    var split = PNGBytes.rgba(width: 9, height: 7)
    let at = PNGBytes.offset(of: "IDAT", in: split)
    let data = Array(split[(at + 8)..<(at + 8 + PNGCheck.word(split, at))])
    split.replaceSubrange(
      at..<(at + 12 + data.count),
      with: PNGBytes.chunk("IDAT", Array(data[0..<5])) + PNGBytes.chunk("IDAT", [])
        + PNGBytes.chunk("IDAT", Array(data[5...])))
    #expect(reason(split) == nil)
    let png = try PNGCheck(PNGBytes.rgba(width: 13, height: 11, interlace: 1))
    #expect(png.width == 13 && png.height == 11 && png.interlaced)
  }

  @Test func brokenImagesNameTheirCause() {
    var badCRC = PNGBytes.rgba()
    badCRC[PNGBytes.offset(of: "IEND", in: badCRC) - 1] ^= 1  // IDAT's CRC, just before IEND
    var corrupt = PNGBytes.rgba()
    let idat = PNGBytes.offset(of: "IDAT", in: corrupt)
    // The deflate block type 3 (reserved) in the first byte after the zlib header.
    corrupt[idat + 10] |= 0b110
    PNGBytes.fixCRC("IDAT", in: &corrupt)
    var depth7 = PNGBytes.rgba()
    depth7[24] = 7
    PNGBytes.fixCRC("IHDR", in: &depth7)
    let noIEND = Array(PNGBytes.rgba().dropLast(12))
    let full = PNGBytes.rgba()
    let cases: [(String, [UInt8], String)] = [
      ("bad CRC", badCRC, "bad CRC in chunk IDAT"),
      ("corrupt zlib", corrupt, "corrupt image data"),
      ("filter 5", PNGBytes.rgba(edit: { $0[2 * 21] = 5 }), "unknown filter type 5 in row 3"),
      (
        "interlaced filter 9",
        PNGBytes.rgba(width: 5, height: 3, interlace: 1, edit: { $0[0] = 9 }),
        "unknown filter type 9 in row 1 of pass 1"
      ),
      ("no PLTE", PNGBytes.indexed(colors: nil), "palette image without PLTE"),
      (
        "PLTE too long", PNGBytes.indexed(colors: 5),
        "PLTE has 5 colours; bit depth 2 indexes at most 4"
      ),
      ("depth 7", depth7, "unsupported bit depth 7"),
      ("truncated", Array(full[0..<(full.count - 20)]), "truncated file"),
      ("truncated in IHDR", Array(full[0..<20]), "truncated file"),
      ("no IEND", noIEND, "no IEND chunk (truncated file?)"),
      (
        "short data", PNGBytes.rgba(edit: { $0.removeLast(3) }),
        "image data too short: 81 of 84 bytes"
      ),
      (
        "long data", PNGBytes.rgba(edit: { $0 += [0, 0] }),
        "image data longer than 5×4 pixels need (84 bytes)"
      ),
    ]
    for (what, png, message) in cases {
      #expect(reason(png) == message, "\(what)")
    }
  }

  @Test func headerFieldsAreChecked() {
    func with(_ offset: Int, _ value: UInt8) -> [UInt8] {
      var png = PNGBytes.rgba()
      png[offset] = value
      PNGBytes.fixCRC("IHDR", in: &png)
      return png
    }
    #expect(reason(with(25, 5)) == "unknown colour type 5")
    #expect(reason(with(24, 4)) == "bit depth 4 with colour type 6")
    #expect(reason(with(26, 1)) == "unknown compression method 1")
    #expect(reason(with(27, 1)) == "unknown filter method 1")
    #expect(reason(with(28, 2)) == "unknown interlace method 2")
    #expect(reason(with(16, 0)) == nil)  // width's high byte: still 5
    #expect(reason(with(19, 0)) == "size 0×4 pixels (each 1…2³¹−1)")
    #expect(reason(with(16, 0x80)) == "size 2147483653×4 pixels (each 1…2³¹−1)")
  }

  @Test func notAPNGIsSaidSo() {
    #expect(throws: PNGCheckError("not a PNG file", notPNG: true)) {
      try PNGCheck(Array("not a png at all, but long enough".utf8))
    }
    #expect(throws: PNGCheckError("not a PNG file", notPNG: true)) { try PNGCheck([]) }
  }

  @Test func theInflatedSizeIsExact() throws {
    // 16-bit RGBA: 8 bytes a pixel and a filter byte a row.
    var png = PNGBytes.rgba(width: 3, height: 2)
    png[24] = 16
    PNGBytes.fixCRC("IHDR", in: &png)
    #expect(try PNGCheck(png).inflatedSize == 2 * (1 + 24))
    // 1-bit grey rows round up to whole bytes.
    png[24] = 1
    png[25] = 0
    PNGBytes.fixCRC("IHDR", in: &png)
    #expect(try PNGCheck(png).inflatedSize == 2 * (1 + 1))
  }
}

/// Every PNG in the repository (goldens our encoder wrote, the docs' screenshots from a
/// browser, the image fixture) passes the check: it refuses only broken files.
@Suite struct RepositoryPNGTests {
  @Test func everyPNGInTheRepositoryPasses() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var checked = 0
    for folder in ["Tests", "docs"] {
      let walker = FileManager.default.enumerator(
        at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
      while let url = walker?.nextObject() as? URL {
        guard url.pathExtension == "png" else { continue }
        let bytes = [UInt8](try Data(contentsOf: url))
        do {
          try PNGCheck(bytes).checkImageData()
        } catch {
          Issue.record("\(url.path): \(error)")
        }
        checked += 1
      }
    }
    #expect(checked > 10)
  }
}
