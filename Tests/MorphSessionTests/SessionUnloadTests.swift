import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphSession

/// What a plugin prints, from any instance a session loads.
final class PrintLog: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  var output: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }

  /// The lines since the last call.
  func take() -> [String] {
    lock.withLock {
      defer { lines = [] }
      return lines.map { $0.trimmingCharacters(in: .newlines) }
    }
  }
}

/// The component's `disappear(self)` and its nodes' `onDisappear` run when a session lets
/// go of the instance — a fresh load in its place (replay, new props) or the session
/// closed — and never for a hot reload that keeps the state.
@Suite(.serialized) struct SessionUnloadTests {
  static let plugin = """
    local m = morph
    return m.component {
      name = "Unloading",
      props = { tag = "one" },
      state = { p = 0 },
      appear = function(self) print("appear " .. self.tag) end,
      disappear = function(self) print("disappear " .. self.tag) end,
      body = function(self)
        return m.rect():frame(10, 10):onDisappear(function(s) print("node " .. s.tag) end)
      end,
    }
    """

  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unload-\(UUID())")
  let log = PrintLog()

  func session(_ text: String = plugin) throws -> PluginSession {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("plugin.lua").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let session = PluginSession(
      path: path, options: ComponentOptions(output: log.output), clock: .virtual,
      watchesFiles: false)
    session.startRecording()
    return session
  }

  @Test func closingRunsDisappearOnce() throws {
    let session = try session()
    #expect(log.take() == ["appear one"])
    session.close()
    #expect(log.take() == ["disappear one", "node one"])
    session.close()
    #expect(log.take() == [])
    #expect(session.error == nil)
  }

  @Test func aHotReloadRunsNeither() throws {
    let session = try session()
    _ = log.take()
    #expect(session.reload())
    _ = session.frame()
    #expect(log.take() == [])
  }

  /// The fresh instance loads first (a file that fails keeps the old one), then the old
  /// one unloads.
  @Test func aFreshLoadUnloadsTheInstanceItReplaces() throws {
    let session = try session()
    _ = log.take()
    session.replay()
    #expect(log.take() == ["appear one", "disappear one", "node one"])
    #expect(session.setProps([(key: "tag", value: "two")]))
    #expect(log.take() == ["appear two", "disappear one", "node one"])
    session.close()
    #expect(log.take() == ["disappear two", "node two"])
  }

  @Test func aDisappearThatFailsIsTheSessionsErrorWithItsLine() throws {
    let session = try session(
      Self.plugin.replacingOccurrences(
        of: "print(\"disappear \" .. self.tag)", with: "self.nothing.here = 1"))
    session.close()
    let error = try #require(session.error)
    #expect(error.description.contains("plugin.lua:7:"), "\(error.description)")
  }
}
