import CDeflate

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A dotLottie archive: a zip holding `manifest.json` (the animation's id, and that it
/// loops and plays by itself, as the players read it) and `animations/<id>.json`, each
/// entry deflated.
public enum DotLottie {
  /// The animation entry's path in the archive.
  static func entryName(_ id: String) -> String { "animations/\(id).json" }

  /// The manifest's text: dotLottie 1's `animations` list, the animation looping and
  /// starting by itself as the exported frames do in every other format.
  static func manifest(id: String, generator: String) -> [UInt8] {
    let manifest: LottieJSON = [
      "version": "1", "generator": .string(generator),
      "animations": [["id": .string(id), "loop": true, "autoplay": true]],
    ]
    return Array((manifest.text + "\n").utf8)
  }

  /// The archive of an animation already in memory.
  public static func archive(json: String, id: String, generator: String) -> [UInt8] {
    var out: [UInt8] = []
    let zip = ZipArchive(
      output: { out.append(contentsOf: $0) },
      patch: { bytes, at in out.replaceSubrange(at..<at + bytes.count, with: bytes) })
    do {
      try zip.add("manifest.json", manifest(id: id, generator: generator))
      try zip.add(entryName(id)) { write in
        var text = json
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
      }
      try zip.finish()
    } catch {
      preconditionFailure("an archive in memory: \(error)")
    }
    return out
  }
}

/// A zip written front to back: deflated entries, no extra fields, fixed timestamps (so
/// the same animation gives the same bytes). libdeflate deflates whole buffers only, so
/// an entry is deflated when it is at most `maxDeflatedBytes`; a longer one (a long
/// export's animation, written from the spool) is stored as it arrives, its checksum
/// and sizes patched into its header at the end, so memory stays bounded.
final class ZipArchive {
  static let maxDeflatedBytes = 16 << 20
  /// The level `bench` gzips at: libdeflate's, about zlib's best.
  static let level: Int32 = 9

  private let output: (UnsafeRawBufferPointer) throws -> Void
  private let patch: ([UInt8], Int) throws -> Void
  /// The longest entry deflated (`maxDeflatedBytes`).
  private let deflateLimit: Int
  /// Bytes written so far.
  private(set) var size = 0
  private var central: [UInt8] = []
  private var entries = 0

  init(
    output: @escaping (UnsafeRawBufferPointer) throws -> Void,
    patch: @escaping ([UInt8], Int) throws -> Void, deflatingUpTo limit: Int = maxDeflatedBytes
  ) {
    self.output = output
    self.patch = patch
    deflateLimit = limit
  }

  /// Adds an entry of `bytes`.
  func add(_ name: String, _ bytes: [UInt8]) throws {
    try add(name) { write in try bytes.withUnsafeBytes { try write($0) } }
  }

  /// Adds an entry whose bytes `produce` hands to `write` in pieces.
  func add(
    _ name: String,
    _ produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    let limit = deflateLimit
    var buffered: [UInt8] = []
    var crc: UInt32 = 0
    var total = 0
    var streamedAt: Int?
    try produce { bytes in
      crc = UInt32(libdeflate_crc32(crc, bytes.baseAddress, bytes.count))
      total += bytes.count
      if streamedAt == nil {
        if buffered.count + bytes.count <= limit {
          buffered.append(contentsOf: bytes)
          return
        }
        // Too long to deflate in memory: stored, as it comes.
        streamedAt = size
        try emit(header(name, method: 0, crc: 0, compressed: 0, size: 0))
        try buffered.withUnsafeBytes { try emit($0) }
        buffered = []
      }
      try emit(bytes)
    }
    guard let length = UInt32(exactly: total) else {
      throw ExportError.invalidSetting(
        "the animation is \(total) bytes, more than a dotLottie (a zip without zip64) holds")
    }
    if let at = streamedAt {
      try patch(Self.le32(crc) + Self.le32(length) + Self.le32(length), at + 14)
      record(name, method: 0, crc: crc, compressed: length, size: length, at: at)
      return
    }
    let deflated = try Self.deflate(buffered)
    let (method, data): (UInt16, [UInt8]) =
      deflated.count < buffered.count ? (8, deflated) : (0, buffered)
    let at = size
    try emit(header(name, method: method, crc: crc, compressed: UInt32(data.count), size: length))
    try data.withUnsafeBytes { try emit($0) }
    record(name, method: method, crc: crc, compressed: UInt32(data.count), size: length, at: at)
  }

  /// The central directory and its end record.
  func finish() throws {
    let centralOffset = UInt32(truncatingIfNeeded: size)
    var end = central
    end += Self.le32(0x0605_4b50) + Self.le16(0) + Self.le16(0) + Self.le16(UInt16(entries))
    end += Self.le16(UInt16(entries)) + Self.le32(UInt32(central.count)) + Self.le32(centralOffset)
    end += Self.le16(0)
    try end.withUnsafeBytes { try emit($0) }
  }

  private func emit(_ bytes: UnsafeRawBufferPointer) throws {
    try output(bytes)
    size += bytes.count
  }

  private func emit(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try emit($0) } }

  /// A local file header (version 2.0, no flags, 1980-01-01 00:00).
  private func header(
    _ name: String, method: UInt16, crc: UInt32, compressed: UInt32, size: UInt32
  ) -> [UInt8] {
    let nameBytes = Array(name.utf8)
    return Self.le32(0x0403_4b50) + Self.le16(20) + Self.le16(0) + Self.le16(method)
      + Self.le16(0) + Self.le16(0x21) + Self.le32(crc) + Self.le32(compressed)
      + Self.le32(size) + Self.le16(UInt16(nameBytes.count)) + Self.le16(0) + nameBytes
  }

  /// The entry's central directory record.
  private func record(
    _ name: String, method: UInt16, crc: UInt32, compressed: UInt32, size: UInt32, at: Int
  ) {
    let nameBytes = Array(name.utf8)
    central += Self.le32(0x0201_4b50) + Self.le16(20) + Self.le16(20) + Self.le16(0)
    central += Self.le16(method) + Self.le16(0) + Self.le16(0x21) + Self.le32(crc)
    central += Self.le32(compressed) + Self.le32(size) + Self.le16(UInt16(nameBytes.count))
    central += Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le32(0)
    central += Self.le32(UInt32(truncatingIfNeeded: at)) + nameBytes
    entries += 1
  }

  /// `bytes` as a raw deflate stream.
  static func deflate(_ bytes: [UInt8]) throws -> [UInt8] {
    guard let compressor = libdeflate_alloc_compressor(level) else {
      throw ExportError.unwritable(path: "a dotLottie archive", reason: "cannot allocate memory")
    }
    defer { libdeflate_free_compressor(compressor) }
    var out = [UInt8](
      repeating: 0, count: libdeflate_deflate_compress_bound(compressor, bytes.count))
    let count = bytes.withUnsafeBytes { input in
      out.withUnsafeMutableBytes { output in
        libdeflate_deflate_compress(
          compressor, input.baseAddress, input.count, output.baseAddress, output.count)
      }
    }
    guard count > 0 else {
      throw ExportError.unwritable(path: "a dotLottie archive", reason: "deflate failed")
    }
    out.removeSubrange(count...)
    return out
  }

  static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
  static func le32(_ v: UInt32) -> [UInt8] {
    [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8(v >> 24)]
  }
}
