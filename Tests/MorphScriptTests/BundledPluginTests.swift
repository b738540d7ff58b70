import Foundation
import Testing

@testable import MorphScript

/// The plugins built into the binary are `Plugins/*.lua`, loaded without a file.
@Suite struct BundledPluginTests {
  static let pluginsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Plugins")

  @Test func theEmbeddedCopiesAreThePluginsFolder() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.pluginsFolder.path)
      .filter { $0.hasSuffix(".lua") && !$0.hasSuffix(".test.lua") }.sorted()
    #expect(BundledPlugins.all.map { $0.name + ".lua" } == files)
    for plugin in BundledPlugins.all {
      let file = try String(
        contentsOf: Self.pluginsFolder.appendingPathComponent(plugin.name + ".lua"),
        encoding: .utf8)
      #expect(plugin.source == file, "\(plugin.name)")
    }
  }

  @Test func aBundledPluginLoadsWithoutAFileAndNamesItselfInErrors() throws {
    let flip = try #require(BundledPlugins.all.first { $0.name == "flip" })
    #expect(flip.path == "flip.lua (bundled)")
    #expect(!FileManager.default.fileExists(atPath: flip.path))
    let instance = try ComponentInstance(path: flip.path)
    #expect(instance.name == "Flip Card")
    // It has no folder, so nothing to import from.
    #expect(instance.state.moduleDirectory == nil)
    do {
      _ = try ComponentInstance(
        path: flip.path, options: ComponentOptions(props: [(key: "accent", value: "3")]))
      Issue.record("a bad --set loaded")
    } catch {
      #expect(error.chunk == "flip.lua (bundled)")
    }
  }

  @Test func onlyABundledPathReadsFromTheBinary() throws {
    #expect(BundledPlugins.plugin(atPath: "flip.lua") == nil)
    #expect(BundledPlugins.plugin(atPath: "nothing.lua (bundled)") == nil)
    #expect(BundledPlugins.baseName(ofPath: "flip.lua (bundled)") == "flip")
    #expect(BundledPlugins.baseName(ofPath: "/a/b/toggle.lua") == "toggle")
    #expect(throws: ScriptError.self) { try BundledPlugins.source(atPath: "/nowhere/flip.lua") }
  }
}

/// The README's table of bundled plugins says what each plugin declares: its progress key
/// and the range filmstrips sweep, read from the plugin itself, not restated by hand.
@Suite struct ReadmePluginTableTests {
  static let readme = BundledPluginTests.pluginsFolder.deletingLastPathComponent()
    .appendingPathComponent("README.md")

  static func range(_ r: ClosedRange<Double>) -> String {
    func text(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
    return "\(text(r.lowerBound))…\(text(r.upperBound))"
  }

  @Test(arguments: BundledPlugins.all.map(\.name))
  func theRowMatchesThePlugin(_ name: String) throws {
    let plugin = try #require(BundledPlugins.all.first { $0.name == name })
    let instance = try ComponentInstance(path: plugin.path)
    let lines = try String(contentsOf: Self.readme, encoding: .utf8).split(separator: "\n")
    let row = try #require(lines.first { $0.hasPrefix("| `\(name)` |") }, "no README row")
    let columns = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    let key = try #require(instance.progressKey)
    let expected = "`\(key)`, \(Self.range(instance.progressRange))"
    #expect(columns.last?.hasPrefix(expected) == true, "README says \(columns.last ?? "")")
  }
}
