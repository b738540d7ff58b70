import Foundation
import MorphRender
import Testing

@testable import MorphCLI

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `morphhost test`: the project's own plugin tests, broken plugins, goldens, JUnit, and
/// test files that are wrong or hostile.
@Suite struct AuthorTestCommandTests {
  static let repository = Subprocess.repository

  /// A scratch folder holding copies of `files` (paths in the repository; folders whole).
  static func scratch(copying files: [String] = []) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("authortest-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for file in files {
      let source = repository.appendingPathComponent(file).resolvingSymlinksInPath()
      try FileManager.default.copyItem(
        at: source, to: url.appendingPathComponent(source.lastPathComponent))
    }
    return url
  }

  static func edit(_ url: URL, _ old: String, _ new: String) throws {
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains(old), "\(url.lastPathComponent) has no '\(old)'")
    try text.replacingOccurrences(of: old, with: new).write(
      to: url, atomically: true, encoding: .utf8)
  }

  @Test func theBundledAndExamplePluginsPassTheirTests() {
    let result = runCommand([
      "test", Self.repository.appendingPathComponent("Plugins").path,
      Self.repository.appendingPathComponent("Examples/plugins").path,
    ])
    #expect(result.status == 0, Comment(rawValue: result.out))
    let lines = result.out.split(separator: "\n")
    let passed = lines.count { $0.hasPrefix("  ✔ ") }
    #expect(passed >= 16)
    #expect(!result.out.contains("✘"))
    #expect(lines.last.map(String.init) == "\(passed) passed, 0 failed")
  }

  /// A slower flip: the angle at 0.3 s fails with its numbers; the other cases still pass.
  @Test func aChangedTimingFailsWithTheNumbers() throws {
    let dir = try Self.scratch(copying: [
      "Plugins/flip.lua", "Plugins/flip.test.lua", "Plugins/flip.snapshots",
    ])
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.edit(dir.appendingPathComponent("flip.lua"), "duration = 0.55", "duration = 0.7")
    let test = dir.appendingPathComponent("flip.test.lua").path
    let result = runCommand(["test", test])
    #expect(result.status == 1)
    // 0.5 · bezier(0.22, 1, 0.36, 1) at (0.3 − 1/120) / 0.7 is 0.46334757 by the curve's
    // closed form; the engine's solver is good to about 1e-7.
    #expect(
      result.out.contains(
        "\(test):13: at 0.3 s: state 'turns': expected 0.484933 ± 0.001, got 0.4633475"),
      Comment(rawValue: result.out))
    #expect(result.out.contains("  ✘ a tap turns the card half a turn along its timing curve"))
    #expect(
      result.out.contains(
        "\(test):16: at 0.6 s: expected to be at rest, still moving (turns); it comes to rest at"))
    #expect(result.out.hasSuffix("\n2 passed, 1 failed"))
  }

  /// A softer spring (response 0.6 s instead of 0.46 s): the fan is behind at 0.2 s by the
  /// amount the spring's closed form says, and comes to rest late.
  @Test func aChangedSpringFailsWithTheNumbers() throws {
    let dir = try Self.scratch(copying: [
      "Plugins/deck_fan.lua", "Plugins/deck_fan.test.lua", "Plugins/deck_fan.snapshots",
    ])
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.edit(dir.appendingPathComponent("deck_fan.lua"), "response = 0.46", "response = 0.6")
    let test = dir.appendingPathComponent("deck_fan.test.lua").path
    let result = runCommand(["test", test])
    #expect(result.status == 1)
    // 1 − e^(−ζω₀t)(cos ω_d t + ζω₀/ω_d sin ω_d t) at t = 0.2 − 1/120: 0.707328936.
    #expect(
      result.out.contains(
        "\(test):22: at 0.2 s: state 'interactive': expected 0.871552 ± 0.001, got 0.70732"),
      Comment(rawValue: result.out))
    #expect(result.out.contains("\(test):23: at 0.6 s: expected to be at rest, still moving"))
    #expect(result.out.hasSuffix("\n1 passed, 2 failed"))
  }

  /// Cards 10 pt apart instead of 8: the back card's frame fails by 6 pt, and the
  /// snapshot fails, writing the actual picture and a diff beside the golden.
  @Test func aMovedCardFailsItsFrameAndSnapshot() throws {
    let dir = try Self.scratch(copying: [
      "Plugins/deck_fan.lua", "Plugins/deck_fan.test.lua", "Plugins/deck_fan.snapshots",
    ])
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.edit(
      dir.appendingPathComponent("deck_fan.lua"), "return index * 8 end", "return index * 10 end")
    let test = dir.appendingPathComponent("deck_fan.test.lua").path
    let golden = dir.appendingPathComponent("deck_fan.snapshots/stacked.png")
    let before = try Data(contentsOf: golden)
    let result = runCommand(["test", test])
    #expect(result.status == 1)
    #expect(
      result.out.contains(
        "node 'card4' frame: expected {147.76, 85.92, 84.48, 116.16} ± 0.01, "
          + "got {147.76, 91.92, 84.48, 116.16} (worst: y off by 6)"), Comment(rawValue: result.out)
    )
    let actual = dir.appendingPathComponent("deck_fan.snapshots/stacked.actual.png")
    let diff = dir.appendingPathComponent("deck_fan.snapshots/stacked.diff.png")
    #expect(result.out.contains("snapshot 'stacked' differs from its golden: "))
    #expect(result.out.contains("wrote \(actual.path) and \(diff.path)"))
    // The golden stays; the actual picture is what the broken plugin draws.
    #expect(try Data(contentsOf: golden) == before)
    let picture = try RasterImage.decodePNG([UInt8](try Data(contentsOf: actual)))
    let expected = try RasterImage.decodePNG([UInt8](before))
    #expect(picture.width == expected.width && picture != expected)
    // The diff marks the differing pixels in red, on a faded copy of the golden.
    let marks = try RasterImage.decodePNG([UInt8](try Data(contentsOf: diff)))
    var red = 0
    for y in 0..<marks.height {
      for x in 0..<marks.width {
        let p = marks.pixel(x: x, y: y)
        if p.r == 255 && p.g == 0 && p.b == 0 { red += 1 }
      }
    }
    #expect(red > 100)
    // Fixed again, the case passes and the stale images go.
    try Self.edit(
      dir.appendingPathComponent("deck_fan.lua"), "return index * 10 end", "return index * 8 end")
    #expect(runCommand(["test", test]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: actual.path))
    #expect(!FileManager.default.fileExists(atPath: diff.path))
  }

  @Test func updateRecordsMissingGoldens() throws {
    let dir = try Self.scratch(copying: ["Plugins/ticket_tear.lua", "Plugins/ticket_tear.test.lua"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let test = dir.appendingPathComponent("ticket_tear.test.lua").path
    let golden = dir.appendingPathComponent("ticket_tear.snapshots/torn.png").path
    let missing = runCommand(["test", test])
    #expect(missing.status == 1)
    #expect(missing.out.contains("snapshot 'torn' has no golden yet (\(golden))"))
    #expect(missing.out.contains("2 snapshots without a golden: run with --update to record"))
    #expect(!FileManager.default.fileExists(atPath: golden))
    let update = runCommand(["test", test, "--update"])
    #expect(update.status == 0, Comment(rawValue: update.out))
    #expect(update.out.contains("recorded \(golden)"))
    // What was recorded is what the repository's golden holds, within tolerance.
    let recorded = try RasterImage.decodePNG(
      [UInt8](try Data(contentsOf: URL(fileURLWithPath: golden))))
    let committed = try RasterImage.decodePNG(
      [UInt8](
        try Data(
          contentsOf: Self.repository.appendingPathComponent(
            "Plugins/ticket_tear.snapshots/torn.png"))))
    let difference = try #require(ImageComparison.compare(expected: committed, actual: recorded))
    #expect(ImageTolerance.standard.allows(difference))
    let again = runCommand(["test", test])
    #expect(again.status == 0)
    #expect(again.out.hasSuffix("2 passed, 0 failed"))
  }

  /// One passing file, one failing, one that cannot load: JUnit XML that parses, with the
  /// counts and the failure's text.
  @Test func junitIsWellFormedXML() throws {
    let dir = try Self.scratch(copying: ["Plugins/flip.lua"])
    defer { try? FileManager.default.removeItem(at: dir) }
    try """
    local test = morph.test
    return {
      test.case "rests <face-on> & \\"still\\"" { plugin = "flip.lua", test.at(0) { turns = 0 } },
      test.case "wrong" { plugin = "flip.lua", test.at(0) { turns = 0.25 } },
    }
    """.write(to: dir.appendingPathComponent("a.test.lua"), atomically: true, encoding: .utf8)
    try "return {".write(
      to: dir.appendingPathComponent("b.test.lua"), atomically: true, encoding: .utf8)
    let report = dir.appendingPathComponent("report.xml").path
    let result = runCommand(["test", dir.path, "--format", "junit", "-o", report])
    #expect(result.status == 1)
    #expect(result.out.isEmpty)
    let data = try Data(contentsOf: URL(fileURLWithPath: report))
    let xml = JUnitReader()
    let parser = XMLParser(data: data)
    parser.delegate = xml
    #expect(parser.parse(), Comment(rawValue: String(decoding: data, as: UTF8.self)))
    #expect(xml.attributes["testsuites"]?["tests"] == "3")
    #expect(xml.attributes["testsuites"]?["failures"] == "1")
    #expect(xml.attributes["testsuites"]?["errors"] == "1")
    #expect(xml.cases == ["rests <face-on> & \"still\"", "wrong", "(load)"].sorted())
    #expect(xml.text["failure"]?.contains("state 'turns': expected 0.25 ± 1e-09, got 0") == true)
    #expect(xml.text["error"]?.contains("b.test.lua:1: ") == true)
    // To standard output, the same document.
    let stdout = runCommand(["test", dir.path, "--format", "junit"])
    #expect(stdout.out + "\n" == String(decoding: data, as: UTF8.self))
  }

  /// Wrong test files end in one line with file:line and a non-zero exit, in the
  /// plugins' sandbox under the same limits: never a hang.
  @Test(arguments: [
    ("syntax", "return {\n  morph.test.case \"x\" {\n    plugin = \"flip.lua\"\n    at(0) {}\n", 4),
    (
      "argument",
      "local test = morph.test\nreturn {\n  test.case \"x\" {\n    plugin = \"flip.lua\",\n"
        + "    test.at(0) { test.frame(\"card\", { 1, 2, 3 }) },\n  },\n}\n", 5
    ),
    ("loop", "local t = morph.test\n\nwhile true do end\n", 3),
    ("escape", "local f = io.open('/etc/passwd')\n", 1),
    (
      "many",
      "local t = morph.test\nlocal cases = {}\nfor i = 1, 1001 do\n"
        + "  cases[i] = t.case(tostring(i)) { plugin = 'flip.lua', t.settledBy(0) }\nend\n"
        + "return cases\n", 0
    ),
    (
      "long",
      "local t = morph.test\nreturn {\n  t.case 'a' { plugin = 'flip.lua', t.settledBy(3000) },\n"
        + "  t.case 'b' { plugin = 'flip.lua', t.settledBy(3000) },\n}\n", 0
    ),
  ])
  func aBadTestFileIsOneLine(name: String, source: String, line: Int) throws {
    let dir = try Self.scratch(copying: ["Plugins/flip.lua"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("\(name).test.lua")
    try source.write(to: file, atomically: true, encoding: .utf8)
    let result = try Subprocess.run(["test", file.path], deadline: 120)
    #expect(!result.timedOut)
    #expect(result.status == 1)
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, Comment(rawValue: result.out))
    #expect(lines.first == file.path)
    // Line 0: the file as a whole (too many cases, too long).
    let place = line == 0 ? file.path : "\(file.path):\(line)"
    #expect(lines.dropFirst().first?.hasPrefix("  ✘ \(place): ") == true)
    #expect(lines.last == "0 passed, 1 failed")
  }

  @Test func wordingOfArgumentErrors() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let cases: [(String, String)] = [
      ("test.at('soon') { turns = 0 }", "bad argument #1 to 'at' (number expected, got string)"),
      (
        "test.at(0) { test.frame('card', { 1, 2, 3 }) }",
        "bad argument #2 to 'frame' ({x, y, width, height} expected)"
      ),
      (
        "test.at(0) { 5 }",
        "bad argument #1 to 'at' (item 1: a check (test.accessibility, frame, quad, opacity, gradient, snapshot or settled) expected, got number)"
      ),
      (
        "test.at(0) { turns = {} }",
        "bad argument #1 to 'at' (option 'turns': a composite value needs at least one field)"
      ),
      (
        "test.at(0) { turns = test.settled }",
        "bad argument #1 to 'at' (option 'turns': a number, approx(…), string, boolean or a composite's fields expected, got table)"
      ),
      (
        "test.snapshot 'a b'",
        "bad argument #1 to 'snapshot' (a name is letters, digits, '_' and '-' (a file name), got 'a b')"
      ),
      ("test.approx(1, -1)", "bad argument #2 to 'approx' (tolerance must be >= 0, got -1)"),
    ]
    for (entry, message) in cases {
      let file = dir.appendingPathComponent("w.test.lua")
      try "local test = morph.test\nreturn { test.case 'x' { plugin = 'p.lua',\n\(entry) } }\n"
        .write(to: file, atomically: true, encoding: .utf8)
      let result = runCommand(["test", file.path])
      #expect(result.status == 1)
      #expect(result.out.contains("\(file.path):3: \(message)"), Comment(rawValue: result.out))
    }
    let unknown = dir.appendingPathComponent("u.test.lua")
    try "return { morph.test.case 'x' { plugin = 'p.lua', plugins = 1 } }\n".write(
      to: unknown, atomically: true, encoding: .utf8)
    #expect(
      runCommand(["test", unknown.path]).out.contains(
        "\(unknown.path):1: bad argument #1 to 'case' (unknown field 'plugins'; valid fields: "
          + "plugin, props, input, inputFile, reduceMotion)"))
  }

  @Test func theStarterTestOfNewPasses() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(runCommand(["new", "spinner", "--dir", dir.path]).status == 0)
    #expect(
      FileManager.default.fileExists(atPath: dir.appendingPathComponent("spinner.test.lua").path))
    let result = runCommand(["test", dir.path])
    #expect(result.status == 0, Comment(rawValue: result.out))
    #expect(result.out.hasSuffix("2 passed, 0 failed"))
  }

  @Test func pathsAndUsage() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let none = runCommand(["test", dir.path])
    #expect(none.status == 2)
    #expect(none.err == "morphhost: no *.test.lua files in \(dir.path)")
    #expect(runCommand(["test", "/nowhere"]).err == "morphhost: no such file or folder: /nowhere")
    #expect(runCommand(["test", dir.path, "--format", "tap"]).status == 2)
    let help = runCommand(["test", "--help"])
    #expect(help.status == 0 && help.out.contains("--update") && help.out.contains("junit"))
  }
}

/// Collects what the tests look at in a JUnit document.
final class JUnitReader: NSObject, XMLParserDelegate {
  var attributes: [String: [String: String]] = [:]
  var cases: [String] = []
  var text: [String: String] = [:]
  private var element = ""

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String]
  ) {
    element = name
    if self.attributes[name] == nil { self.attributes[name] = attributes }
    if name == "testcase", let n = attributes["name"] {
      cases.append(n)
      cases.sort()
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    text[element, default: ""] += string
  }
}
