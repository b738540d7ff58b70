import Foundation
import MorphCore

/// The JSON scene dump: the frame's summary and its display list, every field of every
/// command (the list's `Encodable` model), written deterministically — keys sorted, numbers
/// rounded to 3 decimals, no -0 — so the same frame always gives the same bytes. A
/// transform's entries and a gradient's unit points (`ExactNumber`) are written in
/// shortest round-trip form instead: every point they imply is the engine's. The top
/// level and its lists are written one entry a line, everything else on that line.
public enum SceneJSON {
  public static func encode(_ list: DisplayList, summary: SceneSummary) -> String {
    write(.encoding(summary, list)) + "\n"
  }

  /// `value` as text: arrays down to `depth` levels and objects down to `depth - 1`
  /// levels below `value` one entry a line, deeper ones inline.
  static func write(_ value: JSONValue, depth: Int = 2, indent: String = "") -> String {
    let inner = indent + "  "
    func lines(_ entries: [String], _ open: String, _ close: String) -> String {
      guard depth > (open == "{" ? 1 : 0), !entries.isEmpty else {
        return open + entries.joined(separator: ", ") + close
      }
      return open + "\n" + entries.map { inner + $0 }.joined(separator: ",\n") + "\n" + indent
        + close
    }
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .integer(let i): return String(i)
    case .number(let v): return number(v)
    case .exact(let v): return exact(v)
    case .string(let s): return string(s)
    case .array(let elements):
      return lines(elements.map { write($0, depth: depth - 1, indent: inner) }, "[", "]")
    case .object(let fields):
      let entries = fields.keys.sorted().map { key in
        string(key) + ": " + write(fields[key]!, depth: depth - 1, indent: inner)
      }
      return lines(entries, "{", "}")
    }
  }

  /// Rounded to 3 decimals, shortest form, never `-0`; NaN/inf become null. From 1e15 up
  /// a thousandth is below a Double's precision (and `v * 1000` can overflow), so the
  /// number is written whole in its shortest exponent form, which JSON allows.
  public static func number(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if abs(v) >= 1e15 { return "\(v)" }
    var r = (v * 1000).rounded() / 1000
    if r == 0 { r = 0 }
    if r == r.rounded(), abs(r) < 1e15 { return String(Int(r)) }
    return String(format: "%.3f", r).replacingOccurrences(
      of: "0+$", with: "", options: .regularExpression)
  }

  /// The shortest text that reads back as `v` exactly (Swift's `description`), a whole
  /// number without its `.0`, never `-0`; NaN/inf become null.
  public static func exact(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return "\(v)"
  }

  /// A JSON string literal.
  public static func string(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
