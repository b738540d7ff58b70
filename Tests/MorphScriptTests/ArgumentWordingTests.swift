import MorphCore
import Testing

@testable import MorphScript

/// The error of evaluating `expression` (kept out of a tail call, which
/// would leave Lua no line to blame).
private func message(_ expression: String) -> String {
  do {
    let state = try LuaState()
    _ = try state.evaluate("local v = \(expression)\nreturn v", chunkName: "w.lua")
    return "no error"
  } catch {
    return error.description
  }
}

/// The Swift bindings (`LuaArgs`) and the host's Lua files (`support.check`)
/// word the same mistake the same way.
@Suite struct ArgumentWordingTests {
  /// (a call to a Swift binding, a call to a Lua one, the detail both must give
  /// for argument 1 or the one named).
  static let sameMistakes: [(swift: String, lua: String, detail: String)] = [
    ("morph.lerp('a', 0, 1)", "morph.rect():offset('a', 0)", "number expected, got string"),
    ("morph.lerp(0/0, 0, 1)", "morph.rect():offset(0/0, 0)", "number expected, got nan"),
    (
      "morph.paths.rect(math.huge, 0, 1, 1)", "morph.rect():offset(math.huge, 0)",
      "finite number expected, got inf"
    ),
    (
      "morph.color('#FFF'):mix('#000', morph.rect())", "morph.rect():offset(morph.rect())",
      "number expected, got morph.Node"
    ),
    (
      "morph.spring{ response = 'x' }", "morph.rect():frame{ width = 'x' }",
      "option 'response': number expected, got string"
    ),
  ]

  @Test func swiftAndLuaWordTheSameMistakeAlike() {
    for (swift, lua, detail) in Self.sameMistakes {
      let fromSwift = message(swift)
      let fromLua = message(lua)
      #expect(fromSwift.hasSuffix("(\(detail))"), "\(swift) → \(fromSwift)")
      let luaDetail = detail.replacingOccurrences(of: "'response'", with: "'width'")
      #expect(fromLua.hasSuffix("(\(luaDetail))"), "\(lua) → \(fromLua)")
      #expect(fromSwift.hasPrefix("w.lua:1: bad argument #"), "\(fromSwift)")
      #expect(fromLua.hasPrefix("w.lua:1: bad argument #"), "\(fromLua)")
    }
  }

  /// One enum (CornerStyle) checked by a Swift binding and by a Lua one.
  @Test func anInvalidEnumListsTheSwiftCasesInBoth() {
    let valid = CornerStyle.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    #expect(
      message("morph.paths.roundedRect(0, 0, 10, 10, 2, 'squircle')")
        == "w.lua:1: bad argument #6 to 'roundedRect' (invalid option 'squircle'; "
        + "expected one of \(valid))")
    #expect(
      message("morph.roundedRect(2, 'squircle')")
        == "w.lua:1: bad argument #2 to 'roundedRect' (invalid option 'squircle'; "
        + "expected one of \(valid))")
  }

  @Test func unknownOptionsListTheValidOnesInBoth() {
    #expect(
      message("morph.interactiveSpring{ respons = 1 }")
        == "w.lua:1: bad argument #1 to 'interactiveSpring' (unknown option 'respons' (did you mean 'response'?); "
        + "valid options: response, dampingFraction, blendDuration)")
    let frameOp = NodeSchema.ops.first { $0.name == "frame" }
    let frame = (frameOp?.options ?? []).map(\.name).joined(separator: ", ")
    #expect(
      message("morph.rect():frame{ widht = 1 }")
        == "w.lua:1: bad argument #1 to 'frame' (unknown option 'widht' (did you mean 'width'?); "
        + "valid options: \(frame))")
    #expect(
      message("morph.rect():frame{ [1] = 1 }")
        == "w.lua:1: bad argument #1 to 'frame' (unknown option '[number]'; valid options: \(frame))"
    )
    #expect(
      message("morph.interactiveSpring{ [1] = 1 }").hasPrefix(
        "w.lua:1: bad argument #1 to 'interactiveSpring' (unknown option '[number]'; "))
  }

  /// Every host Lua file checks through the one checker: component.lua and paths.lua too.
  @Test func componentAndPathChecksUseTheSameWords() {
    #expect(
      message("morph.component(42)")
        == "w.lua:1: bad argument #1 to 'component' (table expected, got number)")
    #expect(
      message("morph.path(42)")
        == "w.lua:1: bad argument #1 to 'path' (function expected, got number)")
  }
}

@Test func trimIsForShapesAndTakesFiniteFractions() {
  #expect(message("morph.text('x'):trim(0, 1)").contains("trim: only a shape node can be trimmed"))
  #expect(message("morph.circle():trim('a')").contains("bad argument #1 to 'trim'"))
  #expect(message("morph.circle():trim(0, math.huge)").contains("bad argument #2 to 'trim'"))
  #expect(message("morph.circle():trim()") == "no error")
}
