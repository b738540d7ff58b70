import CDeflate

/// A dotLottie archive: a zip holding `manifest.json` and `animations/<id>.json`.
/// Entries are stored, not deflated: the players read them either way, and the JSON is
/// small already.
public enum DotLottie {
  public static func archive(json: String, id: String, generator: String) -> [UInt8] {
    let manifest: LottieJSON = [
      "version": "1", "generator": .string(generator),
      "animations": [["id": .string(id)]],
    ]
    return StoredZip.archive([
      ("manifest.json", Array((manifest.text + "\n").utf8)),
      ("animations/\(id).json", Array(json.utf8)),
    ])
  }
}

/// The smallest zip writer: stored entries, no extra fields, fixed timestamps (so the
/// same animation gives the same bytes).
enum StoredZip {
  static func archive(_ entries: [(name: String, data: [UInt8])]) -> [UInt8] {
    var out: [UInt8] = []
    var central: [UInt8] = []
    for (name, data) in entries {
      let crc = data.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
      let nameBytes = Array(name.utf8)
      let offset = UInt32(out.count)
      // Local file header.
      out += le32(0x0403_4b50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
      out += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count))
      out += le16(UInt16(nameBytes.count)) + le16(0) + nameBytes + data
      // Its central directory record.
      central += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0)
      central += le16(0x21) + le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count))
      central += le16(UInt16(nameBytes.count)) + le16(0) + le16(0) + le16(0) + le16(0)
      central += le32(0) + le32(offset) + nameBytes
    }
    let centralOffset = UInt32(out.count)
    out += central
    out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count))
    out += le16(UInt16(entries.count)) + le32(UInt32(central.count)) + le32(centralOffset)
    out += le16(0)
    return out
  }

  private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
  private static func le32(_ v: UInt32) -> [UInt8] {
    [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8(v >> 24)]
  }
}
