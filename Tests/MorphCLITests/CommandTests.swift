import Foundation
import Testing

@testable import MorphCLI

/// Collects what a command writes.
final class CapturedOutput: TextOutput, @unchecked Sendable {
  var out: [String] = []
  var err: [String] = []
  func write(_ text: String) { out.append(text) }
  func error(_ text: String) { err.append(text) }
}

@Suite struct EvalCommandTests {
  @Test func printsWhatCodePrintsAndReturns() {
    let result = runCommand(["eval", "print('hi') return morph.lerp(0, 10, 0.5), 'x'"])
    #expect(result.status == 0)
    #expect(result.out == "hi\n5.0\n\"x\"")
  }

  @Test func luaErrorIsOneLineWithPosition() {
    let result = runCommand(["eval", "local x = nil\nreturn x.y"])
    #expect(result.status == 1)
    #expect(result.err == "eval:2: attempt to index a nil value (local 'x')")
  }

  @Test func evalsAFile() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morph-eval-\(UUID()).lua")
    try "return morph.ease.outBack(1)".write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = runCommand(["eval", "-f", url.path])
    #expect(result.status == 0)
    #expect(result.out == "1.0")
  }

  @Test func missingFileIsAClearError() {
    let result = runCommand(["eval", "-f", "/nonexistent/x.lua"])
    #expect(result.status == 1)
    #expect(result.err == "/nonexistent/x.lua: cannot read file: No such file or directory")
  }

  @Test func limitsAreConfigurable() {
    let result = runCommand(["eval", "--memory", "8", "return string.rep('x', 1e8)"])
    #expect(result.status == 1)
    #expect(result.err == "morphhost: not enough memory (cap 8 MiB)")
    let loop = runCommand(["eval", "--budget", "100000", "while true do end"])
    #expect(loop.err.hasPrefix("eval:1: plugin exceeded its time budget (100000 instructions"))
  }

  @Test func usageErrors() {
    #expect(runCommand([]).status == 2)
    #expect(
      runCommand(["frobnicate"]).err
        == "morphhost: unknown command 'frobnicate'; try 'morphhost help'")
    #expect(runCommand(["eval"]).status == 2)
    #expect(
      runCommand(["eval", "--memory", "lots", "return 1"]).err
        == "morphhost: --memory expects a number, got 'lots'")
    #expect(
      runCommand(["eval", "--bogus", "return 1"]).err == "morphhost: unknown option '--bogus'")
  }

  @Test func helpAndVersion() {
    #expect(runCommand(["--help"]).out.contains("morphhost eval 'CODE'"))
    #expect(runCommand(["--version"]).out.hasPrefix("morphhost "))
    for command in ["run", "render", "export", "check", "test", "new", "list", "eval", "bench"] {
      let help = runCommand([command, "--help"])
      #expect(help.status == 0 && help.out.hasPrefix("Usage: morphhost \(command)"), "\(command)")
    }
  }
}
