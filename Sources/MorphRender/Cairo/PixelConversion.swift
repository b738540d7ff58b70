import MorphCore

/// Conversions between Cairo's ARGB32 (native-endian `0xAARRGGBB` words, premultiplied) and
/// `RasterImage`'s straight RGBA bytes. The rounding matches Cairo's PNG code, so
/// `premultiply(unpremultiply(p)) == p` for every valid premultiplied pixel.
enum PixelConversion {
  /// Where the alpha byte of an ARGB32 word sits in memory.
  static let alphaByteOffset = 1.littleEndian == 1 ? 3 : 0

  /// The ARGB32 word of a straight colour, its alpha times `alpha`.
  static func word(_ c: Color, alpha: Double) -> UInt32 {
    func byte(_ v: Double) -> UInt32 { UInt32(min(max(v, 0), 1) * 255 + 0.5) }
    let a = min(max(c.alpha * alpha, 0), 1)
    return byte(a) << 24 | byte(c.red * a) << 16 | byte(c.green * a) << 8 | byte(c.blue * a)
  }

  static func unpremultiply(
    _ data: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int,
    into out: UnsafeMutablePointer<UInt8>
  ) {
    for y in 0..<height {
      let row = UnsafeRawPointer(data + y * stride)
      let dst = out + y * width * 4
      for x in 0..<width {
        let word = row.load(fromByteOffset: x * 4, as: UInt32.self)
        let a = Int(word >> 24)
        let d = dst + x * 4
        // Opaque pixels (most of a frame) need no division.
        if a == 255 {
          d[0] = UInt8(truncatingIfNeeded: word >> 16)
          d[1] = UInt8(truncatingIfNeeded: word >> 8)
          d[2] = UInt8(truncatingIfNeeded: word)
          d[3] = 255
          continue
        }
        guard a > 0 else {
          d[0] = 0
          d[1] = 0
          d[2] = 0
          d[3] = 0
          continue
        }
        d[0] = unpremultiply(Int((word >> 16) & 0xFF), a)
        d[1] = unpremultiply(Int((word >> 8) & 0xFF), a)
        d[2] = unpremultiply(Int(word & 0xFF), a)
        d[3] = UInt8(a)
      }
    }
  }

  static func premultiply(
    _ pixels: UnsafePointer<UInt8>, width: Int, height: Int,
    into data: UnsafeMutablePointer<UInt8>, stride: Int
  ) {
    for y in 0..<height {
      let row = UnsafeMutableRawPointer(data + y * stride)
      let src = pixels + y * width * 4
      for x in 0..<width {
        let s = src + x * 4
        let a = UInt32(s[3])
        let r = premultiply(s[0], a)
        let g = premultiply(s[1], a)
        let b = premultiply(s[2], a)
        row.storeBytes(of: a << 24 | r << 16 | g << 8 | b, toByteOffset: x * 4, as: UInt32.self)
      }
    }
  }

  @inline(__always)
  private static func unpremultiply(_ c: Int, _ a: Int) -> UInt8 {
    UInt8(min(255, (c * 255 + a / 2) / a))
  }

  @inline(__always)
  private static func premultiply(_ c: UInt8, _ a: UInt32) -> UInt32 {
    let t = UInt32(c) * a + 0x80
    return ((t >> 8) + t) >> 8
  }
}
