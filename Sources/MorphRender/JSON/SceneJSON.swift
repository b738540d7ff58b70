import Foundation
import MorphCore

/// The JSON scene dump: deterministic (fixed key order, numbers rounded to 3
/// decimals, no -0), so the same frame always gives the same bytes.
public enum SceneJSON {
  public static func encode(_ list: DisplayList, summary: SceneSummary) -> String {
    var out = "{\n"
    out += "  \"name\": \(string(summary.name)),\n"
    out += "  \"canvas\": {\"width\": \(number(list.canvas.width)), "
    out += "\"height\": \(number(list.canvas.height))},\n"
    out += "  \"progress\": \(summary.progress.map(number) ?? "null"),\n"
    out += "  \"accessibility\": \(accessibility(summary.accessibility)),\n"
    let nodes = list.items.map(node)
    out +=
      "  \"nodes\": [" + (nodes.isEmpty ? "]" : "\n" + nodes.joined(separator: ",\n") + "\n  ]")
    out += "\n}\n"
    return out
  }

  static func node(_ item: DisplayItem) -> String {
    let quad = item.quad.map { "[\(number($0.x)), \(number($0.y))]" }.joined(separator: ", ")
    var fields = [
      "\"id\": \(item.id.map(string) ?? "null")",
      "\"kind\": \(string(item.kind.rawValue))",
      "\"quad\": [\(quad)]",
      "\"opacity\": \(number(item.opacity))",
    ]
    let fill = item.fill?.representativeColor ?? item.text?.color
    fields.append("\"fill\": \(fill.map { string($0.hex) } ?? "null")")
    if let text = item.text { fields.append("\"text\": \(string(text.string))") }
    fields.append("\"z\": \(number(item.z))")
    return "    {" + fields.joined(separator: ", ") + "}"
  }

  static func accessibility(_ a: Accessibility?) -> String {
    guard let a else { return "null" }
    let traits = a.traits.map(string).joined(separator: ", ")
    return
      "{\"label\": \(a.label.map(string) ?? "null"), \"value\": \(a.value.map(string) ?? "null"), "
      + "\"hint\": \(a.hint.map(string) ?? "null"), \"traits\": [\(traits)]}"
  }

  /// Rounded to 3 decimals, shortest form, never `-0`; NaN/inf become null.
  public static func number(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    var r = (v * 1000).rounded() / 1000
    if r == 0 { r = 0 }
    if r == r.rounded(), abs(r) < 1e15 { return String(Int(r)) }
    return String(format: "%.3f", r).replacingOccurrences(
      of: "0+$", with: "", options: .regularExpression)
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
