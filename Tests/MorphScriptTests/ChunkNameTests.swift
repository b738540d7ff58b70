import Foundation
import Testing

@testable import MorphScript

/// A folder whose path is well past Lua's 60-byte chunk id, made fresh per test.
private func deepFolder() throws -> URL {
  var url = FileManager.default.temporaryDirectory.appendingPathComponent("chunks-\(UUID())")
  while url.path.utf8.count < 200 {
    url.appendPathComponent("a-folder-name-as-users-have")
  }
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite struct ChunkNameTests {
  @Test func aShortPathIsItsOwnChunkName() {
    var names = ChunkNames()
    #expect(names.chunkName(for: "Plugins/flip.lua") == "Plugins/flip.lua")
  }

  @Test func aLongPathGetsAShortAliasThatExpandsBack() {
    var names = ChunkNames()
    let path = "/" + String(repeating: "deep/", count: 40) + "plugin.lua"
    let alias = names.chunkName(for: path)
    #expect(alias.utf8.count <= ChunkNames.longestWhole)
    #expect(alias.hasSuffix("/plugin.lua"))
    #expect(names.chunkName(for: path) == alias)
    let other = names.chunkName(for: "/x" + path)
    #expect(other != alias)
    #expect(names.expand("\(alias):2: boom; \(other):3") == "\(path):2: boom; /x\(path):3")
  }

  @Test func runtimeErrorsAndTracebacksNameTheWholePath() throws {
    let folder = try deepFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("plugin_with_error.lua").path
    let source = """
      local function inner(x)
        return x.y.z
      end
      return morph.component {
        name = "Deep", size = { 100, 100 },
        body = function() local node = inner({}); return node end,
      }
      """
    let component = try ComponentInstance(path: path, source: source)
    let error = try #require(scriptFailure { _ = try component.view() })
    #expect(error.chunk == path)
    #expect(error.line == 2)
    #expect(error.description == "\(path):2: attempt to index a nil value (field 'y')")
    let traceback = try #require(error.traceback)
    #expect(traceback.contains("\(path):2: in "))
    #expect(traceback.contains("\(path):6: in "))
    #expect(!traceback.contains("...a-folder"))
  }

  @Test func syntaxErrorsNameTheWholePath() throws {
    let folder = try deepFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("broken.lua").path
    let error = try #require(
      scriptFailure { _ = try ComponentInstance(path: path, source: "local x =\n\n") })
    #expect(error.description == "\(path):3: unexpected symbol near <eof>")
  }

  @Test func importedFilesKeepTheirWholePath() throws {
    let folder = try deepFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let helper = folder.appendingPathComponent("helper.lua")
    try "local t = {}\nerror('from the helper')\nreturn t\n".write(
      to: helper, atomically: true, encoding: .utf8)
    let main = folder.appendingPathComponent("main.lua")
    try "morph.import('helper')\nreturn morph.component { body = function() end }\n".write(
      to: main, atomically: true, encoding: .utf8)
    let error = try #require(scriptFailure { _ = try ComponentInstance(path: main.path) })
    #expect(error.description == "\(helper.path):2: from the helper")
  }
}
