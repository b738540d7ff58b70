import CSixel
import Foundation
import MorphRender

/// Reads back the images a terminal graphics protocol's escapes carry, as a terminal would:
/// kitty's chunked base64 PNG (a new image at each `a=T`), iTerm2's base64 PNG, and sixel
/// (through libsixel's decoder).
public enum TerminalImages {
  public enum DecodeError: Error, CustomStringConvertible {
    case malformed(String)
    public var description: String {
      switch self {
      case .malformed(let what): return "malformed terminal image: \(what)"
      }
    }
  }

  /// Every image in `output`, in order.
  public static func decode(_ output: String, as graphics: GraphicsProtocol) throws -> [RasterImage]
  {
    let bytes = Array(output.utf8)
    switch graphics {
    case .kitty: return try kitty(bytes)
    case .iterm: return try iterm(bytes)
    case .sixel:
      return try sequences(bytes, opener: [0x1B, 0x50], terminator: [0x1B, 0x5C]).map(sixel)
    }
  }

  private static func kitty(_ bytes: [UInt8]) throws -> [RasterImage] {
    var images: [RasterImage] = []
    var payload = ""
    var open = false
    for body in sequences(bytes, opener: [0x1B, 0x5F, 0x47], terminator: [0x1B, 0x5C]) {
      let text = String(decoding: body, as: UTF8.self)
      let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
      let keys = parts[0].split(separator: ",")
      if keys.contains("a=T") {
        guard !open else { throw DecodeError.malformed("kitty image started inside another") }
        open = true
        payload = ""
      }
      guard open else { continue }  // a deletion, not image data
      payload += parts.count > 1 ? parts[1] : ""
      if !keys.contains("m=1") {
        open = false
        images.append(try png(payload))
      }
    }
    return images
  }

  private static func iterm(_ bytes: [UInt8]) throws -> [RasterImage] {
    try sequences(bytes, opener: Array("\u{1B}]1337;File=".utf8), terminator: [0x07]).map {
      let text = String(decoding: $0, as: UTF8.self)
      guard let colon = text.firstIndex(of: ":") else {
        throw DecodeError.malformed("iTerm2 image without ':'")
      }
      return try png(String(text[text.index(after: colon)...]))
    }
  }

  private static func png(_ base64: String) throws -> RasterImage {
    guard let data = Data(base64Encoded: base64) else {
      throw DecodeError.malformed("payload is not base64")
    }
    return try RasterImage.decodePNG(Array(data))
  }

  private static func sixel(_ body: [UInt8]) throws -> RasterImage {
    var data = [0x1B, 0x50] + body + [0x1B, 0x5C]
    var pixels: UnsafeMutablePointer<UInt8>?
    var palette: UnsafeMutablePointer<UInt8>?
    var width: Int32 = 0
    var height: Int32 = 0
    var colors: Int32 = 0
    let status = sixel_decode_raw(
      &data, Int32(data.count), &pixels, &width, &height, &palette, &colors, nil)
    defer {
      free(pixels)
      free(palette)
    }
    guard status == SIXEL_OK, let pixels, let palette else {
      throw DecodeError.malformed("libsixel cannot decode a sixel image")
    }
    var image = RasterImage(width: Int(width), height: Int(height))
    for i in 0..<(image.width * image.height) {
      let index = Int(pixels[i])
      for channel in 0..<3 { image.pixels[4 * i + channel] = palette[3 * index + channel] }
      image.pixels[4 * i + 3] = 255
    }
    return image
  }

  /// The bytes between each `opener` and the next `terminator`.
  static func sequences(_ bytes: [UInt8], opener: [UInt8], terminator: [UInt8]) -> [[UInt8]] {
    var found: [[UInt8]] = []
    var i = 0
    while let start = find(opener, in: bytes, from: i) {
      let bodyStart = start + opener.count
      guard let end = find(terminator, in: bytes, from: bodyStart) else { break }
      found.append(Array(bytes[bodyStart..<end]))
      i = end + terminator.count
    }
    return found
  }

  private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
    guard needle.count <= bytes.count else { return nil }
    var i = from
    while i + needle.count <= bytes.count {
      if bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { return i }
      i += 1
    }
    return nil
  }
}
