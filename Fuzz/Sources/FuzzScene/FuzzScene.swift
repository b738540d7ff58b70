import FuzzSupport
import MorphCore
import MorphScript

/// The scene reader and layout: node trees built from fuzz-chosen
/// constructors, modifiers and arguments are read and laid out, or refused
/// with an error, never a trap.
let constructors = [
  "morph.rect()", "morph.circle()", "morph.capsule()", "morph.empty()", "morph.spacer(ARG)",
  "morph.roundedRect(ARG)", "morph.text(ARG)", "morph.text('hi', ARG)",
]
let modifiers = [
  "frame(ARG, ARG)", "frame(ARG)", "padding(ARG)", "offset(ARG, ARG)", "position(ARG, ARG)",
  "scale(ARG)", "rotate(ARG)", "rotate3d(ARG, ARG)", "opacity(ARG)", "fill(ARG)", "stroke(ARG)",
  "shadow(ARG)", "clip(ARG)", "blend(ARG)", "group()", "z(ARG)", "id(ARG)", "overlay(NODE)",
  "background(NODE)",
]

func node(_ reader: inout ByteReader, depth: Int) -> String {
  var text: String
  switch reader.byte() % 4 {
  case 0 where depth < 4:
    let kind = reader.pick(["zstack", "vstack", "hstack"])
    let children = (0..<Int(reader.byte() % 4)).map { _ in node(&reader, depth: depth + 1) }
    text = "morph.\(kind){ \(children.joined(separator: ", ")), spacing = \(reader.luaValue()) }"
  default:
    text = argumented(reader.pick(constructors), &reader, depth: depth)
  }
  for _ in 0..<Int(reader.byte() % 5) {
    text = "(\(text)):" + argumented(reader.pick(modifiers), &reader, depth: depth)
  }
  return text
}

func argumented(_ template: String, _ reader: inout ByteReader, depth: Int) -> String {
  var text = template
  while let range = text.range(of: "ARG") { text.replaceSubrange(range, with: reader.luaValue()) }
  while let range = text.range(of: "NODE") {
    text.replaceSubrange(range, with: node(&reader, depth: depth + 1))
  }
  return text
}

/// libFuzzer's callback: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  var reader = ByteReader(bytes(data, count))
  let code = "return " + node(&reader, depth: 0)
  let limits = ScriptLimits(memoryCapMiB: 16, instructionBudget: 2_000_000, wallClockSeconds: 1)
  guard let state = try? LuaState(limits: limits) else { return 0 }
  state.output = { _ in }
  guard let value = try? state.evaluate(code, chunkName: "fuzz").first,
    let view = try? state.readView(value, path: "fuzz")
  else { return 0 }
  _ = try? DisplayListBuilder().build(view.root, canvas: Size(400, 300), frame: Size(300, 200))
  return 0
}

@_cdecl("FuzzScene_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  fuzz(argc, argv) { testOneInput($0, $1) }
}
