import Foundation
import Testing

@testable import MorphScript

/// The LuaLS meta file must document everything `morph` offers, so editors
/// never miss a function.
@Suite struct MetaFileTests {
  static let metaPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/MorphScript/Lua/morph.meta.lua").path

  @Test func everyMorphFieldIsDocumented() throws {
    let meta = try String(contentsOfFile: Self.metaPath, encoding: .utf8)
    let state = try LuaState()
    let code = """
      local names = {}
      for k, v in pairs(morph) do
        names[#names + 1] = k
        if type(v) == "table" then
          for k2 in pairs(v) do names[#names + 1] = k .. "." .. k2 end
        end
      end
      table.sort(names)
      return table.concat(names, " ")
      """
    guard case .string(let list)? = try state.evaluate(code, chunkName: "meta").first else {
      Issue.record("no names")
      return
    }
    let names = list.split(separator: " ").map(String.init)
    #expect(names.count > 60)
    for name in names {
      let documented =
        meta.contains("function morph.\(name)(") || meta.contains("morph.\(name) =")
        || (name.hasPrefix("ease.") && meta.contains("---@field \(name.dropFirst(5)) "))
      #expect(documented, "morph.\(name) is missing from the meta file")
    }
  }
}
