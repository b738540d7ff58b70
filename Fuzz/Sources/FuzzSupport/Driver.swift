/// The libFuzzer entry point SwiftPM's executables need: SwiftPM renames an
/// executable's `main` to `<target>_main`, so each target defines that and
/// hands its test function to `LLVMFuzzerRunDriver`.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the process's arguments and `test` as the target.
public func fuzz(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
  var count = argc
  var values = argv
  return runDriver(&count, &values, test)
}

/// The input as bytes (empty when libFuzzer passes none).
public func bytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
  guard let data, count > 0 else { return [] }
  return Array(UnsafeBufferPointer(start: data, count: count))
}

/// Reads choices from fuzz input, one byte at a time; zeros when it runs out.
public struct ByteReader {
  private let bytes: [UInt8]
  private var index = 0

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  public var isAtEnd: Bool { index >= bytes.count }

  public mutating func byte() -> UInt8 {
    defer { index += 1 }
    return index < bytes.count ? bytes[index] : 0
  }

  /// One of `choices`, picked by the next byte.
  public mutating func pick<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }

  /// A Lua literal for an argument: the values that break hosts — NaN, the
  /// infinities, huge and tiny numbers, negative zero, empty and long
  /// strings, tables of the wrong shape, nil.
  public mutating func luaValue(depth: Int = 0) -> String {
    switch byte() % 16 {
    case 0: return "0/0"
    case 1: return "math.huge"
    case 2: return "-math.huge"
    case 3: return "1e308"
    case 4: return "-1e-308"
    case 5: return "math.maxinteger"
    case 6: return "math.mininteger"
    case 7: return "nil"
    case 8: return "\"\(pick(["", "red", "#12", "#FF00FF80", "center", "bold", "x"]))\""
    case 9: return "string.rep('a', \(Int(byte()) * 40))"
    case 10 where depth < 3:
      let count = Int(byte() % 4)
      return "{" + (0..<count).map { _ in luaValue(depth: depth + 1) }.joined(separator: ", ") + "}"
    case 11 where depth < 3:
      let key = pick(["x", "y", "r", "radius", "width", "color", "axis", "stops", "style"])
      return "{\(key) = \(luaValue(depth: depth + 1))}"
    case 12: return "true"
    case 13: return "-0.0"
    default: return String(Double(Int8(bitPattern: byte())) * Double(byte()) / 7)
    }
  }
}
