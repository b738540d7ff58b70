import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphHost

/// Lifecycle hooks where the host ends an instance: each `test` case unloads its
/// component, and `check` runs the hooks and reports a failing one once with its line.
@Suite struct LifecycleHostTests {
  static let plugin = """
    local m = morph
    return m.component {
      name = "Hooked",
      state = { shown = true },
      tap = function(self) self.shown = not self.shown end,
      disappear = function(self) DISAPPEAR end,
      body = function(self)
        local children = { m.rect():frame(20, 20) }
        if self.shown then
          children[2] = m.circle():frame(20, 20):id("dot"):onAppear(function(s) APPEAR end)
        end
        return m.vstack(children)
      end,
    }
    """

  static func source(appear: String = "", disappear: String = "") -> String {
    plugin.replacingOccurrences(of: "DISAPPEAR", with: disappear)
      .replacingOccurrences(of: "APPEAR", with: appear)
  }

  static let failing = "local _ = s.missing.field"

  static func folder(plugin: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hooks-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try plugin.write(
      to: dir.appendingPathComponent("p.lua"), atomically: true, encoding: .utf8)
    return dir
  }

  /// The case is over: `disappear` runs, and one that fails fails the case at its line.
  @Test func eachTestCaseUnloadsItsComponent() throws {
    let test = """
      local test = morph.test
      return { test.case "shows" { plugin = "p.lua", input = "0 tap", test.at(0.5) { shown = false } } }
      """
    for (disappear, passes) in [("", true), ("local _ = self.missing.field", false)] {
      let dir = try Self.folder(plugin: Self.source(disappear: disappear))
      defer { try? FileManager.default.removeItem(at: dir) }
      let file = dir.appendingPathComponent("p.test.lua")
      try test.write(to: file, atomically: true, encoding: .utf8)
      let result = try #require(TestRunner().run(file: file.path).cases.first)
      #expect(result.passed == passes)
      if !passes {
        #expect(result.failures.map(\.description).first?.contains("p.lua:6:") == true)
      }
    }
  }

  /// An `onAppear` that fails is one finding with its line and the occasions it met.
  @Test func checkReportsAFailingOnAppearOnce() throws {
    let dir = try Self.folder(plugin: Self.source(appear: Self.failing))
    defer { try? FileManager.default.removeItem(at: dir) }
    let errors = PluginCheck.check(dir.appendingPathComponent("p.lua").path).filter(\.error)
    #expect(errors.count == 1, "\(errors.map(\.text))")
    let text = try #require(errors.first?.text)
    #expect(text.contains("p.lua:10: error:"), "\(text)")
    #expect(text.contains("at progress 0.000"), "\(text)")
    #expect(text.contains("after a tap"), "\(text)")
  }

  @Test func checkUnloadsAndReportsAFailingDisappear() throws {
    let dir = try Self.folder(plugin: Self.source(disappear: "local _ = self.missing.field"))
    defer { try? FileManager.default.removeItem(at: dir) }
    let errors = PluginCheck.check(dir.appendingPathComponent("p.lua").path).filter(\.error)
    #expect(errors.count == 1, "\(errors.map(\.text))")
    let text = try #require(errors.first?.text)
    #expect(text.contains("p.lua:6: error:") && text.contains("on unload"), "\(text)")
  }
}
