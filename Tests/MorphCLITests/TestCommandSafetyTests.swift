import Foundation
import Testing

@testable import MorphCLI

/// Issue 37, items 2 to 4, through the command: the reproductions end in one line and a
/// non-zero exit, and write nothing outside the folder given or onto an input.
@Suite struct TestCommandSafetyTests {
  static func scratch() throws -> URL {
    try AuthorTestCommandTests.scratch(copying: ["Plugins/flip.lua"])
  }

  /// `-o` naming the test file, its plugin or a golden: refused, the file untouched.
  @Test func theReportNeverReplacesAnInput() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let test = dir.appendingPathComponent("t.test.lua").path
    let source = """
      return { morph.test.case "x" { plugin = "flip.lua", morph.test.at(0) { morph.test.snapshot "s" } } }
      """
    try source.write(toFile: test, atomically: true, encoding: .utf8)
    #expect(runCommand(["test", test, "--update"]).status == 0)
    let golden = dir.appendingPathComponent("t.snapshots/s.png").path
    for target in [test, dir.appendingPathComponent("flip.lua").path, golden] {
      let before = try Data(contentsOf: URL(fileURLWithPath: target))
      let result = runCommand(["test", test, "-o", target])
      #expect(result.status == 2)
      #expect(
        result.err == "morphhost: -o \(target) is \(target), a file this run reads; "
          + "refusing to write the report over it")
      #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
    }
  }

  /// `--update` where `NAME.snapshots` is a file: one line, not Foundation's dump.
  @Test func aSnapshotsFileIsOneLine() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let test = dir.appendingPathComponent("t.test.lua").path
    try """
    return { morph.test.case "x" { plugin = "flip.lua", morph.test.at(0) { morph.test.snapshot "s" } } }
    """.write(toFile: test, atomically: true, encoding: .utf8)
    try "not a folder".write(
      to: dir.appendingPathComponent("t.snapshots"), atomically: true, encoding: .utf8)
    let result = runCommand(["test", test, "--update"])
    #expect(result.status == 1)
    #expect(
      result.out.contains(
        "\(test):1: at 0 s: \(dir.path)/t.snapshots is not a folder; goldens go in a folder of that name"
      ), Comment(rawValue: result.out))
    #expect(result.out.split(separator: "\n").count == 4)
  }

  /// A pull request's test file cannot put the CI machine's environment into the report.
  @Test func theEnvironmentNeverReachesTheReport() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let test = dir.appendingPathComponent("t.test.lua").path
    for input in ["/proc/self/environ", "../../../../../../../proc/self/environ", "env"] {
      try """
      return { morph.test.case "x" { plugin = "flip.lua", inputFile = "\(input)", morph.test.at(0) { turns = 0 } } }
      """.write(toFile: test, atomically: true, encoding: .utf8)
      try? FileManager.default.removeItem(atPath: dir.appendingPathComponent("env").path)
      try FileManager.default.createSymbolicLink(
        atPath: dir.appendingPathComponent("env").path, withDestinationPath: "/proc/self/environ")
      let result = runCommand(["test", test, "--format", "junit"])
      #expect(result.status == 1)
      #expect(result.out.contains("inputFile '\(input)'"), Comment(rawValue: result.out))
      #expect(!result.out.contains("PATH"), Comment(rawValue: result.out))
    }
  }
}
