import FuzzSupport
import MorphHost

/// Input scripts: any text parses or fails with a ParseError, never a trap.

/// libFuzzer's callback: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let text = String(decoding: bytes(data, count), as: UTF8.self)
  _ = try? InputScript.parse(text, file: "fuzz.txt")
  return 0
}

@_cdecl("FuzzInputScript_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  fuzz(argc, argv) { testOneInput($0, $1) }
}
