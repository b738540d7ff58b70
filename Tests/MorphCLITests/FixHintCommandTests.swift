import Foundation
import Testing

@testable import MorphCLI

/// Every message of issue 36's list names the fix: a mistyped option, plugin or command
/// names the nearest valid one; `render -o` refuses what it cannot write; a folder given as
/// a plugin says so; a progress outside `progressRange` warns; a component without a
/// progress key names `--time` and `--duration`; errors show their place.
@Suite struct FixHintCommandTests {
  private func plugin(_ source: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("hint-\(UUID()).lua")
    try source.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  @Test func aMistypedOptionNamesTheNearestOne() {
    let r = runCommand(["render", "flip", "--progres", "0.5", "--format", "json"])
    #expect(r.status == 2)
    #expect(r.err == "morphhost: unknown option '--progres'; did you mean '--progress'?")
  }

  @Test func aMistypedPluginNameNamesTheNearestBundledOne() {
    let r = runCommand(["render", "flp", "--format", "json"])
    #expect(r.status == 1)
    #expect(r.err.contains("no bundled plugin of that name; did you mean 'flip'?"))
  }

  @Test func aMistypedCommandNamesTheNearestOne() {
    let r = runCommand(["rendr", "flip"])
    #expect(r.status == 2)
    #expect(r.err == "morphhost: unknown command 'rendr'; did you mean 'render'? try 'morphhost help'")
  }

  @Test func renderRefusesAnOutputItCannotWriteAndWritesNothing() {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("x-\(UUID()).jpg").path
    let r = runCommand(["render", "flip", "-o", out])
    #expect(r.status == 2)
    #expect(r.err.contains("cannot tell what to write to '\(out)': render writes .png .svg"))
    #expect(!FileManager.default.fileExists(atPath: out))
    let gif = runCommand(["render", "flip", "-o", "x.gif"])
    #expect(gif.err.hasSuffix("(for .gif, use morphhost export)"))
  }

  @Test func aFolderGivenAsAPluginSaysItIsAFolder() {
    let folder = FileManager.default.temporaryDirectory.path
    let r = runCommand(["render", folder, "--format", "json"])
    #expect(r.status == 1)
    #expect(r.err == "morphhost: \(folder) is a folder; give the plugin's .lua file inside it")
  }

  @Test func aProgressOutsideTheRangeWarnsAndStillRenders() {
    let r = runCommand(["render", "card_stack", "--progress", "9", "--format", "json"])
    #expect(r.status == 0)
    #expect(r.out.contains("\"canvas\""))
    // The warning goes to standard error through the process's own stream, not `output`.
  }

  @Test func aComponentWithoutAProgressKeyNamesTimeAndDuration() throws {
    let path = try plugin(
      "return morph.component { body = function() return morph.rect() end }")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let r = runCommand(["render", path, "--progress", "0.5", "--format", "json"])
    #expect(r.status == 1)
    #expect(r.err.contains("declares no 'progress' key: play it in time instead (render --time T, export --duration S)"))
  }

  @Test func aSyntaxErrorQuotesItsLineWithACaretAndPointsAtTheLineBefore() throws {
    let path = try plugin(
      """
      local m = morph
      local t = { 1, 2
      local x = 3
      return m.component { body = function() return m.rect() end }
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let r = runCommand(["render", path, "--format", "json"])
    #expect(r.status == 1)
    let lines = r.err.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasSuffix("near 'local'; the cause is likely at the end of line 2") == true)
    #expect(Array(lines.dropFirst()) == ["2 | local t = { 1, 2", "3 | local x = 3", "  | ^^^^^"])
  }

  @Test func aBodyWithoutReturnNamesTheBodysLine() throws {
    let path = try plugin(
      """
      local m = morph
      return m.component {
        body = function(self)
          m.rect()
        end,
      }
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let r = runCommand(["render", path, "--format", "json"])
    #expect(r.status == 1)
    #expect(r.err == "\(path):3: body must return a node, got nil (is its `return` missing?)")
  }

  @Test func tracebackShowsEveryFrameOnlyWhenAsked() throws {
    let path = try plugin(
      """
      local m = morph
      local function helper(x) return x.y.z end
      return m.component { body = function() return m.rect():frame(helper({}), 10) end }
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let plain = runCommand(["render", path, "--format", "json"])
    #expect(plain.err.split(separator: "\n").count == 1)
    let full = runCommand(["render", path, "--format", "json", "--traceback"])
    #expect(full.err.contains("stack traceback:"))
    #expect(full.err.contains("morph.component:"))
    #expect(full.err.contains(":2: in upvalue 'helper'"))
  }
}
