/// Input from a raw terminal, decoded.
enum TerminalInput: Equatable {
  case key(String)  // "space", "enter", "left", "right", "up", "down", "escape", or the character
  case mouse(MouseEvent)
}

/// An SGR mouse report (1-based cell coordinates).
struct MouseEvent: Equatable {
  /// `move`: the pointer moved with no button down (any-event tracking).
  enum Kind: Equatable { case press, drag, release, move }
  var kind: Kind
  var column: Int
  var row: Int
}

/// Splits raw bytes into keys and mouse reports. Bytes of an unfinished
/// escape sequence wait for the next read (a lone ESC counts as Escape when
/// nothing follows it in the same read).
struct KeyReader {
  private var pending: [UInt8] = []

  mutating func feed(_ bytes: [UInt8]) -> [TerminalInput] {
    pending += bytes
    var out: [TerminalInput] = []
    while !pending.isEmpty {
      guard let (input, used) = decode(pending) else { break }
      pending.removeFirst(used)
      if let input { out.append(input) }
    }
    return out
  }

  /// (input, bytes used), or nil when more bytes are needed.
  private func decode(_ b: [UInt8]) -> (TerminalInput?, Int)? {
    let first = b[0]
    switch first {
    case 0x1B:
      if b.count == 1 { return (.key("escape"), 1) }
      if Self.stringIntroducers.contains(b[1]) {
        guard b.count >= 3 else { return nil }
        if Self.startsReply(b[2]) { return skipString(b) }
      }
      guard b[1] == UInt8(ascii: "[") || b[1] == UInt8(ascii: "O") else {
        return (.key("escape"), 1)
      }
      guard b.count >= 3 else { return nil }
      switch b[2] {
      case UInt8(ascii: "A"): return (.key("up"), 3)
      case UInt8(ascii: "B"): return (.key("down"), 3)
      case UInt8(ascii: "C"): return (.key("right"), 3)
      case UInt8(ascii: "D"): return (.key("left"), 3)
      case UInt8(ascii: "<"): return decodeMouse(b)
      default:
        // Skip an unknown CSI sequence up to its final byte.
        guard let end = b[2...].firstIndex(where: { $0 >= 0x40 && $0 <= 0x7E }) else { return nil }
        return (nil, end + 1)
      }
    case 0x0D, 0x0A: return (.key("enter"), 1)
    case 0x20: return (.key("space"), 1)
    case 0x03: return (.key("ctrl-c"), 1)
    case 0x7F: return (.key("backspace"), 1)
    default:
      let length = first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
      guard b.count >= length else { return nil }
      return (.key(String(decoding: b[0..<length], as: UTF8.self)), length)
    }
  }

  /// ESC _ (APC), ESC P (DCS), ESC ] (OSC): strings a terminal answers
  /// queries with (kitty's graphics reply, say, arriving late). Never keys.
  static let stringIntroducers: Set<UInt8> = [
    UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"),
  ]

  /// The first byte of a reply's body (`G` of kitty's, a digit or `>` `!`
  /// of DCS and OSC ones): Alt with `_`, `P` or `]` followed by another key is not one.
  static func startsReply(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "G") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "!")
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// Skips a string up to its terminator (ESC \ or BEL).
  private func skipString(_ b: [UInt8]) -> (TerminalInput?, Int)? {
    var i = 2
    while i < b.count {
      if b[i] == 0x07 { return (nil, i + 1) }
      if b[i] == 0x1B && i + 1 < b.count && b[i + 1] == UInt8(ascii: "\\") { return (nil, i + 2) }
      i += 1
    }
    return b.count > 4096 ? (nil, b.count) : nil
  }

  /// ESC [ < button ; column ; row (M press/drag/move | m release). Bit 32 of
  /// the button marks motion; its low bits 3 mean no button is down.
  private func decodeMouse(_ b: [UInt8]) -> (TerminalInput?, Int)? {
    guard
      let end = b[3...].firstIndex(where: { $0 == UInt8(ascii: "M") || $0 == UInt8(ascii: "m") })
    else { return b.count > 32 ? (nil, b.count) : nil }
    let fields = String(decoding: b[3..<end], as: UTF8.self).split(separator: ";").compactMap {
      Int($0)
    }
    guard fields.count == 3 else { return (nil, end + 1) }
    let button = fields[0]
    let motion = button & 32 != 0
    let kind: MouseEvent.Kind
    if b[end] == UInt8(ascii: "m") {
      kind = .release
    } else if motion {
      kind = button & 3 == 3 ? .move : .drag
    } else {
      kind = .press
    }
    // Only the primary button (or none, moving); wheel and others are ignored.
    guard button & 3 == 0 || kind == .move, button & 64 == 0 else { return (nil, end + 1) }
    return (.mouse(MouseEvent(kind: kind, column: fields[1], row: fields[2])), end + 1)
  }
}
