import Foundation

/// A straight (not premultiplied) sRGB colour with components in `[0, 1]`.
///
/// Initialisers clamp every component to `[0, 1]` and turn NaN into 0, so a `Color` is always
/// valid; callers that must reject NaN check their inputs first.
public struct Color: Hashable, Sendable, CustomStringConvertible {
  /// Red, in `[0, 1]`.
  public let red: Double
  /// Green, in `[0, 1]`.
  public let green: Double
  /// Blue, in `[0, 1]`.
  public let blue: Double
  /// Opacity, in `[0, 1]`.
  public let alpha: Double

  /// A colour from sRGB components (clamped; NaN becomes 0).
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = Self.clamp(red)
    self.green = Self.clamp(green)
    self.blue = Self.clamp(blue)
    self.alpha = Self.clamp(alpha)
  }

  /// A grey with equal components (clamped; NaN becomes 0).
  public init(white: Double, alpha: Double = 1) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  /// A colour given in Display P3 (SwiftUI's `Color(.displayP3, red:green:blue:opacity:)`),
  /// converted to sRGB: the same transfer curve, linear P3 to linear sRGB through CIE XYZ
  /// (D65), then clamped, so a P3 colour outside sRGB draws as the nearest sRGB one on
  /// each channel (the renderers draw in sRGB).
  public init(displayP3Red red: Double, green: Double, blue: Double, alpha: Double = 1) {
    let r = Self.linear(red)
    let g = Self.linear(green)
    let b = Self.linear(blue)
    self.init(
      red: Self.encoded(1.224_940_2 * r - 0.224_940_2 * g),
      green: Self.encoded(-0.042_056_9 * r + 1.042_056_9 * g),
      blue: Self.encoded(-0.019_637_6 * r - 0.078_636_1 * g + 1.098_273_7 * b), alpha: alpha)
  }

  /// The sRGB transfer curve (Display P3 shares it), decoded: component to linear light.
  static func linear(_ v: Double) -> Double {
    let x = min(max(v.isNaN ? 0 : v, 0), 1)
    return x <= 0.040_45 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
  }

  /// Linear light to an sRGB component.
  static func encoded(_ v: Double) -> Double {
    let x = min(max(v, 0), 1)
    return x <= 0.003_130_8 ? x * 12.92 : 1.055 * pow(x, 1 / 2.4) - 0.055
  }

  /// Opaque black.
  public static let black = Color(white: 0)
  /// Opaque white.
  public static let white = Color(white: 1)
  /// Fully transparent black.
  public static let clear = Color(white: 0, alpha: 0)

  /// The colour with its alpha multiplied by `a`, like SwiftUI's `.opacity(_:)`.
  public func opacity(_ a: Double) -> Color {
    Color(red: red, green: green, blue: blue, alpha: alpha * a)
  }

  /// Linear interpolation of the sRGB components: `amount` 0 gives `self`, 1 gives `other`.
  public func mix(with other: Color, amount: Double) -> Color {
    func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * amount }
    return Color(
      red: lerp(red, other.red), green: lerp(green, other.green),
      blue: lerp(blue, other.blue), alpha: lerp(alpha, other.alpha))
  }

  /// `#RRGGBBAA`, uppercase, each component rounded from ×255.
  public var hex: String {
    "#" + [red, green, blue, alpha].map { Self.hexByte($0) }.joined()
  }

  /// The components with red, green and blue multiplied by alpha.
  public var premultiplied: (red: Double, green: Double, blue: Double, alpha: Double) {
    (red * alpha, green * alpha, blue * alpha, alpha)
  }

  /// Always true: components are clamped on init. Kept for symmetry with the geometry types.
  public var isFinite: Bool {
    red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite
  }

  /// The `hex` form.
  public var description: String { hex }

  private static func clamp(_ v: Double) -> Double {
    v.isNaN ? 0 : min(max(v, 0), 1)
  }

  private static func hexByte(_ v: Double) -> String {
    let s = String(Int((v * 255).rounded()), radix: 16, uppercase: true)
    return s.count == 1 ? "0" + s : s
  }
}

// MARK: - Parsing

extension Color {
  /// SwiftUI's named system colours with their light-mode sRGB values (iOS 15+/17 palette;
  /// earlier releases used different values, e.g. teal was #5AC8FA).
  public static let named: [String: Color] = [
    "red": rgb(0xFF3B30), "orange": rgb(0xFF9500), "yellow": rgb(0xFFCC00),
    "green": rgb(0x34C759), "blue": rgb(0x007AFF), "purple": rgb(0xAF52DE),
    "pink": rgb(0xFF2D55), "teal": rgb(0x30B0C7), "indigo": rgb(0x5856D6),
    "gray": rgb(0x8E8E93), "black": .black, "white": .white, "clear": .clear,
  ]

  /// What people call the colour: its name in `named` ("black"), a named colour at an
  /// opacity ("black at 0.33"), or else its `hex`.
  public var name: String {
    let names = Self.named.sorted { $0.key < $1.key }
    if let exact = names.first(where: { $0.value == self }) { return exact.key }
    let opaque = Color(red: red, green: green, blue: blue, alpha: 1)
    if let base = names.first(where: { $0.value == opaque }) { return "\(base.key) at \(alpha)" }
    return hex
  }

  /// Parses `#RGB`, `#RRGGBB`, `#RRGGBBAA` (the `#` is optional) or a name from `named`.
  ///
  /// Surrounding whitespace is ignored and names are case-insensitive.
  public static func parse(_ s: String) throws(ColorError) -> Color {
    let text = s.trimmingCharacters(in: .whitespacesAndNewlines)
    let hasHash = text.hasPrefix("#")
    let body = hasHash ? String(text.dropFirst()) : text
    if let c = parseHex(body) { return c }
    if hasHash || body.isEmpty || body.allSatisfy(\.isHexDigit) {
      throw .malformed(s)
    }
    guard let c = named[body.lowercased()] else { throw .unknownName(s) }
    return c
  }

  private static func parseHex(_ body: String) -> Color? {
    guard body.allSatisfy(\.isHexDigit), body.unicodeScalars.allSatisfy(\.isASCII) else {
      return nil
    }
    guard let v = UInt32(body, radix: 16) else { return nil }
    switch body.count {
    case 3:
      // Each digit doubles: F → FF.
      let n = [(v >> 8) & 0xF, (v >> 4) & 0xF, v & 0xF].map { Double($0 * 17) / 255 }
      return Color(red: n[0], green: n[1], blue: n[2])
    case 6: return rgb(v)
    case 8: return rgb(v >> 8, alpha: Double(v & 0xFF) / 255)
    default: return nil
    }
  }

  private static func rgb(_ v: UInt32, alpha: Double = 1) -> Color {
    Color(
      red: Double((v >> 16) & 0xFF) / 255, green: Double((v >> 8) & 0xFF) / 255,
      blue: Double(v & 0xFF) / 255, alpha: alpha)
  }
}

/// Why a colour string did not parse.
public enum ColorError: Diagnostic, Hashable, Sendable {
  /// Not a well-formed hex colour (the input is kept).
  case malformed(String)
  /// Not hex and not one of `Color.named` (the input is kept).
  case unknownName(String)

  /// The accepted forms, for messages.
  public static let acceptedForms = "#RGB, #RRGGBB, #RRGGBBAA (the # is optional) or a colour name"

  public var message: String { description }

  /// A message naming the input and what would have been accepted.
  public var description: String {
    switch self {
    case .malformed(let s):
      return "invalid colour \"\(s)\": expected \(Self.acceptedForms)"
    case .unknownName(let s):
      let names = Color.named.keys.sorted().joined(separator: ", ")
      return "unknown colour name \"\(s)\": expected \(Self.acceptedForms) (one of \(names))"
        + Suggestion.clause(for: s, in: Color.named.keys.sorted())
    }
  }
}
