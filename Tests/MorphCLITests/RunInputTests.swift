import Foundation
import MorphExport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 37, items 4 and 6: what a run reads is never written over, a special file is
/// never read as a plugin or an input, and every limit names its file and line.
@Suite struct RunInputTests {
  /// A scratch folder holding the bundled flip as `p.lua` (and `files`), and the command's
  /// result with the folder as its working directory.
  static func run(
    _ arguments: [String], files: [String: String] = [:], prepare: (URL) throws -> Void = { _ in }
  ) throws -> (result: Subprocess.Result, dir: URL, plugin: Data) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inputs-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let plugin = try Data(
      contentsOf: Subprocess.repository.appendingPathComponent("Plugins/flip.lua"))
    try plugin.write(to: dir.appendingPathComponent("p.lua"))
    for (name, text) in files {
      try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    }
    try prepare(dir)
    return (try Subprocess.run(arguments, in: dir, deadline: 60), dir, plugin)
  }

  static func expectOneLine(
    _ result: Subprocess.Result, status: Int32, _ texts: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(!result.timedOut && result.signal == nil, sourceLocation: sourceLocation)
    #expect(result.status == status, Comment(rawValue: result.err), sourceLocation: sourceLocation)
    #expect(
      result.err.split(separator: "\n").count == 1, Comment(rawValue: result.err),
      sourceLocation: sourceLocation)
    for text in texts {
      #expect(
        result.err.contains(text), Comment(rawValue: result.err), sourceLocation: sourceLocation)
    }
  }

  static let ontoInputs: [([String], String)] = [
    (["render", "p.lua", "-o", "p.lua", "--format", "json"], "-o names the plugin"),
    (["render", "p.lua", "-o", "./p.lua", "--format", "svg"], "-o names the plugin"),
    (["render", "p.lua", "-o", "p.lua", "--format", "png"], "-o names the plugin"),
    (["render", "p.lua", "-o", "link.lua", "--format", "json"], "-o names the plugin"),
    (["export", "p.lua", "-o", "x.json", "--report", "p.lua"], "--report names the plugin"),
    (
      ["export", "p.lua", "-o", "p.lua", "--format", "gif", "--frames", "2"], "-o names the plugin"
    ),
    (
      ["export", "p.lua", "-o", "r.json", "--report", "r.json"], "--report names the file -o writes"
    ),
    (
      [
        "render", "p.lua", "--time", "0.1", "--input", "in.txt", "-o", "in.txt", "--format", "json",
      ],
      "-o names the input script"
    ),
    (["run", "p.lua", "--png", "p.lua", "--ascii", "--max-time", "1"], "--png names the plugin"),
    (
      ["render", "m.lua", "-o", "helper.lua", "--format", "json"],
      "-o names a file the plugin imports"
    ),
  ]

  @Test(arguments: ontoInputs)
  func anOutputIsNeverAnInput(_ arguments: [String], _ text: String) throws {
    let files = [
      "in.txt": "0 tap\n",
      "helper.lua": "return 1\n",
      "m.lua": "local h = morph.import('helper')\n"
        + "return morph.component{ name = 'm', size = {10, 10}, body = function() return morph.rect{} end }\n",
    ]
    let (result, dir, plugin) = try Self.run(arguments, files: files) { dir in
      _ = symlink("p.lua", dir.appendingPathComponent("link.lua").path)
    }
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLine(result, status: 1, [text, "refusing to write over it"])
    #expect(try Data(contentsOf: dir.appendingPathComponent("p.lua")) == plugin)
    for (name, text) in files {
      #expect(try Data(contentsOf: dir.appendingPathComponent(name)) == Data(text.utf8))
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(Set(left) == Set(files.keys).union(["p.lua", "link.lua"]))
  }

  @Test func newWithAFileAsItsFolderIsOneLine() throws {
    let (result, dir, _) = try Self.run(["new", "x", "--dir", "p.lua"])
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLine(result, status: 2, ["--dir p.lua is a regular file, not a folder"])
  }

  static let specialFiles: [([String], String)] = [
    (["render", "fifo.lua", "--format", "json"], "fifo.lua: is a FIFO, not a regular file"),
    (["render", "/dev/zero", "--format", "json"], "/dev/zero: is a device, not a regular file"),
    (["export", "fifo.lua", "-o", "x.gif", "--frames", "2"], "is a FIFO"),
    (["check", "fifo.lua"], "is a FIFO"),
    (
      ["render", "p.lua", "--time", "1", "--input", "/dev/zero", "--format", "json"],
      "input script /dev/zero: is a device, not a regular file or a pipe"
    ),
    (["render", "imports.lua", "--format", "json"], "'fifo.lua' is a FIFO, not a regular file"),
  ]

  /// Nothing writes the FIFO: a reader that opened it the ordinary way would block for ever.
  @Test(arguments: specialFiles)
  func specialFilesAreRefusedWithoutBlocking(_ arguments: [String], _ text: String) throws {
    let files = [
      "imports.lua": "morph.import('fifo')\nreturn morph.rect{}\n"
    ]
    let (result, dir, _) = try Self.run(arguments, files: files) { dir in
      #expect(mkfifo(dir.appendingPathComponent("fifo.lua").path, 0o644) == 0)
    }
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(!result.timedOut)
    #expect(result.status != 0)
    // `check` reports on standard output, the other commands on standard error.
    let said = result.err + result.out
    #expect(said.contains(text), Comment(rawValue: said))
    #expect(result.err.split(separator: "\n").count <= 1, Comment(rawValue: result.err))
  }

  /// A FIFO nobody writes as `--input` ends in bounded time, not never.
  @Test func anInputFIFONobodyWritesEndsInTime() throws {
    let (result, dir, _) = try Self.run(
      ["render", "p.lua", "--time", "1", "--input", "in.fifo", "--format", "json"]
    ) { dir in
      #expect(mkfifo(dir.appendingPathComponent("in.fifo").path, 0o644) == 0)
    }
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLine(result, status: 2, ["input script in.fifo: the pipe did not end within"])
  }

  static let limits: [(name: String, source: String, text: String)] = [
    (
      "top.lua", "local t = {}\nfor i = 1, 1e9 do t[i] = ('x'):rep(4000) .. i end\nreturn t\n",
      "top.lua:2: not enough memory (cap 64 MiB)"
    ),
    (
      "imp.lua", "local h = morph.import('fill')\nreturn morph.rect{}\n",
      "fill.lua:2: not enough memory (cap 64 MiB)"
    ),
    (
      "body.lua",
      "return morph.component{ name = 'm', size = {10, 10},\n  body = function()\n"
        + "    local t = {}\n    for i = 1, 1e9 do t[i] = ('x'):rep(4000) .. i end\n  end }\n",
      "body.lua:4: not enough memory"
    ),
    (
      "items.lua",
      "return morph.component{ name = 'm', size = {10, 10},\n  body = function()\n"
        + "    local kids = {}\n    for i = 1, 30000 do kids[i] = morph.rect{} end\n"
        + "    return morph.zstack(kids) end }\n",
      "items.lua:2: frame has more than 20000 items (the frame budget)"
    ),
    (
      "groups.lua",
      "return morph.component{ name = 'm', size = {10, 10},\n\n  body = function()\n"
        + "    local n = morph.rect{}:fill('red')\n    for _ = 1, 70 do\n"
        + "      n = morph.zstack{ n, morph.rect{}:opacity(0.5) }:opacity(0.9):blend('multiply')\n"
        + "    end\n    return n end }\n",
      "groups.lua:3: groups (opacity, blend, blur, mask) nest deeper than 64"
    ),
    (
      "wrap.lua",
      "return morph.component{ name = 'm', size = {10, 10}, body = function()\n"
        + "  return morph.text(('W'):rep(9999), {}):frame{width = 1} end }\n",
      "wrap.lua:1: text of 9999 characters is too costly to wrap"
    ),
  ]

  @Test(arguments: limits)
  func everyLimitNamesItsFileAndLine(_ name: String, _ source: String, _ text: String) throws {
    let files = [
      name: source,
      "fill.lua": "local t = {}\nfor i = 1, 1e9 do t[i] = ('x'):rep(4000) .. i end\nreturn t\n",
    ]
    let (result, dir, _) = try Self.run(["render", name, "--format", "json"], files: files)
    defer { try? FileManager.default.removeItem(at: dir) }
    Self.expectOneLine(result, status: 1, [text])
  }
}
