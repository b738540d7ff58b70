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
    #expect(
      r.err == "morphhost: unknown command 'rendr'; did you mean 'render'? try 'morphhost help'")
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
    #expect(
      r.err.contains(
        "declares no 'progress' key: play it in time instead (render --time T, export --duration S)"
      ))
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
    #expect(
      lines.first?.hasSuffix("near 'local'; the cause is likely at the end of line 2") == true)
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

  /// `self:after` runs on the component's clock: at 0.5 s exactly in `render --time` and
  /// in `test`, whatever their frame rates.
  @Test func aTimerFiresAtItsMomentInRenderAndTest() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("after-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try """
    return morph.component { size = {100, 100}, state = { x = 0 },
      appear = function(self) self:after(0.5, function(s) s.x = 7 end) end,
      body = function(self) return morph.rect():frame(10, 10):offset(self.x, 0):id("r") end }
    """.write(to: folder.appendingPathComponent("timer.lua"), atomically: true, encoding: .utf8)
    try """
    local test = morph.test
    return { test.case "fires at 0.5 s" { plugin = "timer.lua", test.at(0.499) { x = 0 },
      test.at(0.5) { x = 7 } } }
    """.write(
      to: folder.appendingPathComponent("timer.test.lua"), atomically: true, encoding: .utf8)
    let plugin = folder.appendingPathComponent("timer.lua").path
    func x(at time: String) -> String? {
      let r = runCommand(["render", plugin, "--time", time, "--input", "none", "--format", "json"])
      return r.out.range(
        of: #""transform": \[1, 0, 0, 0, 1, 0, [0-9.]+"#, options: .regularExpression
      )
      .map { String(r.out[$0].split(separator: " ").last ?? "") }
    }
    #expect(x(at: "0.499") == "69")
    #expect(x(at: "0.5") == "76")
    let test = runCommand(["test", folder.appendingPathComponent("timer.test.lua").path])
    #expect(test.status == 0, "\(test.out)\(test.err)")
  }
}
