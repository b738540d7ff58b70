import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// Issue 37, item 2: what a test file's constructors checked is what the runner gets, and
/// the reader checks what it uses again.
@Suite struct TestFileSafetyTests {
  static func read(_ source: String) throws(ScriptError) -> TestFile {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "testfile-\(UUID()).test.lua")
    try? source.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    return try TestFile(path: url.path)
  }

  /// Tables edited after the call: an emptied `values`, a name leading up three folders, a
  /// moment at −1e9 s, `test.settled` turned into a frame. The runner sees the checked ones.
  @Test func editingAReturnedTableChangesNothing() throws {
    let file = try Self.read(
      """
      local test = morph.test
      local f = test.frame("card", { 80, 50, 220, 140 })
      f.values = {}
      f.kind = "quad"
      local s = test.snapshot "shot"
      s.name = "../../../X"
      s.scale = 1e6
      local a = test.approx(0.5, 1e-3)
      a.tolerance = -1
      local m = test.at(1) { turns = a }
      m.checks[1].time = -1e9
      m.checks[2] = { kind = "snapshot", name = "../../Y", time = 0, line = 1 }
      test.settled.kind = "frame"
      local c = test.case "x" { plugin = "p.lua", test.at(0) { f, s, test.settled }, m }
      c.plugin = "/etc/passwd"
      c.checks = {}
      return { c }
      """)
    let c = try #require(file.cases.first)
    #expect(c.plugin == "p.lua")
    #expect(c.checks.map(\.time) == [0, 0, 0, 1])
    #expect(
      c.checks.map(\.expectation) == [
        .frame(id: "card", Rect(x: 80, y: 50, width: 220, height: 140), tolerance: 0.01),
        .snapshot("shot", scale: 1, tolerance: .init()), .settled,
        .number(key: "turns", value: 0.5, tolerance: 1e-3),
      ])
  }

  /// A reused moment or check still reads as written in each case.
  @Test func aSharedMomentServesTwoCases() throws {
    let file = try Self.read(
      """
      local test = morph.test
      local rest = test.settledBy(2)
      return {
        test.case "a" { plugin = "p.lua", rest },
        test.case "b" { plugin = "p.lua", rest, test.at(1) { test.settled } },
      }
      """)
    #expect(file.cases.map(\.checks.count) == [1, 2])
    #expect(file.cases[1].checks.map(\.time) == [2, 1])
  }

  /// The reader on its own: JSON the vocabulary would never write is refused with the
  /// check's line, never a trap.
  @Test(arguments: [
    (#"{"kind":"frame","time":0,"line":7,"id":"a","values":[]}"#, "{x, y, width, height} expected"),
    (#"{"kind":"quad","time":0,"line":7,"id":"a","values":[1,2,3]}"#, "four corners"),
    (#"{"kind":"settled","time":-1e9,"line":7}"#, "a moment must be a finite time >= 0 s"),
    (#"{"kind":"snapshot","time":0,"line":7,"name":"../../X"}"#, "must be a file name"),
    (#"{"kind":"snapshot","time":0,"line":7,"name":"a","scale":1e6}"#, "scale must be in"),
    (#"{"kind":"state","time":0,"line":7,"key":"k","number":1,"tolerance":-1}"#, "tolerance"),
    (#"{"kind":"mystery","time":0,"line":7}"#, "unknown check"),
  ])
  func theReaderRefusesWhatItCannotUse(json: String, message: String) throws {
    do {
      _ = try JSONDecoder().decode(TestCheck.self, from: Data(json.utf8))
      Issue.record("accepted \(json)")
    } catch let error as InvalidTestValue {
      #expect(error.line == 7)
      #expect(error.message.contains(message), "\(error.message)")
    }
  }

  @Test func snapshotNamesThatStayInTheirFolder() {
    for good in ["back", "a_b-2", "X"] { #expect(TestCheck.isFileName(good)) }
    for bad in [
      "", ".", "..", "../x", "a/b", ".hidden", "a.b", "é", String(repeating: "a", count: 101),
    ] {
      #expect(!TestCheck.isFileName(bad), "\(bad)")
    }
  }
}
