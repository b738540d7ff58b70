// The display list as an encodable model: every stored field of every command, so a dump
// (`SceneJSON`) or any tool sees what a backend draws. A field that is absent, empty or at
// its "nothing" value (identity transform, opacity 1, normal blend, z 0, no blur) is left
// out, so a plain shape stays short. Compact forms: a colour is `#RRGGBBAA`, a point
// `[x, y]`, a transform its 9 numbers by rows, a path SVG-like commands.

/// The coding key of any field: the models here name their keys by string.
struct FieldKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where Key == FieldKey {
  fileprivate mutating func put(_ key: String, _ value: some Encodable) throws {
    try encode(value, forKey: FieldKey(stringValue: key))
  }

  /// `value` unless it is nil.
  fileprivate mutating func put(_ key: String, ifPresent value: (some Encodable)?) throws {
    if let value { try put(key, value) }
  }

  /// `value` unless it equals `none`, the value that means "nothing here".
  fileprivate mutating func put<T: Encodable & Equatable>(
    _ key: String, _ value: T, unless none: T
  ) throws {
    if value != none { try put(key, value) }
  }

  fileprivate mutating func put<T: Encodable>(_ key: String, unlessEmpty value: [T]) throws {
    if !value.isEmpty { try put(key, value) }
  }
}

extension Encoder {
  fileprivate func fields() -> KeyedEncodingContainer<FieldKey> {
    container(keyedBy: FieldKey.self)
  }
}

extension DisplayList: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("canvas", canvas)
    try c.put("commands", commands)
  }
}

/// `{"item": …}`, `{"beginGroup": …}`, or the string `"endGroup"`.
extension DisplayCommand: Encodable {
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .item(let item):
      var c = encoder.fields()
      try c.put("item", item)
    case .beginGroup(let style):
      var c = encoder.fields()
      try c.put("beginGroup", style)
    case .endGroup:
      var c = encoder.singleValueContainer()
      try c.encode("endGroup")
    }
  }
}

extension GroupStyle: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("opacity", opacity, unless: 1)
    try c.put("blend", blend, unless: .normal)
    try c.put("shadow", ifPresent: shadow)
    try c.put("clips", unlessEmpty: clips)
    try c.put("blur", blur, unless: 0)
    try c.put("masks", unlessEmpty: masks)
  }
}

extension DisplayItem: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("id", ifPresent: id)
    try c.put("identity", identity, unless: "")
    try c.put("kind", kind)
    try c.put("path", unlessEmpty: path.elements)
    try c.put("frame", frame)
    try c.put("transform", transform, unless: .identity)
    try c.put("opacity", opacity, unless: 1)
    try c.put("fill", ifPresent: fill)
    try c.put("stroke", ifPresent: stroke)
    try c.put("trim", ifPresent: trim)
    try c.put("untrimmedPath", ifPresent: untrimmedPath?.elements)
    try c.put("shadow", ifPresent: shadow)
    try c.put("clips", unlessEmpty: clips)
    try c.put("blend", blend, unless: .normal)
    try c.put("z", z, unless: 0)
    try c.put("text", ifPresent: text)
    try c.put("handlers", ifPresent: handlers)
  }
}

extension ShapeKind: Encodable {}
extension BlendMode: Encodable {}
extension LineCap: Encodable {}
extension LineJoin: Encodable {}
extension ImageInterpolation: Encodable {}
extension FontWeight: Encodable {}
extension TextTruncation: Encodable {}
extension TextAlignment: Encodable {}

extension Clip: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("path", path.elements)
    try c.put("transform", transform)
  }
}

/// A flat colour is its `#RRGGBBAA`; anything else an object named by its kind.
extension Paint: Encodable {
  public func encode(to encoder: any Encoder) throws {
    if case .color(let color) = self {
      try color.encode(to: encoder)
      return
    }
    var c = encoder.fields()
    switch self {
    case .color: break
    case .linearGradient(let g): try c.put("linearGradient", g)
    case .radialGradient(let g): try c.put("radialGradient", g)
    case .angularGradient(let g): try c.put("angularGradient", g)
    case .image(let image): try c.put("image", image)
    }
  }
}

/// `[colour, location]`.
extension GradientStop: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.unkeyedContainer()
    try c.encode(color)
    try c.encode(location)
  }
}

extension LinearGradient: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("stops", stops)
    try c.put("start", ExactPoint(point: start))
    try c.put("end", ExactPoint(point: end))
  }
}

extension RadialGradient: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("stops", stops)
    try c.put("center", ExactPoint(point: center))
    try c.put("startRadius", startRadius)
    try c.put("endRadius", endRadius)
  }
}

extension AngularGradient: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("stops", stops)
    try c.put("center", ExactPoint(point: center))
    try c.put("startAngle", startAngle)
    try c.put("endAngle", endAngle)
  }
}

extension ImagePaint: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("source", source)
    try c.put("interpolation", interpolation)
  }
}

/// The file's name and pixel size: its folder and its stamp (a modification time) differ
/// from machine to machine, and an encoded frame must not.
extension ImageSource: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("file", path.split(separator: "/").last.map(String.init) ?? path)
    try c.put("width", pixelWidth)
    try c.put("height", pixelHeight)
  }
}

extension Stroke: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("paint", paint)
    try c.put("width", width)
    try c.put("dash", unlessEmpty: dash)
    try c.put("dashPhase", dashPhase, unless: 0)
    try c.put("cap", cap)
    try c.put("join", join)
  }
}

extension Shadow: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("color", color)
    try c.put("radius", radius)
    try c.put("offset", offset)
  }
}

/// `[from, to]`.
extension Trim: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.unkeyedContainer()
    try c.encode(from)
    try c.encode(to)
  }
}

extension TextRun: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("string", string)
    try c.put("size", size)
    try c.put("weight", weight)
    try c.put("color", color)
    try c.put("italic", italic, unless: false)
    try c.put("monospacedDigit", monospacedDigit, unless: false)
    try c.put("tracking", tracking, unless: 0)
    try c.put("lineLimit", ifPresent: lineLimit)
    try c.put("truncation", truncation, unless: .tail)
    try c.put("alignment", alignment, unless: .leading)
    try c.put("lineSpacing", lineSpacing, unless: 0)
  }
}

/// The names of the gestures handled: the handler references are the script's own.
extension Handlers: Encodable {
  public func encode(to encoder: any Encoder) throws {
    let names = [("tap", tap), ("drag", drag), ("longPress", longPress), ("doubleTap", doubleTap)]
    var c = encoder.unkeyedContainer()
    for (name, handler) in names where handler != nil { try c.encode(name) }
  }
}

extension SceneSummary: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("name", name)
    try c.put("progress", ifPresent: progress)
    try c.put("accessibility", ifPresent: accessibility)
  }
}

extension Accessibility: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("label", ifPresent: label)
    try c.put("value", ifPresent: value)
    try c.put("hint", ifPresent: hint)
    try c.put("traits", unlessEmpty: traits)
  }
}

/// `#RRGGBBAA`.
extension Color: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    try c.encode(hex)
  }
}

/// `[x, y]`.
extension Point: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.unkeyedContainer()
    try c.encode(x)
    try c.encode(y)
  }
}

extension Size: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("width", width)
    try c.put("height", height)
  }
}

extension Rect: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.fields()
    try c.put("x", origin.x)
    try c.put("y", origin.y)
    try c.put("width", size.width)
    try c.put("height", size.height)
  }
}

/// The 3×3 matrix by rows (row vectors: a point is `[x, y, 1] × M`), every entry exact:
/// a perspective term of 0.0005 rounded to a thousandth would move a corner by points.
extension ProjectiveTransform: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.unkeyedContainer()
    for m in [m11, m12, m13, m21, m22, m23, m31, m32, m33] { try c.encode(ExactNumber(m)) }
  }
}

/// A number a writer must keep to its last digit (a text writer: in shortest
/// round-trip form), where rounding moves what it implies — a transform's
/// entries, a gradient's unit points, which scale by the whole shape.
public struct ExactNumber: Encodable, Hashable, Sendable {
  public var value: Double
  public init(_ value: Double) { self.value = value }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    try c.encode(value)
  }
}

/// A gradient's unit point `[x, y]`, exact.
private struct ExactPoint: Encodable {
  var point: Point
  func encode(to encoder: any Encoder) throws {
    var c = encoder.unkeyedContainer()
    try c.encode(ExactNumber(point.x))
    try c.encode(ExactNumber(point.y))
  }
}

/// `["M", x, y]`, `["L", x, y]`, `["Q", cx, cy, x, y]`, `["C", c1x, c1y, c2x, c2y, x, y]`,
/// `["Z"]`.
extension Path.Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.unkeyedContainer()
    let (command, points): (String, [Point]) =
      switch self {
      case .move(let to): ("M", [to])
      case .line(let to): ("L", [to])
      case .quad(let to, let control): ("Q", [control, to])
      case .cubic(let to, let c1, let c2): ("C", [c1, c2, to])
      case .close: ("Z", [])
      }
    try c.encode(command)
    for point in points {
      try c.encode(point.x)
      try c.encode(point.y)
    }
  }
}
