import Foundation
import MorphCore
import MorphRender
import MorphScript
import Testing

@testable import MorphHost

/// What authors check beyond numbers and boxes (issue 34): a composite key's fields in
/// `at()`, a node's drawn opacity and its gradient, a snapshot's own tolerance, and a
/// failure that names the field furthest out, not the first.
@Suite struct TestVocabularyTests {
  /// A dot that moves from (0, 0) to (100, 50) and fades from 1 to 0.2 over a linear
  /// second after a tap, over a red-to-blue band, the two in a group at half opacity.
  static let plugin = """
    local m = morph
    return m.component {
      name = "Vocab", size = { 200, 100 },
      state = { pt = { x = 0, y = 0 }, fade = 1, bars = { 0, 0 } },
      tap = function(self)
        self:animate(m.linear(1), { pt = { x = 100, y = 50 }, fade = 0.2, bars = { 10, 20 } })
      end,
      body = function(self)
        return m.zstack {
          m.rect():fill(m.linearGradient {
            colors = { "#FF0000", "#0000FF" }, from = { 0, 0 }, to = { 1, 0 },
          }):frame(100, 40):id("band"),
          m.circle():fill("#00FF00"):frame(20, 20):offset(self.pt.x, self.pt.y)
            :opacity(self.fade):id("dot"),
        }:group():opacity(0.5)
      end,
    }
    """

  /// Runs `cases` (the body of a returned list) against the plugin; the result and the
  /// test file's path.
  static func run(_ cases: String, update: Bool = false, in dir: URL) throws -> (
    TestFileResult, String
  ) {
    try plugin.write(
      to: dir.appendingPathComponent("vocab.lua"), atomically: true, encoding: .utf8)
    let test = dir.appendingPathComponent("vocab.test.lua")
    try
      ("local test = morph.test\nlocal at, approx = test.at, test.approx\nreturn {\n"
      + cases + "\n}\n").write(to: test, atomically: true, encoding: .utf8)
    return (TestRunner(update: update).run(file: test.path), test.path)
  }

  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vocab-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// `pt = {x = …, y = …}` checks each field, an array's by position, with its own
  /// tolerance; a wrong field fails with the channel's name.
  @Test func aCompositeKeyIsCheckedFieldByField() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (result, path) = try Self.run(
      """
      test.case "right" {
        plugin = "vocab.lua", input = "tap",
        at(0.5) { pt = { x = approx(49.1667, 1e-3), y = approx(24.5833, 1e-3) }, bars = { approx(4.9167, 1e-3), approx(9.8333, 1e-3) } },
      },
      test.case "wrong" {
        plugin = "vocab.lua", input = "tap",
        at(1.5) { pt = { x = 100, y = 40 } },
      },
      """, in: dir)
    #expect(result.error == nil, "\(String(describing: result.error))")
    #expect(result.cases.map(\.passed) == [true, false])
    #expect(
      result.cases[1].failures.map(\.description) == [
        "\(path):10: at 1.5 s: state 'pt.y': expected 40 ± 1e-09, got 50 (off by 10)"
      ])
    let read = try TestFile(path: path)
    #expect(
      read.cases[1].checks.map(\.expectation) == [
        .number(key: "pt.x", value: 100, tolerance: 1e-9),
        .number(key: "pt.y", value: 40, tolerance: 1e-9),
      ])
  }

  @Test func aCompositeNeedsFields() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (result, path) = try Self.run(
      #"test.case "x" { plugin = "vocab.lua", at(0) { pt = {} } },"#, in: dir)
    #expect(
      result.error?.description
        == "\(path):4: bad argument #1 to 'at' (option 'pt': a composite value needs at least one field)"
    )
  }

  /// The drawn opacity is the node's own times its group's: 0.5 at rest, then the fade.
  @Test func opacityIsWhatIsDrawn() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (result, path) = try Self.run(
      """
      test.case "right" {
        plugin = "vocab.lua", input = "tap",
        at(0) { test.opacity("dot", 0.5) },
        at(1.5) { test.opacity("dot", 0.1), test.opacity("band", 0.5, 1e-9) },
      },
      test.case "wrong" {
        plugin = "vocab.lua",
        at(0) { test.opacity("dot", 1), test.opacity("nothing", 1) },
      },
      """, in: dir)
    #expect(result.error == nil, "\(String(describing: result.error))")
    #expect(result.cases.map(\.passed) == [true, false])
    #expect(
      result.cases[1].failures.map(\.description) == [
        "\(path):11: at 0 s: node 'dot' opacity: expected {1} ± 0.001, got {0.5} "
          + "(worst: opacity off by 0.5)",
        "\(path):11: at 0 s: no node with id 'nothing' (ids: band, dot)",
      ])
  }

  /// A gradient's ends in component points and its stops; a failure names the field
  /// furthest out.
  @Test func aGradientIsCheckedByItsEndsAndStops() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (result, path) = try Self.run(
      """
      test.case "right" {
        plugin = "vocab.lua",
        at(0) {
          test.gradient("band", { from = { 50, 30 }, to = { 150, 30 },
            stops = { { "#FF0000", 0 }, { "#0000FF", 1 } } }),
        },
      },
      test.case "wrong" {
        plugin = "vocab.lua",
        at(0) {
          test.gradient("band", { to = { 150, 31 }, stops = { { "#FF0000", 0 }, { "#00FF00", 0.9 } } }),
          test.gradient("dot", { center = { 0, 0 } }),
        },
      },
      """, in: dir)
    #expect(result.error == nil, "\(String(describing: result.error))")
    #expect(result.cases.map(\.passed) == [true, false])
    #expect(
      result.cases[1].failures.map(\.description) == [
        "\(path):14: at 0 s: node 'band' gradient: expected "
          + "{150, 31, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0.9} ± 0.01, "
          + "got {150, 30, 1, 0, 0, 1, 0, 0, 0, 1, 1, 1} "
          + "(worst: to y off by 1; 4 of 12 out of tolerance)",
        "\(path):15: at 0 s: node 'dot' is not filled with a gradient",
      ])
  }

  /// A snapshot's own tolerance: a picture with a moved dot fails the standard one and
  /// passes a looser one, whose failure message says what it was.
  @Test func aSnapshotTakesItsOwnTolerance() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let record = #"test.case "x" { plugin = "vocab.lua", at(0) { test.snapshot "rest" } },"#
    let (recorded, _) = try Self.run(record, update: true, in: dir)
    #expect(recorded.cases.first?.recorded.count == 1)
    // The dot 0.05 s into its move: a few points off, and fainter.
    let moved = { (tolerance: String) in
      """
      test.case "x" { plugin = "vocab.lua", input = "tap",
        at(0.05) { test.snapshot("rest", { tolerance = \(tolerance) }) } },
      """
    }
    let (strict, path) = try Self.run(moved("{ channel = 16 }"), in: dir)
    let failure = try #require(strict.cases.first?.failures.first?.description)
    #expect(failure.hasPrefix("\(path):5: at 0.05 s: snapshot 'rest' differs from its golden: "))
    #expect(failure.contains("(its tolerance: channel 16); wrote "), "\(failure)")
    let (loose, _) = try Self.run(moved("{ channel = 255, edgeChannel = 255 }"), in: dir)
    #expect(loose.cases.first?.passed == true, "\(loose.cases.first?.failures ?? [])")
    let (bad, badPath) = try Self.run(moved("{ fraction = 2 }"), in: dir)
    #expect(
      bad.error?.description
        == "\(badPath):5: bad argument #2 to 'snapshot' (option 'tolerance.fraction': "
        + "must be a number in [0, 1], got 2)")
  }
}
