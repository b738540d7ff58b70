import Foundation
import MorphHost
import MorphRender
import MorphScript
import MorphTestSupport
import Testing

@testable import MorphCLI

private let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
/// Example scenes double as fixtures; test-only ones live in `Fixtures/`.
private func fixture(_ name: String) -> String {
  let example = here.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/scenes/\(name)")
  if FileManager.default.fileExists(atPath: example.path) { return example.path }
  return here.appendingPathComponent("Fixtures/\(name)").path
}
private func golden(_ name: String) -> String {
  here.appendingPathComponent("Goldens/\(name)").path
}

private func temporary(_ name: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("morph-\(UUID())-\(name)").path
}

/// Scene-only fixtures rendered through every backend and compared with goldens.
@Suite struct RenderGoldenTests {
  static let scenes = ["fan", "ticket", "flip"]

  @Test(arguments: scenes)
  func pngMatchesGolden(_ scene: String) throws {
    let out = temporary("\(scene).png")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let result = runCommand(["render", fixture("\(scene).lua"), "--progress", "0.6", "-o", out])
    #expect(result.status == 0, Comment(rawValue: result.err))
    let image = try RasterImage.decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
    #expect(image.width == 428 && image.height == 288)
    let check = try Golden.assertImage(image, matches: golden("\(scene).png"))
    #expect(check.passed, Comment(rawValue: check.description))
  }

  @Test(arguments: scenes)
  func retinaScaleDoublesPixels(_ scene: String) throws {
    let out = temporary("\(scene)@2x.png")
    defer { try? FileManager.default.removeItem(atPath: out) }
    #expect(runCommand(["render", fixture("\(scene).lua"), "--scale", "2", "-o", out]).status == 0)
    let image = try RasterImage.decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
    #expect(image.width == 856 && image.height == 576)
  }

  @Test(arguments: scenes)
  func jsonMatchesGolden(_ scene: String) throws {
    let result = runCommand([
      "render", fixture("\(scene).lua"), "--progress", "0.6", "--format", "json",
    ])
    #expect(result.status == 0, Comment(rawValue: result.err))
    let check = try Golden.assertText(result.out + "\n", matches: golden("\(scene).json"))
    #expect(check.passed, Comment(rawValue: check.description))
  }

  @Test(arguments: ["ascii", "ansi", "ansi256"])
  func textFormatsMatchGolden(_ format: String) throws {
    let result = runCommand([
      "render", fixture("fan.lua"), "--progress", "0.6", "--format", format, "--cols", "64",
      "--rows", "22",
    ])
    #expect(result.status == 0, Comment(rawValue: result.err))
    if format == "ascii" { #expect(!result.out.contains("\u{1B}")) }
    let check = try Golden.assertText(result.out + "\n", matches: golden("fan-\(format).txt"))
    #expect(check.passed, Comment(rawValue: check.description))
  }

  @Test func jsonIsDeterministic() {
    let a = runCommand(["render", fixture("ticket.lua"), "--format", "json"])
    let b = runCommand(["render", fixture("ticket.lua"), "--format", "json"])
    #expect(a.out == b.out && !a.out.isEmpty)
  }
}

@Suite struct RenderErrorTests {
  /// The bad call is a tail call (`return morph.rect():rotate(…)`): the line
  /// is still the plugin's.
  @Test func brokenBodyNamesTheFileAndLine() {
    let result = runCommand(["render", fixture("broken_body.lua"), "--format", "json"])
    #expect(result.status == 1)
    #expect(
      result.err.hasSuffix(
        "broken_body.lua:3: bad argument #1 to 'rotate' (number expected, got string)"))
  }

  @Test func hugeCanvasIsRefused() {
    let result = runCommand(["render", fixture("huge.lua"), "--format", "json"])
    #expect(result.status == 1)
    // Named by the file: no one line of it made the frame too large.
    #expect(
      result.err
        == fixture("huge.lua")
        + ": canvas width 100048.0 is too large (at most 16384 points a side)")
  }

  @Test func benchRunsEveryStage() {
    let result = runCommand(["bench", fixture("ticket.lua"), "--frames", "1"])
    #expect(result.status == 0, Comment(rawValue: result.err))
    #expect(result.out.contains("ticket "))
    #expect(result.out.contains("1000 nodes x 3 modifiers"))
    #expect(result.out.contains("patterns (find/match/gmatch/gsub"))
    // The preview's figures: the encoder's tally and the dragged stream.
    #expect(result.out.contains("superseded by a newer one"))
    #expect(result.out.contains("dragged back and forth by a 60 Hz pointer"))
  }

  /// The plain records the bench builds as its floor are the tree `morph` builds.
  @Test func benchPlainTablesMatchTheNodeFormat() throws {
    let state = try LuaState()
    let builders = try BenchCommand.nodeBuilders(state)
    let viaMorph = try state.call(builders.morph).first ?? .nil
    let plain = try state.call(builders.plain).first ?? .nil
    let compare = try state.load(
      """
      local function differs(a, b, at)
        if type(a) ~= type(b) then return at end
        if type(a) ~= "table" then return a ~= b and at or nil end
        for k, v in next, a do
          local d = differs(v, rawget(b, k), at .. "." .. tostring(k))
          if d then return d end
        end
        for k in next, b do
          if rawget(a, k) == nil then return at .. "." .. tostring(k) end
        end
      end
      local a, b = ...
      return differs(a, b, "tree")
      """, chunkName: "compare")
    let difference = try state.call(compare, [viaMorph, plain]).first ?? .nil
    #expect(difference.typeName == "nil", "the trees differ at \(difference)")
  }

  /// SVG and PDF by the output's extension or `--format`; a bad path gets one line and
  /// leaves nothing.
  @Test func vectorStillsByExtension() throws {
    for (ext, magic) in [("svg", "<?xml"), ("pdf", "%PDF-")] {
      let out = temporary("fan.\(ext)")
      defer { try? FileManager.default.removeItem(atPath: out) }
      let result = runCommand(["render", fixture("fan.lua"), "--progress", "0.6", "-o", out])
      #expect(result.status == 0, Comment(rawValue: result.err))
      let head = try Data(contentsOf: URL(fileURLWithPath: out)).prefix(magic.utf8.count)
      #expect(String(decoding: head, as: UTF8.self) == magic)
      let missing = temporary("no-such-folder/fan.\(ext)")
      let refused = runCommand(["render", fixture("fan.lua"), "--format", ext, "-o", missing])
      #expect(refused.status == 1 && refused.err.split(separator: "\n").count == 1)
      #expect(!FileManager.default.fileExists(atPath: missing))
    }
    let dev = runCommand(["render", fixture("fan.lua"), "-o", "/dev/null", "--format", "svg"])
    #expect(dev.status == 1, Comment(rawValue: dev.err))
  }

  @Test func missingFile() {
    let result = runCommand(["render", "/no/such/scene.lua", "--format", "json"])
    #expect(result.status == 1)
    #expect(result.err == "morphhost: /no/such/scene.lua: no such file")
  }

  @Test func usageErrors() {
    #expect(
      runCommand(["render", fixture("fan.lua"), "--format", "gif"]).err
        == "morphhost: --format must be one of png, svg, pdf, ansi, ansi256, ascii, json; got 'gif'"
    )
    #expect(
      runCommand(["render", fixture("fan.lua"), "--format", "png"]).err
        == "morphhost: png output needs -o FILE.png")
    #expect(
      runCommand(["render", fixture("fan.lua"), "--format", "pdf"]).err
        == "morphhost: pdf output needs -o FILE.pdf")
    #expect(runCommand(["render", fixture("fan.lua"), "--scale", "0", "-o", "x.png"]).status == 2)
    #expect(runCommand(["render"]).status == 2)
    #expect(runCommand(["render", "--help"]).out.contains("Usage: morphhost render PLUGIN"))
  }
}

/// The one input rule (issue 34, `InputScript.default`): no input unless one is given, in
/// every command; `--input tap` asks for one tap at 0 s and `--input none` plays nothing;
/// each `--help` states the rule from the same text. `run --duration` prints endless motion
/// in a pipe for that long and stops.
@Suite struct InputRuleTests {
  /// The front face's transform in `render flip --time 1` with `extra` arguments.
  func front(_ extra: [String]) throws -> [Double] {
    let result = runCommand(["render", "flip", "--time", "1", "--format", "json"] + extra)
    #expect(result.status == 0, "\(result.err)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let commands = try #require(json["commands"] as? [Any])
    let item = try #require(
      commands.compactMap { ($0 as? [String: Any])?["item"] as? [String: Any] }
        .first { $0["id"] as? String == "front" })
    return try #require(item["transform"] as? [Double])
  }

  @Test func noInputUnlessGivenAndTapAsksForOne() throws {
    let untouched: [Double] = [1, 0, 0, 0, 1, 0, 104, 74, 1]
    #expect(try front([]) == untouched)
    #expect(try front(["--input", "none"]) == untouched)
    // One tap at 0: half a turn, the front face mirrored.
    #expect(try front(["--input", "tap"]).first.map { abs($0 + 1) < 1e-9 } == true)
  }

  /// Every command's help states the rule, from `InputScript`'s own text.
  @Test(arguments: ["render", "run", "export", "check", "test", "preview"])
  func everyHelpStatesTheRule(command: String) {
    let help = runCommand([command, "--help"]).out
    #expect(help.contains(InputScript.defaultText), "\(command): \(help)")
    #expect(help.contains("--input") || command == "test", "\(command)")
  }

  /// `run` in a pipe shows the card as it starts and stops at once; a tap flips it.
  @Test func aPipedRunPlaysOnlyTheInputGiven() throws {
    let still = runCommand(["run", "flip", "--ascii", "--cols", "20", "--rows", "5"])
    #expect(still.status == 0, "\(still.err)")
    #expect(still.out.split(separator: "\n").last == "settled at t=0.000", "\(still.out)")
    let tapped = runCommand([
      "run", "flip", "--ascii", "--cols", "20", "--rows", "5", "--input", "tap",
    ])
    #expect(tapped.status == 0, "\(tapped.err)")
    #expect(tapped.out.contains("progress=0.5000"), "\(tapped.out)")
    #expect(tapped.out.split(separator: "\n").last != "settled at t=0.000")
  }

  /// `export --duration` with no input: every frame the same, merged into one.
  @Test func anExportPlaysNothingUnlessAsked() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rule-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for (input, moving) in [([String](), false), (["--input", "tap"], true)] {
      let out = dir.appendingPathComponent("flip-\(moving).apng").path
      let result = runCommand(
        ["export", "flip", "-o", out, "--duration", "1", "--fps", "10", "--scale", "0.25"] + input)
      #expect(result.status == 0, "\(result.err)")
      let chunks = try PNGChunks.chunks([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
      let frames = chunks.filter { $0.type == "fcTL" }.count
      #expect(moving ? frames > 2 : frames == 1, "\(input): \(frames) frames")
    }
  }

  /// `check --input` plays the script as one more probe; `--input none` adds none.
  @Test func checkPlaysAGivenInputAsOneMoreProbe() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("cornered.lua").path
    // Only a tap on the corner square moves it, for longer than check waits: the centre
    // tap and the drags settle; the scripted tap does not.
    try """
    local m = morph
    return m.component {
      name = "Cornered", size = { 40, 40 }, state = { x = 0 }, progress = "x",
      body = function(self)
        return m.zstack {
          m.rect():frame(40, 40),
          m.rect():frame(10, 10):offset(-15, -15)
            :onTap(function(s) s:animate(m.linear(20), { x = 1 }) end),
        }
      end,
      accessibility = function(self) return { label = "Cornered", value = "x" } end,
    }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(runCommand(["check", path, "--input", "none"]).status == 0)
    let script = dir.appendingPathComponent("corner.txt").path
    try "0 tap 5,5\n".write(toFile: script, atomically: true, encoding: .utf8)
    let keyed = runCommand(["check", path, "--input", script])
    #expect(keyed.status == 1, "\(keyed.out)")
    #expect(
      keyed.out.contains("after a scripted input (--input \(script)), still animating"),
      "\(keyed.out)")
  }

  /// The preview takes the rule's `none` and no script: input is made in the page.
  @Test func thePreviewTakesOnlyInputNone() {
    let result = runCommand(["preview", "flip", "--input", "tap", "--no-open"])
    #expect(result.status == 2)
    #expect(result.err.contains("preview takes only --input none"), "\(result.err)")
  }

  @Test func runForADurationStopsEndlessMotion() throws {
    let spinner = here.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/plugins/spinner.lua").path
    let result = runCommand([
      "run", spinner, "--duration", "0.3", "--cols", "20", "--rows", "5",
    ])
    #expect(result.status == 0, "\(result.err)")
    let headers = result.out.split(separator: "\n").filter { $0.hasPrefix("t=") }
    #expect(headers.count == 4, "\(headers)")
    #expect(
      result.out.split(separator: "\n").last == "stopped at t=0.300 (--duration)", "\(result.out)")
    let tooLong = runCommand(["run", spinner, "--duration", "4000"])
    #expect(tooLong.status == 2, "\(tooLong.err)")
  }
}
