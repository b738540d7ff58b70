import Foundation
import MorphRender

/// A JSON value as the Lottie writer emits it: object keys sorted, except `ty` first
/// (ThorVG reads an effect's type before its values and skips values met earlier),
/// numbers in their shortest form (the writer rounds them to what each tolerance needs).
public indirect enum LottieJSON: Hashable, Sendable {
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([LottieJSON])
  case object([String: LottieJSON])
  /// JSON text written as it is: a large value (a shape's vertex lists) made straight
  /// into text, which takes a tenth of the memory of the same value as a tree.
  case raw(String)

  /// Compact JSON text.
  public var text: String {
    var out = ""
    write(into: &out)
    return out
  }

  private func write(into out: inout String) {
    switch self {
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += Self.format(n)
    case .string(let s): Self.quote(s, into: &out)
    case .raw(let text): out += text
    case .array(let values):
      out += "["
      for (i, v) in values.enumerated() {
        if i > 0 { out += "," }
        v.write(into: &out)
      }
      out += "]"
    case .object(let fields):
      out += "{"
      let keys = fields.keys.sorted { ($0 == "ty" ? 0 : 1, $0) < ($1 == "ty" ? 0 : 1, $1) }
      for (i, key) in keys.enumerated() {
        if i > 0 { out += "," }
        Self.quote(key, into: &out)
        out += ":"
        fields[key]!.write(into: &out)
      }
      out += "}"
    }
  }

  /// Integers without a fraction; others in Swift's shortest round-trip form. JSON has no
  /// NaN or infinity: they are written as 0 (the writer never produces them).
  static func format(_ n: Double) -> String {
    guard n.isFinite else { return "0" }
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return "\(n)"
  }

  /// A JSON string literal: the scene dump's escaping, so both files quote alike.
  private static func quote(_ s: String, into out: inout String) {
    out += SceneJSON.string(s)
  }
}

extension LottieJSON: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: LottieJSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, LottieJSON)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
  }
}

extension LottieJSON {
  /// `value` rounded to `decimals` places (a value too large for its decimals to exist is
  /// kept whole: scaling it could overflow to infinity).
  static func rounded(_ value: Double, _ decimals: Int) -> LottieJSON {
    .number(roundedValue(value, decimals))
  }

  static func roundedValue(_ value: Double, _ decimals: Int) -> Double {
    guard abs(value) < 1e15 else { return value }
    let scale = pow(10, Double(decimals))
    let r = (value * scale).rounded() / scale
    return r == 0 ? 0 : r
  }

  static func rounded(_ values: [Double], _ decimals: Int) -> LottieJSON {
    .array(values.map { rounded($0, decimals) })
  }
}
