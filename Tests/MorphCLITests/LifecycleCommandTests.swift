import Foundation
import Testing

/// A headless `run` unloads its component when it ends: the component's `disappear` runs,
/// and one that fails is the run's error, with its line.
@Suite struct LifecycleCommandTests {
  static let plugin = """
    local m = morph
    return m.component {
      name = "Leaving",
      state = { n = 0 },
      tap = function(self) self.n = self.n + 1 end,
      disappear = function(self) DISAPPEAR end,
      body = function(self) return m.rect():frame(20, 20) end,
    }
    """

  @Test func aHeadlessRunEndsByUnloading() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leaving-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("leaving.lua").path
    for (disappear, status) in [("self.n = 0", Int32(0)), ("local _ = self.gone.field", 1)] {
      try Self.plugin.replacingOccurrences(of: "DISAPPEAR", with: disappear)
        .write(toFile: path, atomically: true, encoding: .utf8)
      let result = runCommand(["run", path, "--ascii"])
      #expect(result.status == status, Comment(rawValue: result.err))
      if status != 0 {
        #expect(result.err.contains("leaving.lua:6:"), Comment(rawValue: result.err))
        #expect(result.out.contains("settled at"), "the run itself went through")
      }
    }
  }

  /// `render --time` with no input shows where a node's `onAppear` animation has got to:
  /// the hook ran at load, not when the frame was first built.
  @Test func renderAtATimeShowsANodesOnAppearAnimation() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("appear-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("appear.lua").path
    try """
    local m = morph
    return m.component {
      name = "NodeAppear", size = { 100, 100 },
      state = { x = 0 },
      body = function(self)
        return m.rect():frame(20, 20):offset(self.x, 0)
          :onAppear(function(s) s:animate(m.linear(1), { x = 100 }) end)
      end,
    }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let result = runCommand(["render", path, "--time", "0.5", "--format", "json"])
    #expect(result.status == 0, Comment(rawValue: result.err))
    // Centred in the 100-point canvas with its 24-point margin: 64, and x = 50 half way.
    #expect(
      result.out.contains("\"transform\": [1, 0, 0, 0, 1, 0, 114, 64, 1]"),
      Comment(rawValue: result.out))
  }
}
