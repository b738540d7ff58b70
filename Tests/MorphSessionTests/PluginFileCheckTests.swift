import Foundation
import MorphCore
import MorphScript
import Testing

@testable import MorphSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 37: a plugin file replaced by a FIFO blocked the session (and the
/// preview's queue) in `open` for good. The session refuses it with one line
/// and keeps the last good version running.
@Suite(.serialized) struct PluginFileCheckTests {
  static let plugin = """
    local m = morph
    return m.component {
      name = "Box",
      size = { 100, 60 },
      body = function(self) return m.rect():frame(100, 60) end,
    }
    """

  static func scratch() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Runs `body` on another thread; if it has not returned within a minute
  /// (it hangs on the FIFO), a writer opens the FIFO so it can end, and the
  /// test fails.
  static func bounded(fifo: String, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    if done.wait(timeout: .now() + 60) == .timedOut {
      Issue.record("blocked on the FIFO")
      let writer = open(fifo, O_WRONLY | O_NONBLOCK)
      if writer >= 0 { close(writer) }
      done.wait()
    }
  }

  @Test func aFIFOIsRefusedWithoutBlocking() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("box.lua").path
    #expect(mkfifo(path, 0o600) == 0)
    let error = Box()
    Self.bounded(fifo: path) {
      let session = PluginSession(path: path, clock: .virtual, watchesFiles: false)
      error.value = session.error?.message
    }
    #expect(error.value == "\(path) is a FIFO, not a regular file: a plugin is read from a file")
    #expect(
      PluginFileCheck.refusal(of: dir.path) == .notARegularFile(path: dir.path, kind: "a folder"))
    #expect(PluginFileCheck.refusal(of: "/dev/zero")?.message.contains("a device") == true)
    #expect(PluginFileCheck.refusal(of: dir.appendingPathComponent("none.lua").path) == nil)
  }

  @Test func aPluginReplacedByAFIFOKeepsTheLastGoodVersion() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("box.lua").path
    try Self.plugin.write(toFile: path, atomically: true, encoding: .utf8)
    let session = PluginSession(path: path, clock: .virtual)
    #expect(session.error == nil)
    let fifo = dir.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(rename(fifo, path) == 0)
    let reloaded = Box()
    let shared = UnsafeSession(session)
    Self.bounded(fifo: path) {
      reloaded.value = shared.session.reload() ? "reloaded" : shared.session.error?.message
      _ = shared.session.setProps([("x", "1")])
    }
    #expect(
      reloaded.value?.hasSuffix("is a FIFO, not a regular file: a plugin is read from a file")
        == true)
    #expect(session.host != nil, "the last good version runs on")
    #expect(session.frame() != nil)
  }

  final class Box: @unchecked Sendable {
    var value: String?
  }

  /// The session is used by one thread at a time: the test waits for the other.
  struct UnsafeSession: @unchecked Sendable {
    let session: PluginSession
    init(_ session: PluginSession) { self.session = session }
  }
}
