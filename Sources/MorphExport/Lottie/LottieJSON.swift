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
  /// JSON text a long export has already written to its spool (`LottieSpool`), copied
  /// from there when the file is written.
  case spooled(Spooled)

  /// Where a value's text lies in the spool.
  public struct Spooled: Hashable, Sendable {
    var offset: Int
    var count: Int
  }

  /// Compact JSON text (of a value with nothing spooled).
  public var text: String {
    var sink = LottieStringSink(spool: nil)
    do { try write(into: &sink) } catch { preconditionFailure("\(error)") }
    return sink.text
  }

  func write<Sink: LottieTextSink>(into out: inout Sink) throws {
    switch self {
    case .bool(let b): try out.write(b ? "true" : "false")
    case .number(let n): try out.write(Self.format(n))
    case .string(let s): try out.write(SceneJSON.string(s))
    case .raw(let text): try out.write(text)
    case .spooled(let span): try out.write(span)
    case .array(let values):
      try out.write("[")
      for (i, v) in values.enumerated() {
        if i > 0 { try out.write(",") }
        try v.write(into: &out)
      }
      try out.write("]")
    case .object(let fields):
      try out.write("{")
      let keys = fields.keys.sorted { ($0 == "ty" ? 0 : 1, $0) < ($1 == "ty" ? 0 : 1, $1) }
      for (i, key) in keys.enumerated() {
        // The scene dump's escaping, so both files quote alike.
        try out.write((i > 0 ? "," : "") + SceneJSON.string(key) + ":")
        try fields[key]!.write(into: &out)
      }
      try out.write("}")
    }
  }

  /// Integers without a fraction; others in Swift's shortest round-trip form. JSON has no
  /// NaN or infinity: they are written as 0 (the writer never produces them).
  static func format(_ n: Double) -> String {
    guard n.isFinite else { return "0" }
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return "\(n)"
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

/// Where JSON text goes as it is made.
protocol LottieTextSink {
  mutating func write(_ text: String) throws
  mutating func write(_ span: LottieJSON.Spooled) throws
}

/// JSON text in memory, spooled values read back from `spool`.
struct LottieStringSink: LottieTextSink {
  var text = ""
  let spool: LottieSpool?

  mutating func write(_ text: String) { self.text += text }

  mutating func write(_ span: LottieJSON.Spooled) throws {
    guard let spool else { preconditionFailure("a spooled value without its spool") }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(span.count)
    try spool.read(span) { bytes.append(contentsOf: $0) }
    text += String(decoding: bytes, as: UTF8.self)
  }
}

/// JSON bytes handed on in pieces of about `pieceBytes` (to a file, an archive entry),
/// spooled values copied from `spool` the same way: memory stays bounded however long
/// the animation.
struct LottieByteSink: LottieTextSink {
  static let pieceBytes = 1 << 20
  let spool: LottieSpool?
  let output: (UnsafeRawBufferPointer) throws -> Void
  private var buffer: [UInt8] = []
  /// Bytes handed on so far.
  private(set) var count = 0

  init(spool: LottieSpool?, output: @escaping (UnsafeRawBufferPointer) throws -> Void) {
    self.spool = spool
    self.output = output
    buffer.reserveCapacity(Self.pieceBytes)
  }

  mutating func write(_ text: String) throws {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= Self.pieceBytes { try flush() }
  }

  mutating func write(_ span: LottieJSON.Spooled) throws {
    guard let spool else { preconditionFailure("a spooled value without its spool") }
    try flush()
    let output = output
    try spool.read(span) { try output($0) }
    count += span.count
  }

  /// Hands on what is buffered.
  mutating func flush() throws {
    guard !buffer.isEmpty else { return }
    try buffer.withUnsafeBytes { try output($0) }
    count += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }
}
