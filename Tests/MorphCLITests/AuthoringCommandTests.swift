import Foundation
import MorphRender
import Testing

@testable import MorphCLI

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()
private func plugin(_ name: String) -> String {
  repository.appendingPathComponent("Plugins/\(name).lua").path
}

private func scratch() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID())")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

private func decode(_ url: URL) throws -> RasterImage {
  try RasterImage.decodePNG([UInt8](try Data(contentsOf: url)))
}

@Suite struct ExportCommandTests {
  @Test func pngSequenceHasEveryFrameAtScale() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("frames")
    let result = runCommand([
      "export", plugin("deck_fan"), "-o", out.path, "--progress-range", "0:1", "--frames", "5",
      "--scale", "2",
    ])
    #expect(result.status == 0, Comment(rawValue: result.err))
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(names == (1...5).map { String(format: "frame-%04d.png", $0) })
    let last = try decode(out.appendingPathComponent("frame-0005.png"))
    #expect(last.width == 856 && last.height == 576)
  }

  @Test func animatedPNGHasFramesAndDelays() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("tear.apng")
    let result = runCommand([
      "export", plugin("ticket_tear"), "-o", out.path, "--duration", "0.5", "--fps", "20",
      "--input", "tap",
    ])
    #expect(result.status == 0, Comment(rawValue: result.err))
    let chunks = try PNGChunks.chunks([UInt8](try Data(contentsOf: out)))
    let control = try #require(chunks.first { $0.type == "acTL" })
    let frameCount = Int(control.data[3]) | Int(control.data[2]) << 8
    #expect(frameCount == 11)
    let frames = chunks.filter { $0.type == "fcTL" }
    #expect(frames.count == 11)
    for fc in frames {
      // delay_num / delay_den at bytes 20…23: 1/20 s.
      #expect(Array(fc.data[20..<24]) == [0, 1, 0, 20])
    }
    // The default image is a plain PNG any viewer shows: the first frame.
    let first = try decode(out)
    #expect(first.width == 428 && first.height == 288)
  }

  @Test func filmstripHasItsSize() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("strip.png")
    let result = runCommand([
      "export", "flip", "-o", out.path, "--filmstrip", "4", "--columns", "2",
    ])
    #expect(result.status == 0, Comment(rawValue: result.err))
    let sheet = try decode(out)
    #expect(sheet.width == 2 * 428 + 8 && sheet.height == 2 * 288 + 8)
  }

  @Test func badRequestsAreClear() {
    #expect(runCommand(["export", "flip"]).err.hasPrefix("morphhost: export needs -o OUT"))
    #expect(
      runCommand(["export", "flip", "-o", "x", "--progress-range", "1:0"]).err
        == "morphhost: --progress-range expects A:B with A <= B, got '1:0'")
    #expect(
      runCommand(["export", "flip", "-o", "x", "--frames", "3", "--fps", "10"]).err
        == "morphhost: use either --progress-range/--frames or --duration/--fps, not both")
    #expect(
      runCommand(["export", "flip", "-o", "x.gif", "--filmstrip", "3"]).err
        == "morphhost: --filmstrip writes one .png image; got 'x.gif'")
  }
}

@Suite struct CheckCommandTests {
  private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  @Test func bundledPluginsAreClean() {
    let result = runCommand(["check", "flip", "deck_fan", "ticket_tear", "card_stack"])
    #expect(result.status == 0, Comment(rawValue: result.out))
    #expect(result.out.components(separatedBy: ": ok").count == 5)
  }

  /// `check` pokes the gestures a component (or a node) declares beyond tap and drag.
  @Test func findsBrokenGestureHandlers() {
    let path = Self.fixtures.appendingPathComponent("gesture_mistakes.lua").path
    let result = runCommand(["check", path])
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(result.status == 2, Comment(rawValue: result.out))
    #expect(
      lines.contains {
        $0.hasPrefix("\(path):7: error: set: unknown state key 'missing'")
          && $0.hasSuffix("(after a long press)")
      }, Comment(rawValue: result.out))
    #expect(
      lines.contains {
        $0.hasPrefix("\(path):8: error: animate: state 'p' is a number; got string")
          && $0.hasSuffix("(after a double tap)")
      }, Comment(rawValue: result.out))
  }

  @Test func findsSeededMistakesWithPositions() {
    let path = Self.fixtures.appendingPathComponent("mistakes.lua").path
    let result = runCommand(["check", path, "--settle-limit", "2"])
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "\(path): warning: no accessibility description: add accessibility = "
          + "function(self) return { label =, value =, hint =, traits = } end"))
    // Progress 0.75 and 1 break the body, at the line of the error() call: one error,
    // reported once with both points.
    #expect(
      lines.contains("\(path):14: error: body breaks past 0.6 (at progress 0.750, 1.000)"),
      Comment(rawValue: result.out))
    #expect(lines.filter { $0.contains("body breaks") }.count == 1)
    #expect(lines.contains("\(path): error: after a tap, still animating after 2 s (keys: p)"))
    #expect(result.status == 2, Comment(rawValue: result.out))
  }

  @Test func aMissingPluginIsAnError() {
    let result = runCommand(["check", "/nowhere/x.lua"])
    #expect(result.status == 1)
    #expect(result.out == "/nowhere/x.lua: error: /nowhere/x.lua: no such file")
  }
}

@Suite struct NewCommandTests {
  @Test func scaffoldRunsAndChecksClean() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = runCommand(["new", "progress_ring", "--dir", dir.path])
    #expect(result.status == 0, Comment(rawValue: result.err))
    let plugin = dir.appendingPathComponent("progress_ring.lua").path
    let luarc = try String(contentsOf: dir.appendingPathComponent(".luarc.json"), encoding: .utf8)
    #expect(luarc.contains(".morph/morph.meta.lua"))
    let meta = try String(
      contentsOf: dir.appendingPathComponent(".morph/morph.meta.lua"), encoding: .utf8)
    #expect(meta.hasPrefix("---@meta morph"))
    #expect(runCommand(["check", plugin]).out == "\(plugin): ok")
    // The template's placeholders are all filled in.
    let text = try String(contentsOfFile: plugin, encoding: .utf8)
    #expect(!text.contains("{{"))
    #expect(text.contains("name = \"Progress Ring\"") && text.contains("run progress_ring.lua"))
    // Never overwrites a plugin by accident.
    let again = runCommand(["new", "progress_ring", "--dir", dir.path])
    #expect(again.status == 2)
    #expect(again.err == "morphhost: \(plugin) exists; use --force to replace it")
    #expect(runCommand(["new", "9lives", "--dir", dir.path]).status == 2)
  }
}

@Suite struct ExamplePluginCheckTests {
  /// Every Lua-only example passes `check` (load, five progress points, a
  /// tap and drags both ways that settle, accessibility).
  @Test func examplePluginsAreClean() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/plugins")
    let plugins = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".lua") && !$0.hasSuffix(".test.lua") }.sorted()
    #expect(plugins.contains("like_button.lua") && plugins.contains("segmented_control.lua"))
    let result = runCommand(["check"] + plugins.map { folder.appendingPathComponent($0).path })
    #expect(result.status == 0, Comment(rawValue: result.out))
    #expect(result.out.components(separatedBy: ": ok").count == plugins.count + 1)
  }
}
