import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// `morph.import`: plugins split into files, all of them hot-reloaded.
@Suite struct ImportTests {
  let dir: URL

  init() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID())")
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("parts"), withIntermediateDirectories: true)
  }

  func write(_ name: String, _ text: String) throws {
    try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
  }

  static let plugin = """
    local shapes = morph.import("parts/shapes")
    return morph.component {
      state = { p = 0 },
      body = function(self) return shapes.card():id("card") end,
    }
    """

  @Test func importsReloadAndAreWatched() throws {
    defer { try? FileManager.default.removeItem(at: dir) }
    try write(
      "parts/shapes.lua", "return { card = function() return morph.rect():frame(10, 10) end }")
    try write("plugin.lua", Self.plugin)
    let path = dir.appendingPathComponent("plugin.lua").path
    let host = ComponentHost(component: try ComponentInstance(path: path))
    #expect(try item(try host.frame(), "card").frame.width == 10)
    #expect(host.watchedFiles == [path, dir.appendingPathComponent("parts/shapes.lua").path])
    // Editing the module and reloading the plugin picks up the new module.
    try write(
      "parts/shapes.lua", "return { card = function() return morph.rect():frame(20, 10) end }")
    try host.reload(source: Self.plugin)
    #expect(try item(try host.frame(), "card").frame.width == 20)
    // A broken module keeps the last good version (and its module) running.
    try write("parts/shapes.lua", "return { card = ")
    #expect(throws: ScriptError.self) { try host.reload(source: Self.plugin) }
    #expect(try item(try host.frame(), "card").frame.width == 20)
  }

  @Test func importsStayInsideThePluginsFolder() throws {
    defer { try? FileManager.default.removeItem(at: dir) }
    try write(
      "plugin.lua", "morph.import('../secret') return morph.component { body = morph.rect }")
    let error = #expect(throws: ScriptError.self) {
      _ = try ComponentInstance(path: self.dir.appendingPathComponent("plugin.lua").path)
    }
    #expect(
      error?.message
        == "bad argument #1 to 'import' ('../secret.lua' must be a path inside the plugin's folder)"
    )
    #expect(error?.line == 1)
  }

  @Test func importCyclesAreErrors() throws {
    defer { try? FileManager.default.removeItem(at: dir) }
    try write("a.lua", "return morph.import('b')")
    try write("b.lua", "return morph.import('a')")
    try write("plugin.lua", "morph.import('a') return morph.component { body = morph.rect }")
    let error = #expect(throws: ScriptError.self) {
      _ = try ComponentInstance(path: self.dir.appendingPathComponent("plugin.lua").path)
    }
    #expect(error?.message.contains("import cycle: 'a' imports itself") == true)
  }
}
