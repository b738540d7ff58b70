import Foundation
import Testing

@testable import morphhost

/// Collects what a command writes.
final class CapturedOutput: TextOutput, @unchecked Sendable {
  var out: [String] = []
  var err: [String] = []
  func write(_ text: String) { out.append(text) }
  func error(_ text: String) { err.append(text) }
}

private func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
  let output = CapturedOutput()
  let status = MorphhostCommand.run(arguments, output: output)
  return (status, output.out.joined(separator: "\n"), output.err.joined(separator: "\n"))
}

@Suite struct EvalCommandTests {
  @Test func printsWhatCodePrintsAndReturns() {
    let result = run(["eval", "print('hi') return morph.lerp(0, 10, 0.5), 'x'"])
    #expect(result.status == 0)
    #expect(result.out == "hi\n5.0\n\"x\"")
  }

  @Test func luaErrorIsOneLineWithPosition() {
    let result = run(["eval", "local x = nil\nreturn x.y"])
    #expect(result.status == 1)
    #expect(result.err == "eval:2: attempt to index a nil value (local 'x')")
  }

  @Test func evalsAFile() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morph-eval-\(UUID()).lua")
    try "return morph.ease.outBack(1)".write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = run(["eval", "-f", url.path])
    #expect(result.status == 0)
    #expect(result.out == "1.0")
  }

  @Test func missingFileIsAClearError() {
    let result = run(["eval", "-f", "/nonexistent/x.lua"])
    #expect(result.status == 1)
    #expect(result.err == "/nonexistent/x.lua: cannot read file")
  }

  @Test func limitsAreConfigurable() {
    let result = run(["eval", "--memory", "8", "return string.rep('x', 1e8)"])
    #expect(result.status == 1)
    #expect(result.err == "morphhost: not enough memory (cap 8 MiB)")
    let loop = run(["eval", "--budget", "100000", "while true do end"])
    #expect(loop.err.hasPrefix("eval:1: plugin exceeded its time budget (100000 instructions"))
  }

  @Test func usageErrors() {
    #expect(run([]).status == 2)
    #expect(
      run(["frobnicate"]).err == "morphhost: unknown command 'frobnicate'; try 'morphhost help'")
    #expect(run(["eval"]).status == 2)
    #expect(
      run(["eval", "--memory", "lots", "return 1"]).err
        == "morphhost: --memory expects a number, got 'lots'")
    #expect(run(["eval", "--bogus", "return 1"]).err == "morphhost: unknown option '--bogus'")
  }

  @Test func helpAndVersion() {
    #expect(run(["--help"]).out.contains("morphhost eval 'CODE'"))
    #expect(run(["--version"]).out.hasPrefix("morphhost "))
    for command in ["run", "render", "export", "check", "new", "list", "eval", "bench"] {
      let help = run([command, "--help"])
      #expect(help.status == 0 && help.out.hasPrefix("Usage: morphhost \(command)"), "\(command)")
    }
  }
}
