import Foundation
import MorphCore
import MorphRender
import MorphScript
import Testing

@testable import MorphHost

/// The library side of `morphhost test`: finding test files, reading them, running cases,
/// the difference image and JUnit's escaping.
@Suite struct AuthorTestRunnerTests {
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func write(_ text: String, _ url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  @Test func discoverySkipsHiddenFoldersAndFollowsNoLinkTwice() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    for name in [
      "a.test.lua", "b.lua", "sub/c.test.lua", ".hidden/d.test.lua", ".build/e.test.lua",
      "sub/deeper/f.test.lua",
    ] {
      try Self.write("", dir.appendingPathComponent(name))
    }
    // A link back up would be a circle; a link to a file found anyway, a duplicate.
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("sub/up").path, withDestinationPath: dir.path)
    let found = try TestDiscovery.files(in: [
      dir.path, dir.appendingPathComponent("a.test.lua").path,
    ])
    #expect(
      found
        == ["a.test.lua", "sub/c.test.lua", "sub/deeper/f.test.lua"].map {
          dir.path + "/" + $0
        })
    #expect(throws: TestDiscoveryError.self) { try TestDiscovery.files(in: ["/nowhere"]) }
  }

  @Test func aTestFileReadsAsCasesWithTheirLines() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("x.test.lua")
    try Self.write(
      """
      local test = morph.test
      local at = test.at
      return {
        test.case "one" {
          plugin = "p.lua",
          props = { duration = 0.5, label = "a \\"b\\"", axis = { 1, 0, 0 }, on = true },
          input = "0 tap",
          at(0.5) { turns = test.approx(0.25, 1e-3), name = "x", test.snapshot "s" },
          test.settledBy(1),
        },
      }
      """, file)
    let read = try TestFile(path: file.path)
    let one = try #require(read.cases.first)
    #expect(one.name == "one" && one.line == 4 && one.plugin == "p.lua" && one.input == "0 tap")
    #expect(one.props.map(\.key) == ["axis", "duration", "label", "on"])
    #expect(one.props.map(\.value) == ["{1, 0, 0}", "0.5", #""a \"b\"""#, "true"])
    #expect(one.checks.map(\.line) == [8, 8, 8, 9])
    #expect(one.checks.map(\.time) == [0.5, 0.5, 0.5, 1])
    #expect(
      one.checks.map(\.expectation) == [
        .text(key: "name", value: "x"), .number(key: "turns", value: 0.25, tolerance: 1e-3),
        .snapshot("s", scale: 1, tolerance: .init()), .settled,
      ])
  }

  /// The runner against a known curve: flip's angle at 0.3 s, on time and with a
  /// wrong expectation, and geometry by id.
  @Test func aCaseChecksStateAndGeometryAtItsTimes() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let test = dir.appendingPathComponent("flip.test.lua")
    try FileManager.default.copyItem(
      atPath: plugin("flip"), toPath: dir.appendingPathComponent("flip.lua").path)
    try Self.write(
      """
      local test = morph.test
      return {
        test.case "right" {
          plugin = "flip.lua", input = "0 tap",
          test.at(0.3) { turns = test.approx(0.4849333, 1e-6), test.frame("card", { 80, 50, 220, 140 }) },
        },
        test.case "wrong" {
          plugin = "flip.lua", input = "0 tap",
          test.at(0.3) { turns = 0.5, test.quad("card", { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } }, 1) },
          test.at(0.4) { test.accessibility "Showing front" },
        },
      }
      """, test)
    let result = TestRunner().run(file: test.path)
    #expect(result.error == nil)
    #expect(result.cases.map(\.passed) == [true, false])
    let failures = result.cases[1].failures.map(\.description)
    #expect(failures.count == 3)
    #expect(
      failures[0].hasPrefix(
        "\(test.path):9: at 0.3 s: state 'turns': expected 0.5 ± 1e-09, got 0.48493"))
    #expect(
      failures[1]
        == "\(test.path):9: at 0.3 s: node 'card' quad: expected {0, 0, 0, 0, 0, 0, 0, 0} ± 1, "
        + "got {80, 50, 300, 50, 300, 190, 80, 190} "
        + "(worst: top-right x off by 300; 8 of 8 out of tolerance)")
    #expect(
      failures[2]
        == "\(test.path):10: at 0.4 s: accessibility value: expected 'Showing front', got 'Showing back'"
    )
  }

  @Test func aSnapshotTakesAScale() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.copyItem(
      atPath: plugin("flip"), toPath: dir.appendingPathComponent("flip.lua").path)
    let test = dir.appendingPathComponent("flip.test.lua")
    try Self.write(
      """
      local test = morph.test
      return {
        test.case "sharp" { plugin = "flip.lua", test.at(0) { test.snapshot("front", { scale = 2 }) } },
      }
      """, test)
    let result = TestRunner(update: true).run(file: test.path)
    #expect(result.cases.first?.recorded == [dir.path + "/flip.snapshots/front.png"])
    let golden = try RasterImage.decodePNG(
      [UInt8](try Data(contentsOf: dir.appendingPathComponent("flip.snapshots/front.png"))))
    #expect(golden.width == 856 && golden.height == 576)
    #expect(TestRunner().run(file: test.path).cases.first?.passed == true)
    try Self.write(
      "return { morph.test.case 'x' { plugin = 'flip.lua',\n"
        + "  morph.test.at(0) { morph.test.snapshot('s', { scale = 9 }) } } }\n", test)
    #expect(
      TestRunner().run(file: test.path).error?.description
        == "\(test.path):2: bad argument #2 to 'snapshot' (option 'scale': scale must be in "
        + "[0.25, 4], got 9)")
  }

  @Test func theDifferenceImageMarksWhatMovedInRed() throws {
    func square(at x0: Int) -> RasterImage {
      var image = RasterImage(width: 20, height: 20, pixels: [UInt8](repeating: 255, count: 1600))
      for y in 4..<8 {
        for x in x0..<(x0 + 4) {
          let i = (y * 20 + x) * 4
          (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) = (0, 0, 0)
        }
      }
      return image
    }
    func red(_ image: RasterImage) -> Int {
      stride(from: 0, to: image.pixels.count, by: 4).count {
        image.pixels[$0] == 255 && image.pixels[$0 + 1] == 0 && image.pixels[$0 + 2] == 0
      }
    }
    let same = try #require(
      ImageComparison.differenceImage(expected: square(at: 4), actual: square(at: 4)))
    #expect(red(same) == 0)
    // The golden's square shows faded: grey, not black.
    #expect(same.pixel(x: 5, y: 5).r >= 191 && same.pixel(x: 5, y: 5).r < 255)
    let moved = try #require(
      ImageComparison.differenceImage(expected: square(at: 4), actual: square(at: 12)))
    // Where the square was and where it went: 16 pixels each.
    #expect(red(moved) == 32)
    #expect(
      ImageComparison.differenceImage(
        expected: square(at: 4), actual: RasterImage(width: 1, height: 1)) == nil)
  }

  @Test func junitEscapesWhatXMLCannotCarry() {
    #expect(
      JUnitReport.escape("a<b>&\"c\"\u{1B}[31m\n")
        == "a&lt;b&gt;&amp;&quot;c&quot;\u{FFFD}[31m&#10;")
  }
}
