import FuzzSupport
import MorphScript

/// The `morph` API: every function and every method of every object type,
/// called with fuzz-chosen arguments. Each call returns or raises a Lua
/// error; none may trap, hang past its budget or grow past its cap.
let functions = [
  "morph.angleDelta", "morph.bezier", "morph.clamp", "morph.color", "morph.deg",
  "morph.easeIn", "morph.fract", "morph.hash", "morph.hashInt", "morph.import",
  "morph.interactiveSpring", "morph.interpolatingSpring", "morph.lerp", "morph.linear",
  "morph.linearGradient", "morph.mix", "morph.path", "morph.rad", "morph.remap",
  "morph.roundedRect", "morph.shape", "morph.smoothstep", "morph.spacer", "morph.spring",
  "morph.text", "morph.timing", "morph.wrapDegrees", "morph.ease.outBounce",
  "morph.ease.inOutElastic", "morph.paths.roundedRect", "morph.paths.circle",
]
let objects = [
  "morph.spring()", "morph.timing('easeIn', 1)", "morph.bezier(0.2, 0, 0.3, 1)",
  "morph.color('#336699')", "morph.path():move(0, 0):line(10, 10)", "morph.rect()",
]
let methods = [
  "value", "velocity", "settle", "step", "delay", "speed", "repeatCount", "repeatForever", "at",
  "solve", "mix", "opacity", "move", "line", "quad", "cubic", "arc", "close", "rect", "ellipse",
  "append", "bounds", "transformed", "translated", "scaled", "rotated", "contains", "flatten",
  "frame", "padding", "fill", "stroke", "shadow", "rotate3d", "clip", "overlay",
]

/// libFuzzer's callback: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  var reader = ByteReader(bytes(data, count))
  var lines: [String] = []
  while !reader.isAtEnd && lines.count < 24 {
    let args = (0..<Int(reader.byte() % 5)).map { _ in reader.luaValue() }
    let list = args.joined(separator: ", ")
    if reader.byte() % 2 == 0 {
      lines.append("pcall(\(reader.pick(functions))\(list.isEmpty ? "" : ", ")\(list))")
    } else {
      let object = reader.pick(objects)
      let method = reader.pick(methods)
      lines.append(
        "do local o = \(object); if o.\(method) then pcall(o.\(method), o\(list.isEmpty ? "" : ", ")\(list)) end end"
      )
    }
  }
  let limits = ScriptLimits(memoryCapMiB: 16, instructionBudget: 2_000_000, wallClockSeconds: 1)
  guard let state = try? LuaState(limits: limits) else { return 0 }
  state.output = { _ in }
  _ = try? state.evaluate(lines.joined(separator: "\n"), chunkName: "fuzz")
  return 0
}

@_cdecl("FuzzMorphAPI_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  fuzz(argc, argv) { testOneInput($0, $1) }
}
