import FuzzSupport
import MorphScript

/// `--set KEY=VALUE`: any value text (Lua literal, JSON, string) against
/// props of every kind loads or fails with a ScriptError, never a trap.
let plugin = """
  return morph.component {
    props = { accent = morph.color "#2F6FED", count = 3, items = { "a" }, label = "x", on = true },
    body = function(self) return morph.rect():fill(self.accent):frame(10 * #self.items, 10) end,
  }
  """

/// libFuzzer's callback: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  var input = bytes(data, count)
  let key = ["accent", "count", "items", "label", "on", "nope"][Int(input.first ?? 0) % 6]
  if !input.isEmpty { input.removeFirst() }
  let value = String(decoding: input, as: UTF8.self)
  let options = ComponentOptions(
    props: [(key, value)],
    limits: ScriptLimits(memoryCapMiB: 16, instructionBudget: 2_000_000, wallClockSeconds: 1),
    output: { _ in })
  if let component = try? ComponentInstance(path: "fuzz.lua", source: plugin, options: options) {
    _ = try? component.view()
  }
  return 0
}

@_cdecl("FuzzSetValues_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  fuzz(argc, argv) { testOneInput($0, $1) }
}
