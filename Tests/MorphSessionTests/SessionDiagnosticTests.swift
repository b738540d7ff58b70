import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphSession

/// An error shown by a front end keeps what it wraps, and reads its source once a version.
@Suite struct SessionDiagnosticTests {
  /// A wrapper like `ExportError.failed`: it passes the script's traceback on.
  struct Wrapped: Diagnostic {
    let inner: ScriptError
    var message: String { inner.message }
    var location: FilePosition? { inner.location }
    var traceback: String? { inner.traceback }
    var description: String { locatedMessage }
  }

  static func scratchFile(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("session-diagnostic-\(UUID()).lua").path
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  @Test func aWrappedScriptErrorKeepsItsTraceback() throws {
    let path = try Self.scratchFile("local a = 1\nerror('boom')\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script = ScriptError(
      kind: .runtime, chunk: path, line: 2, message: "boom",
      traceback: "stack traceback:\n\tplugin.lua:2: in main chunk")
    let shown = SessionDiagnostic(Wrapped(inner: script), sources: SourceLines())
    #expect(shown.traceback == script.traceback)
    #expect(shown.source == "error('boom')")
    #expect(shown.detail.hasSuffix("in main chunk"))
  }

  @Test func eachVersionOfAFileIsReadOnce() throws {
    let path = try Self.scratchFile("one\ntwo\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let sources = SourceLines()
    for _ in 0..<5 {
      #expect(sources.line(FilePosition(file: path, line: 2)) == "two")
    }
    #expect(sources.reads == 1)
    // A new version (its size changes too, whatever the clock's resolution).
    try "one\nthree\nfour\n".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(sources.line(FilePosition(file: path, line: 2)) == "three")
    #expect(sources.line(FilePosition(file: path, line: 3)) == "four")
    #expect(sources.reads == 2)
    #expect(sources.line(FilePosition(file: path, line: 9)) == nil)
  }
}
