import Foundation
import FuzzSupport
import MorphHost
import MorphScript

/// A `*.test.lua` file: any source, run by the test runner with `--update` against a
/// small plugin, ends in results or one error, never a trap or a hang, and writes nothing
/// outside its folder (the folder's parent is checked after every input).
let plugin = """
  return morph.component {
    name = "fuzz", size = { 40, 30 }, state = { x = 0 },
    tap = function(self) self:animate(morph.linear(0.2), { x = 1 }) end,
    body = function(self) return morph.rect():fill("#2F6FED"):id("r"):offset(self.x, 0) end,
  }
  """

let parent = FileManager.default.temporaryDirectory.appendingPathComponent(
  "fuzz-testfile-\(getpid())")
let folder = parent.appendingPathComponent("tests")

/// libFuzzer's callback: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  try? FileManager.default.removeItem(at: parent)
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  try? plugin.write(to: folder.appendingPathComponent("p.lua"), atomically: true, encoding: .utf8)
  let test = folder.appendingPathComponent("f.test.lua")
  try? Data(bytes(data, count)).write(to: test)
  let limits = ScriptLimits(memoryCapMiB: 16, instructionBudget: 2_000_000, wallClockSeconds: 1)
  _ = TestRunner(limits: limits, update: true).run(file: test.path)
  // Nothing but the test folder beside it.
  let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
  if names != ["tests"] { fatalError("the runner wrote outside its folder: \(names)") }
  return 0
}

@_cdecl("FuzzTestFile_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  fuzz(argc, argv) { testOneInput($0, $1) }
}
