/// Text from a plugin (its name, accessibility value, error messages, what it
/// prints) made safe to show on a terminal: every control character is shown
/// escaped (`\x1b`, `\u{9b}`), so no escape sequence reaches the terminal —
/// one could retitle the window, rewrite the screen, or (OSC 52) set the
/// clipboard. A newline and a tab stay as they are only where `multiline` allows it
/// (`eval` output, where `print` separates values with tabs).
func terminalSafe(_ text: String, multiline: Bool = false) -> String {
  var result = ""
  result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
  for scalar in text.unicodeScalars {
    if multiline && (scalar == "\n" || scalar == "\t") {
      result.unicodeScalars.append(scalar)
    } else if isControl(scalar) {
      result += escaped(scalar)
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// C0 controls, DEL, the C1 controls (0x9B is a one-byte CSI on some terminals), and the
/// bidirectional overrides, isolates and marks, which reorder what follows them on the line
/// (text that reads differently from what it is).
private func isControl(_ scalar: Unicode.Scalar) -> Bool {
  scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    || scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
}

private func escaped(_ scalar: Unicode.Scalar) -> String {
  switch scalar {
  case "\n": return "\\n"
  case "\t": return "\\t"
  case "\r": return "\\r"
  default:
    let hex = String(scalar.value, radix: 16)
    return scalar.value < 0x80
      ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
  }
}
