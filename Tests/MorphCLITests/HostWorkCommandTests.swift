import Foundation
import Testing

/// The host's work for a plugin outside Lua, through the real binary: text sizes that used
/// to trap, text layout that ran for minutes, standard input read whole before the cap,
/// source bytes changed on the way to Lua, and `print`'s tab escaped.
@Suite struct HostWorkCommandTests {
  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostwork-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A plugin file holding `bytes`, in a fresh folder.
  static func plugin(_ bytes: [UInt8], in dir: URL, name: String = "p.lua") throws -> String {
    let path = dir.appendingPathComponent(name).path
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    return path
  }

  /// Ended by itself without a signal, with exit 1 and one line on stderr containing `text`.
  static func expectOneLine(
    _ result: Subprocess.Result, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(!result.timedOut, sourceLocation: sourceLocation)
    #expect(result.signal == nil, "signal \(result.signal ?? 0)", sourceLocation: sourceLocation)
    #expect(result.status == 1, Comment(rawValue: result.err), sourceLocation: sourceLocation)
    #expect(
      result.err.split(separator: "\n").count == 1, Comment(rawValue: result.err),
      sourceLocation: sourceLocation)
    #expect(
      result.err.contains(text), Comment(rawValue: result.err), sourceLocation: sourceLocation)
  }

  /// A million-point font trapped the host (arithmetic overflow laying it out) and printed
  /// Pango's warnings; now the plugin's line refuses it.
  @Test(arguments: ["1e6", "1e300", "4096.5"])
  func aHugeFontSizeIsOneLine(_ size: String) throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.plugin(
      Array("return morph.text(\"Hi\", {size = \(size)}):frame(400, 300)\n".utf8), in: dir)
    let result = try Subprocess.run([
      "render", path, "-o", dir.appendingPathComponent("x.png").path,
    ])
    Self.expectOneLine(result, "p.lua:1: bad argument #2 to 'text' (option 'size' must be at most")
  }

  /// The largest size, a tiny one and minus zero draw (or draw nothing) without a warning.
  @Test(arguments: ["4096", "-0.0", "4.9e-324", "0"])
  func sizesInRangeDrawQuietly(_ size: String) throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.plugin(
      Array("return morph.text(\"Hi\", {size = \(size)}):frame(400, 300)\n".utf8), in: dir)
    let out = dir.appendingPathComponent("x.png").path
    let result = try Subprocess.run(["render", path, "-o", out, "--scale", "2"])
    #expect(result.status == 0 && result.signal == nil, Comment(rawValue: result.err))
    #expect(result.err.isEmpty, Comment(rawValue: result.err))
  }

  /// One unbreakable word of 9 999 characters wrapped one to a line took 27 s in Pango; four
  /// of them in a frame, two minutes. Refused before Pango is asked.
  @Test func aTextTooCostlyToWrapIsRefusedAtOnce() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let measure = try Self.plugin(
      Array(
        "local w = morph.measureText(string.rep('W', 9999), {size = 17, width = 1})\nreturn w\n"
          .utf8), in: dir, name: "measure.lua")
    Self.expectOneLine(
      try Subprocess.run(["eval", "-f", measure], deadline: 30),
      "measure.lua:1: text of 9999 characters is too costly to wrap")
    let frame = try Self.plugin(
      Array(
        """
        local t = string.rep("W", 9999)
        return morph.vstack{ morph.text(t), morph.text(t), morph.text(t), morph.text(t) }
          :frame(1, 300)

        """.utf8), in: dir, name: "frame.lua")
    let out = dir.appendingPathComponent("x.png").path
    Self.expectOneLine(
      try Subprocess.run(["render", frame, "-o", out], deadline: 30),
      "text of 9999 characters is too costly to wrap")
  }

  /// A frame's layout runs no Lua, so no count hook can stop it: many texts, each within
  /// the wrapping budget, are charged to the frame's own clock (the sandbox's `--timeout`).
  /// Without it this frame lays out for seconds and then draws.
  @Test func aFrameOfManyLayoutsStopsAtItsTimeBudget() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.plugin(
      Array(
        """
        local texts = {}
        for i = 1, 60 do texts[i] = morph.text(string.rep("W", 1500) .. i) end
        return morph.vstack(texts):frame(60, 300)

        """.utf8), in: dir, name: "many.lua")
    let out = dir.appendingPathComponent("x.png").path
    let result = try Subprocess.run(
      ["render", path, "-o", out, "--timeout", "0.2"], deadline: 120)
    Self.expectOneLine(result, "frame exceeded its time budget (0.2 s per frame) laying out text")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// Text under a huge scale is drawn from outlines made at its own size: asked at the
  /// device size, FreeType failed the whole frame (about 65 536 px and up).
  @Test func textUnderAHugeScaleDraws() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.plugin(
      Array("return morph.text('W', {size = 4096}):scale(16):frame(400, 300)\n".utf8), in: dir)
    let result = try Subprocess.run([
      "render", path, "-o", dir.appendingPathComponent("x.png").path,
    ])
    #expect(result.status == 0 && result.err.isEmpty, Comment(rawValue: result.err))
  }

  /// `eval -f -` read all of standard input before the cap (1.9 GB for a 1 GB pipe, and
  /// never stopped on an endless one): now it is counted as it is read.
  @Test func endlessStandardInputStopsAtTheCap() throws {
    let result = try Subprocess.run(
      ["eval", "-f", "-", "--memory", "8"], stdin: "/dev/zero", deadline: 60)
    Self.expectOneLine(result, "stdin: not enough memory (cap 8 MiB)")
    // AddressSanitizer keeps freed blocks in quarantine (a gigabyte here): its RSS says
    // nothing about what the reader holds.
    if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
      #expect(result.peakMemory < 400 << 20, "peak \(result.peakMemory >> 20) MiB")
    }
  }

  /// A file's bytes reach Lua as they are: Lua's own answer for a raw 0xE1 in a string.
  @Test func sourceBytesReachLuaUnchanged() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let raw = try Self.plugin(
      Array("return #\"".utf8) + [0xE1] + Array("\", (\"".utf8) + [0xE9, 0xFF]
        + Array("\"):byte(1, -1)\n".utf8), in: dir)
    let result = try Subprocess.run(["eval", "-f", raw])
    #expect(result.status == 0, Comment(rawValue: result.err))
    #expect(result.out == "1\n233\n255\n", Comment(rawValue: result.out))
    // Standard input too, with a byte-order mark and a #! line skipped as `lua` does.
    let withPrefix = try Self.plugin(
      [0xEF, 0xBB, 0xBF] + Array("#!/usr/bin/env lua\nreturn #\"".utf8) + [0xE1, 0xE2]
        + Array("\"\n".utf8), in: dir, name: "stdin.lua")
    let piped = try Subprocess.run(["eval", "-f", "-"], stdin: withPrefix)
    #expect(piped.out == "2\n", Comment(rawValue: piped.err))
  }

  /// Returned values are escaped like printed ones: no bidi override or C1 control reaches
  /// the terminal.
  @Test func evalResultsAreEscaped() throws {
    let result = try Subprocess.run(["eval", "return 'B\\u{202E}C\\u{9B}D'"])
    #expect(result.out == "\"B\\u{202e}C\\u{9b}D\"\n", Comment(rawValue: result.out))
  }

  /// `print` separates values with a tab: eval shows it as one; escapes stay escaped.
  @Test func printKeepsTabsAndEscapesControls() throws {
    let result = try Subprocess.run([
      "eval", "print(1, 2); print('a\\27[2Jb', '\\u{202E}x')",
    ])
    #expect(result.status == 0, Comment(rawValue: result.err))
    #expect(result.out == "1\t2\na\\x1b[2Jb\t\\u{202e}x\n", Comment(rawValue: result.out))
  }
}
