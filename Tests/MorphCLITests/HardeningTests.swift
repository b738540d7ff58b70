import Foundation
import MorphExport
import MorphRender
import Testing

@testable import MorphCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures")
private let noisy = fixtures.appendingPathComponent("noisy.lua").path

private func scratch() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("harden-\(UUID())")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Ends on its own, without a signal, with `status`, and one line on stderr that contains `text`.
private func expectRefusal(
  _ result: Subprocess.Result, status: Int32 = 2, mentioning text: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(!result.timedOut, "timed out", sourceLocation: sourceLocation)
  #expect(
    result.signal == nil, "killed by signal \(result.signal ?? 0)", sourceLocation: sourceLocation)
  #expect(result.status == status, Comment(rawValue: result.err), sourceLocation: sourceLocation)
  let lines = result.err.split(separator: "\n")
  #expect(lines.count == 1, Comment(rawValue: result.err), sourceLocation: sourceLocation)
  #expect(result.err.contains(text), Comment(rawValue: result.err), sourceLocation: sourceLocation)
}

/// Issue 8, items 5 and 14: input that used to trap or was silently accepted.
@Suite struct NumericInputTests {
  static let refused: [([String], String)] = [
    (["eval", "--memory", "1e300", "return 1"], "--memory"),
    (["eval", "--timeout", "1e300", "return 1"], "--timeout"),
    (["eval", "--memory", "-1", "return 1"], "--memory"),
    (["eval", "--budget", "-5", "return 1"], "--budget"),
    (["export", "deck_fan", "--fps", "0.01", "-o", "/tmp/morph-never.apng"], "--fps"),
    (
      ["export", "deck_fan", "--filmstrip", "3", "--columns", "0", "-o", "/tmp/never.png"],
      "--columns"
    ),
    (["run", "flip", "--max-time", "-1"], "--max-time"),
    (["run", "flip", "--cols", "0"], "--cols"),
    (["render", "flip", "--scale", "nan", "--format", "json"], "--scale"),
    (["render", "flip", "--progress", "inf", "--format", "json"], "--progress"),
  ]

  @Test(arguments: refused)
  func refusedWithOneLine(_ arguments: [String], _ option: String) throws {
    expectRefusal(try Subprocess.run(arguments, deadline: 30), mentioning: option)
  }

  @Test func aHugeDragDurationIsAScriptError() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = dir.appendingPathComponent("drag.txt")
    try "0 drag 0,0 -> 10,0 over 1e300\n".write(to: script, atomically: true, encoding: .utf8)
    let result = try Subprocess.run(
      ["render", "deck_fan", "--time", "1", "--input", script.path, "--format", "json"],
      deadline: 30)
    expectRefusal(result, mentioning: "drag.txt:1: expected a duration in (0, 3600]")
  }
}

/// Issue 8, item 9: virtual-time runs that could not finish are refused up front.
@Suite struct VirtualTimeTests {
  static let refused: [([String], String)] = [
    (["render", "flip", "--time", "1e9", "--format", "json"], "--time"),
    (["check", "flip", "--settle-limit", "1e300"], "--settle-limit"),
    (["run", "flip", "--max-time", "1e300"], "--max-time"),
    (["run", "flip", "--fps", "1e-300"], "--fps"),
    (["run", "flip", "--max-time", "3600", "--fps", "240"], "at most 36000"),
    (
      ["export", "deck_fan", "--duration", "600", "--fps", "240", "-o", "/tmp/never.apng"], "10000"
    ),
  ]

  @Test(arguments: refused)
  func refusedUpFront(_ arguments: [String], _ mention: String) throws {
    expectRefusal(try Subprocess.run(arguments, deadline: 30), mentioning: mention)
  }

  @Test func aLongDragInAScriptIsRefused() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = dir.appendingPathComponent("long.txt")
    try "0 drag 0,0 -> 10,0 over 1e7\n".write(to: script, atomically: true, encoding: .utf8)
    let result = try Subprocess.run(
      ["run", "flip", "--input", script.path, "--ascii"], deadline: 30)
    expectRefusal(result, mentioning: "long.txt:1:")
  }
}

/// Issue 8, items 11 and 12: plugin text never reaches the terminal raw, and
/// `print` never lands in standard output.
@Suite struct PluginTextTests {
  @Test func printGoesToStandardErrorEscaped() throws {
    let result = try Subprocess.run(["render", noisy, "--format", "json"], deadline: 30)
    #expect(result.status == 0, Comment(rawValue: result.err))
    // Standard output is JSON and nothing else.
    let json = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
    #expect(json?["name"] as? String == "noisy\u{1B}]52;c;aGVsbG8=\u{07}")
    #expect(result.err.contains("body says\\x1b]52;c;aGVsbG8=\\x07"))
    #expect(!result.err.contains("\u{1B}"))
  }

  @Test func errorsAreEscaped() throws {
    let result = try Subprocess.run([
      "render", noisy, "--input", "tap", "--time", "0.1", "--format", "json",
    ])
    #expect(result.status == 1)
    #expect(result.err.contains("noisy.lua:16: tapped\\x1b]52;c;aGVsbG8=\\x07"))
    #expect(!result.err.contains("\u{1B}") && !result.out.contains("\u{1B}"))
  }

  @Test func checkFindingsAndRunHeadersAreEscaped() throws {
    let check = try Subprocess.run(["check", noisy])
    #expect(check.out.contains("tapped\\x1b]52"), Comment(rawValue: check.out))
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = dir.appendingPathComponent("p.txt")
    try "0 progress 1\n".write(to: script, atomically: true, encoding: .utf8)
    let run = try Subprocess.run(["run", noisy, "--input", script.path, "--ascii"])
    #expect(run.status == 0, Comment(rawValue: run.err))
    #expect(run.out.contains("value=v\\x1b]52"), Comment(rawValue: run.out))
    for text in [check.out, check.err, run.out, run.err] { #expect(!text.contains("\u{1B}")) }
  }

  @Test func inputScriptErrorsAreEscaped() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = dir.appendingPathComponent("bad.txt")
    try "0 \u{1B}]0;title\u{07} tap\n".write(to: script, atomically: true, encoding: .utf8)
    let result = try Subprocess.run(["render", "flip", "--time", "1", "--input", script.path])
    expectRefusal(result, mentioning: "unknown event '\\x1b]0;title\\x07'")
  }

  @Test func sanitiserEscapesEveryControlCharacter() {
    #expect(terminalSafe("a\u{1B}[2Jb") == "a\\x1b[2Jb")
    #expect(terminalSafe("tab\there\r\n") == "tab\\there\\r\\n")
    #expect(terminalSafe("one\ntwo", multiline: true) == "one\ntwo")
    #expect(terminalSafe("c1 \u{9B}31m del \u{7F}") == "c1 \\u{9b}31m del \\x7f")
    #expect(terminalSafe("plain — ünïcode ✓") == "plain — ünïcode ✓")
  }
}

/// Issue 8, items 13 and 14: output files are replaced safely, or refused in one line.
@Suite struct OutputFileTests {
  @Test func aFIFOIsNeverReplaced() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("pipe").path
    #expect(mkfifo(fifo, 0o644) == 0)
    let result = try Subprocess.run(["run", "flip", "--png", fifo, "--ascii", "--max-time", "1"])
    expectRefusal(result, status: 1, mentioning: "is a FIFO")
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
  }

  @Test func aFolderOrAMissingFolderIsOneLine() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    expectRefusal(
      try Subprocess.run(["render", "flip", "-o", dir.path, "--format", "png"]), status: 1,
      mentioning: "is a folder")
    let missing = dir.appendingPathComponent("no/such/x.png").path
    expectRefusal(
      try Subprocess.run(["render", "flip", "-o", missing]), status: 1,
      mentioning: "its folder does not exist")
  }

  @Test func fullStandardOutputIsOneLineNotATrap() throws {
    let result = try Subprocess.run(["render", "flip", "--format", "json"], stdout: "/dev/full")
    expectRefusal(result, status: 1, mentioning: "cannot write to standard output")
  }

  @Test func unknownExportFormatIsRefusedAndMakesNothing() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let bmp = dir.appendingPathComponent("x.bmp").path
    let result = try Subprocess.run(["export", "deck_fan", "-o", bmp, "--frames", "2"])
    expectRefusal(result, mentioning: ".gif .webp .mp4 .webm")
    #expect(!FileManager.default.fileExists(atPath: bmp))
  }

  @Test func inputScriptFromAFIFO() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("input").path
    #expect(mkfifo(fifo, 0o644) == 0)
    // The writer blocks until the command opens the FIFO for reading.
    let writer = Thread {
      let fd = open(fifo, O_WRONLY)
      if fd >= 0 {
        _ = writeAll(Array("0 progress 0.5\n".utf8), to: fd)
        close(fd)
      }
    }
    writer.start()
    let result = try Subprocess.run(
      ["render", "deck_fan", "--time", "0.1", "--input", fifo, "--format", "json"], deadline: 30)
    #expect(result.status == 0, Comment(rawValue: result.err))
    #expect(result.out.contains("\"progress\": 0.5"), Comment(rawValue: result.out))
  }
}

/// Issue 8, item 7: a frame over budget is refused with a clear error, not drawn for 36 s.
@Suite struct FrameBudgetCommandTests {
  @Test func hugeShadowsAreRefusedQuickly() throws {
    let scene = fixtures.appendingPathComponent("huge_shadows.lua").path
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try Subprocess.run(
      ["render", scene, "-o", dir.appendingPathComponent("x.png").path], deadline: 30)
    expectRefusal(result, status: 1, mentioning: "the frame budget")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }
}
