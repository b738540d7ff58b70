import Foundation
import Testing

@testable import MorphCLI

/// Lua cuts chunk names at 60 bytes; every command must still name the whole path.
@Suite struct DeepPathTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  static let failingBody = """
    return morph.component {
      name = "Deep", size = { 100, 100 },
      body = function() error("boom") end,
    }
    """

  private func plugin(_ source: String, in folder: URL) throws -> String {
    let file = folder.appendingPathComponent("plugin_with_error.lua")
    try source.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  @Test func renderNamesTheWholePath() throws {
    let folder = try deepScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try plugin(Self.failingBody, in: folder)
    let result = runCommand(["render", path, "--format", "ascii"])
    #expect(result.status != 0)
    #expect(result.err == "\(path):3: boom")
  }

  @Test func evalFileNamesTheWholePath() throws {
    let folder = try deepScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try plugin("local x\n\nreturn x.y\n", in: folder)
    let result = runCommand(["eval", "-f", path])
    #expect(result.status == 1)
    #expect(result.err == "\(path):3: attempt to index a nil value (local 'x')")
  }

  @Test func checkFindsTheSeededMistakesAtTheirWholePath() throws {
    let folder = try deepScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("mistakes.lua").path
    try FileManager.default.copyItem(
      atPath: Self.fixtures.appendingPathComponent("mistakes.lua").path, toPath: path)
    let result = runCommand(["check", path, "--settle-limit", "2"])
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(
      lines.contains("\(path):14: error: body breaks past 0.6 (at progress 0.750, 1.000)"))
    #expect(result.status == 2, Comment(rawValue: result.out))
  }

  @Test func syntaxErrorsNameTheWholePath() throws {
    let folder = try deepScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try plugin("return morph.component {\n  name = ,\n}\n", in: folder)
    let result = runCommand(["check", path])
    #expect(result.out.hasPrefix("\(path):2: error: unexpected symbol near ','"))
  }
}

/// One diagnostic model: every error type says where, what, and how to exit.
@Suite struct DiagnosticTests {
  @Test func everyKindOfFailureIsOneLineWithItsStatus() throws {
    let folder = try deepScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("input.txt")
    try "0.0 tap\n0.5 wiggle\n".write(to: script, atomically: true, encoding: .utf8)
    let cases: [(arguments: [String], status: Int32, line: String)] = [
      (["render", "flip", "--frobnicate"], 2, "morphhost: unknown option '--frobnicate'"),
      (["render", "flip", "--time", "1", "--input", script.path], 2, "\(script.path):2: "),
      (["render", "no_such_plugin_here"], 1, "morphhost: no plugin 'no_such_plugin_here'"),
      (["eval", "error('x')"], 1, "eval:1: x"),
      (["eval", "return morph.color('nope')"], 1, "eval:1: "),
    ]
    for c in cases {
      let result = runCommand(c.arguments)
      #expect(result.status == c.status, "\(c.arguments): \(result.err)")
      #expect(result.err.hasPrefix(c.line), "\(c.arguments): \(result.err)")
      #expect(!result.err.contains("\n"), "\(c.arguments): \(result.err)")
    }
  }
}
