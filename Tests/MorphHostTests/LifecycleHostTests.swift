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

  /// A modifier order that usually means the other one is a warning at its line
  /// (docs/motion.md, Delay, speed and repeat); SwiftUI-Shimmer's order is not.
  @Test func checkWarnsAboutAModifierOrderAtItsLine() throws {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("order-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let source = """
      local m = morph
      local shimmer = m.linear(1.5):delay(0.25):repeatForever { autoreverses = false }
      return m.component {
        name = "Order", progress = "a", state = { a = 0, b = 0 },
        tap = function(self)
          self:animate(m.linear(1):delay(0.5):speed(2), { a = 1 })
          self:animate(shimmer, { b = 1 })
        end,
        body = function() return m.rect() end,
        accessibility = function() return { label = "L", value = "V" } end,
      }
      """
    let path = dir.appendingPathComponent("p.lua").path
    try source.write(toFile: path, atomically: true, encoding: .utf8)
    let warnings = PluginCheck.check(path).filter { !$0.error }.map(\.text)
    #expect(
      warnings == [
        path + ":6: warning: " + (AnimationModifiers.none.delayed(by: 1).speed(2).orderNote ?? "")
      ],
      "\(warnings)")
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

  /// A node's `onAppear` runs at load: a case that only checks state sees what it
  /// animates, whether or not a frame was looked at first.
  @Test func anAuthorTestSeesOnAppearFromLoad() throws {
    let plugin = """
      local m = morph
      return m.component {
        name = "NodeAppear", size = { 200, 100 },
        state = { x = 0 },
        body = function(self)
          return m.rect():frame(20, 20):offset(self.x, 0)
            :onAppear(function(s) s:animate(m.linear(1), { x = 100 }) end)
        end,
      }
      """
    let test = """
      local test = morph.test
      return {
        test.case "state only" { plugin = "p.lua", test.at(0.5) { x = test.approx(50, 1e-6) } },
        test.case "looked at first" {
          plugin = "p.lua", test.at(0) { x = 0 }, test.at(0.5) { x = test.approx(50, 1e-6) },
        },
      }
      """
    let dir = try Self.folder(plugin: plugin)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("p.test.lua")
    try test.write(to: file, atomically: true, encoding: .utf8)
    let cases = TestRunner().run(file: file.path).cases
    #expect(cases.count == 2)
    for c in cases { #expect(c.passed, "\(c.failures.map(\.description))") }
  }

  /// An input that fails still ends in an unload: its `onDisappear` and `disappear` run.
  @Test func checkUnloadsAfterAFailedInput() throws {
    let dir = try Self.folder(
      plugin: Self.source(appear: "", disappear: "local _ = self.missing.field")
        .replacingOccurrences(
          of: "tap = function(self) self.shown = not self.shown end",
          with: "tap = function(self) error(\"tapped\") end"))
    defer { try? FileManager.default.removeItem(at: dir) }
    let errors = PluginCheck.check(dir.appendingPathComponent("p.lua").path).filter(\.error)
    let texts = errors.map(\.text)
    #expect(texts.contains { $0.contains("tapped") && $0.contains("after a tap") }, "\(texts)")
    #expect(
      texts.contains { $0.contains("p.lua:6: error:") && $0.contains("on unload after a tap") },
      "\(texts)")
  }
}
