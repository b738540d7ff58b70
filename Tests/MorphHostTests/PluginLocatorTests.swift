import Foundation
import MorphScript
import Testing

@testable import MorphHost

/// What a typed plugin name resolves to, from a folder with no plugins in it.
@Suite struct PluginLocatorTests {
  let dir: URL

  init() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("locate-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  }

  func resolve(_ given: String) throws -> PluginLocator.Resolved {
    try PluginLocator.resolve(given, in: dir.path)
  }

  @Test func aBareNameIsTheBuiltInCopyAnywhere() throws {
    defer { try? FileManager.default.removeItem(at: dir) }
    for given in ["flip", "Flip", "flip.lua", "FLIP.LUA"] {
      #expect(try resolve(given) == .init(path: "flip.lua (bundled)", note: nil), "\(given)")
    }
    #expect(try resolve("deck-fan").path == "deck_fan.lua (bundled)")
    #expect(
      PluginLocator.bundled().map(\.name) == ["card_stack", "deck_fan", "flip", "ticket_tear"])
  }

  @Test func aFileBesideTheUserWins() throws {
    defer { try? FileManager.default.removeItem(at: dir) }
    try "return 1".write(
      to: dir.appendingPathComponent("flip.lua"), atomically: true, encoding: .utf8)
    #expect(try resolve("flip.lua") == .init(path: "flip.lua", note: nil))
    #expect(
      try resolve("Flip.lua") == .init(path: "flip.lua", note: "'Flip.lua' resolved to 'flip.lua'"))
    // A bare name without the extension is still the bundled plugin.
    #expect(try resolve("flip").path == "flip.lua (bundled)")
  }

  @Test func unknownNamesAndMissingPathsAreClear() throws {
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(throws: PluginLocator.NotFound.self) { try resolve("Plugins/flip.lua") }
    do {
      _ = try resolve("flop")
      Issue.record("'flop' resolved")
    } catch {
      #expect(
        "\(error)"
          == "no plugin 'flop': no such file, and no bundled plugin of that name; did you mean "
          + "'flip'? (bundled: card_stack, deck_fan, flip, ticket_tear)")
    }
  }

  @Test func aBundledPluginIsNotWatchedAFileIs() throws {
    defer { try? FileManager.default.removeItem(at: dir) }
    let bundled = ComponentHost(component: try ComponentInstance(path: "flip.lua (bundled)"))
    #expect(bundled.watchedFiles.isEmpty)
    let file = dir.appendingPathComponent("card.lua")
    try BundledPlugins.all[0].source.write(to: file, atomically: true, encoding: .utf8)
    let copy = ComponentHost(component: try ComponentInstance(path: file.path))
    #expect(copy.watchedFiles == [file.path])
  }
}
