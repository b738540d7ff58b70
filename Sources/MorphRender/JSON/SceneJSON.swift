import Foundation
import MorphCore

/// The JSON scene dump: deterministic (fixed key order, numbers rounded to 3
/// decimals, no -0), so the same frame always gives the same bytes. It carries
/// every paint and effect of the display list: what a node draws, how, and the
/// compositing groups around it. A field at its default (no stroke, normal
/// blend, no clips) is left out.
public enum SceneJSON {
  public static func encode(_ list: DisplayList, summary: SceneSummary) -> String {
    var groups: [String] = []
    let nodes = nodes(list.commands, groups: &groups)
    var out = "{\n"
    out += "  \"name\": \(string(summary.name)),\n"
    out += "  \"canvas\": {\"width\": \(number(list.canvas.width)), "
    out += "\"height\": \(number(list.canvas.height))},\n"
    out += "  \"progress\": \(summary.progress.map(number) ?? "null"),\n"
    out += "  \"accessibility\": \(accessibility(summary.accessibility)),\n"
    out += "  \"nodes\": " + lines(nodes)
    if !groups.isEmpty { out += ",\n  \"groups\": " + lines(groups) }
    out += "\n}\n"
    return out
  }

  /// An array written one element a line.
  private static func lines(_ elements: [String]) -> String {
    elements.isEmpty
      ? "[]" : "[\n" + elements.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]"
  }

  /// The items of `commands` in paint order, each naming the groups it is drawn in
  /// (outermost first, as indices into `groups`, which collects their styles).
  static func nodes(_ commands: [DisplayCommand], groups: inout [String]) -> [String] {
    var open: [Int] = []
    var out: [String] = []
    for command in commands {
      switch command {
      case .item(let item): out.append(node(item, groups: open))
      case .beginGroup(let style):
        groups.append("")  // its place, so nested groups number after it
        let index = groups.count - 1
        groups[index] = group(style, groups: &groups)
        open.append(index)
      case .endGroup: _ = open.popLast()
      }
    }
    return out
  }

  static func node(_ item: DisplayItem, groups: [Int] = []) -> String {
    let quad = item.quad.map(point).joined(separator: ", ")
    var fields = [
      "\"id\": \(item.id.map(string) ?? "null")",
      "\"kind\": \(string(item.kind.rawValue))",
      "\"quad\": [\(quad)]",
      "\"opacity\": \(number(item.opacity))",
    ]
    let fill = item.fill?.representativeColor ?? item.text?.color
    fields.append("\"fill\": \(fill.map { string($0.hex) } ?? "null")")
    switch item.fill {
    case .linearGradient?, .radialGradient?, .angularGradient?, .image?:
      fields.append("\"paint\": \(paint(item.fill!))")
    case .color?, nil: break
    }
    if let text = item.text {
      fields.append("\"text\": \(string(text.string))")
      fields.append("\"font\": \(font(text))")
    }
    fields.append("\"z\": \(number(item.z))")
    if let trim = item.trim {
      fields.append("\"trim\": [\(number(trim.from)), \(number(trim.to))]")
    }
    if item.kind == .path || item.kind == .roundedRect || item.trim != nil {
      fields.append("\"path\": \(path(item.path))")
      fields.append("\"transform\": \(transform(item.transform))")
    }
    if let stroke = item.stroke { fields.append("\"stroke\": \(self.stroke(stroke))") }
    if let shadow = item.shadow { fields.append("\"shadow\": \(self.shadow(shadow))") }
    if item.blend != .normal { fields.append("\"blend\": \(string(item.blend.rawValue))") }
    if !item.clips.isEmpty { fields.append("\"clips\": \(clips(item.clips))") }
    if let handlers = item.handlers { fields.append("\"handlers\": \(self.handlers(handlers))") }
    if !groups.isEmpty {
      fields.append("\"groups\": [\(groups.map(String.init).joined(separator: ", "))]")
    }
    return "{" + fields.joined(separator: ", ") + "}"
  }

  private static func group(_ style: GroupStyle, groups: inout [String]) -> String {
    var fields = ["\"opacity\": \(number(style.opacity))"]
    if style.blend != .normal { fields.append("\"blend\": \(string(style.blend.rawValue))") }
    if let shadow = style.shadow { fields.append("\"shadow\": \(self.shadow(shadow))") }
    if !style.clips.isEmpty { fields.append("\"clips\": \(clips(style.clips))") }
    if style.blur > 0 { fields.append("\"blur\": \(number(style.blur))") }
    if !style.masks.isEmpty {
      let masks = style.masks.map { mask in
        "[" + nodes(mask, groups: &groups).joined(separator: ", ") + "]"
      }
      fields.append("\"masks\": [\(masks.joined(separator: ", "))]")
    }
    return "{" + fields.joined(separator: ", ") + "}"
  }

  private static func paint(_ paint: Paint) -> String {
    switch paint {
    case .color(let c): return string(c.hex)
    case .linearGradient(let g):
      return "{\"linearGradient\": {\"stops\": \(stops(g.stops)), \"start\": \(point(g.start)), "
        + "\"end\": \(point(g.end))}}"
    case .radialGradient(let g):
      return "{\"radialGradient\": {\"stops\": \(stops(g.stops)), \"center\": \(point(g.center)), "
        + "\"startRadius\": \(number(g.startRadius)), \"endRadius\": \(number(g.endRadius))}}"
    case .angularGradient(let g):
      return "{\"angularGradient\": {\"stops\": \(stops(g.stops)), \"center\": \(point(g.center)), "
        + "\"startAngle\": \(number(g.startAngle)), \"endAngle\": \(number(g.endAngle))}}"
    case .image(let image):
      // The file's name only: the real path differs from machine to machine.
      let name = URL(fileURLWithPath: image.source.path).lastPathComponent
      return "{\"image\": {\"file\": \(string(name)), \"width\": \(image.source.pixelWidth), "
        + "\"height\": \(image.source.pixelHeight), "
        + "\"interpolation\": \(string(image.interpolation.rawValue))}}"
    }
  }

  private static func stops(_ stops: [GradientStop]) -> String {
    "["
      + stops.map { "[\(string($0.color.hex)), \(number($0.location))]" }
      .joined(separator: ", ") + "]"
  }

  private static func stroke(_ s: Stroke) -> String {
    var fields = ["\"paint\": \(paint(s.paint))", "\"width\": \(number(s.width))"]
    if !s.dash.isEmpty {
      fields.append("\"dash\": [\(s.dash.map(number).joined(separator: ", "))]")
      fields.append("\"dashPhase\": \(number(s.dashPhase))")
    }
    fields.append("\"cap\": \(string(s.cap.rawValue))")
    fields.append("\"join\": \(string(s.join.rawValue))")
    return "{" + fields.joined(separator: ", ") + "}"
  }

  private static func shadow(_ s: Shadow) -> String {
    "{\"color\": \(string(s.color.hex)), \"radius\": \(number(s.radius)), "
      + "\"offset\": \(point(s.offset))}"
  }

  private static func clips(_ clips: [Clip]) -> String {
    "["
      + clips.map { "{\"path\": \(path($0.path)), \"transform\": \(transform($0.transform))}" }
      .joined(separator: ", ") + "]"
  }

  private static func font(_ t: TextRun) -> String {
    var fields = [
      "\"size\": \(number(t.size))", "\"weight\": \(string(t.weight.rawValue))",
    ]
    if t.italic { fields.append("\"italic\": true") }
    if t.monospacedDigit { fields.append("\"monospacedDigit\": true") }
    if t.tracking != 0 { fields.append("\"tracking\": \(number(t.tracking))") }
    if t.lineSpacing != 0 { fields.append("\"lineSpacing\": \(number(t.lineSpacing))") }
    if let limit = t.lineLimit { fields.append("\"lineLimit\": \(limit)") }
    if t.truncation != .tail { fields.append("\"truncation\": \(string(t.truncation.rawValue))") }
    if t.alignment != .leading { fields.append("\"alignment\": \(string(t.alignment.rawValue))") }
    return "{" + fields.joined(separator: ", ") + "}"
  }

  private static func handlers(_ h: Handlers) -> String {
    let names = [
      ("tap", h.tap), ("drag", h.drag), ("longPress", h.longPress), ("doubleTap", h.doubleTap),
    ]
    .compactMap { $0.1 == nil ? nil : string($0.0) }
    return "[" + names.joined(separator: ", ") + "]"
  }

  /// SVG-like commands: `["M", x, y]`, `["L", x, y]`, `["Q", cx, cy, x, y]`,
  /// `["C", c1x, c1y, c2x, c2y, x, y]`, `["Z"]`.
  private static func path(_ p: Path) -> String {
    let elements = p.elements.map { element -> String in
      switch element {
      case .move(let to): return "[\"M\", \(coordinates(to))]"
      case .line(let to): return "[\"L\", \(coordinates(to))]"
      case .quad(let to, let c): return "[\"Q\", \(coordinates(c)), \(coordinates(to))]"
      case .cubic(let to, let c1, let c2):
        return "[\"C\", \(coordinates(c1)), \(coordinates(c2)), \(coordinates(to))]"
      case .close: return "[\"Z\"]"
      }
    }
    return "[" + elements.joined(separator: ", ") + "]"
  }

  /// The 3×3 matrix by rows (row vectors: a point is `[x, y, 1] × M`).
  private static func transform(_ t: ProjectiveTransform) -> String {
    let values = [t.m11, t.m12, t.m13, t.m21, t.m22, t.m23, t.m31, t.m32, t.m33]
    return "[" + values.map(number).joined(separator: ", ") + "]"
  }

  private static func point(_ p: Point) -> String { "[\(coordinates(p))]" }
  private static func coordinates(_ p: Point) -> String { "\(number(p.x)), \(number(p.y))" }

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
