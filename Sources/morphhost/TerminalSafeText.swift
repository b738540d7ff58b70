/// Text from a plugin (its name, accessibility value, error messages, what it
/// prints) made safe to show on a terminal: every control character is shown
/// escaped (`\x1b`, `\u{9b}`), so no escape sequence reaches the terminal —
/// one could retitle the window, rewrite the screen, or (OSC 52) set the
/// clipboard. A newline stays a line break only where `multiline` allows it.
func terminalSafe(_ text: String, multiline: Bool = false) -> String {
  var result = ""
  result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
  for scalar in text.unicodeScalars {
    if scalar == "\n" && multiline {
      result.unicodeScalars.append(scalar)
    } else if isControl(scalar) {
      result += escaped(scalar)
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// C0 controls, DEL, and the C1 controls (0x9B is a one-byte CSI on some terminals).
private func isControl(_ scalar: Unicode.Scalar) -> Bool {
  scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
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
