import Dispatch
import Foundation
import MorphCore
import Testing

@testable import MorphSession

/// What a front end's view gives the session: its size (issue 27), and the
/// waits for a save (a loop's `wait`, a queue's `SessionFileMonitor`).
@Suite(.serialized) struct SessionViewTests {
  /// Draws a box as large as it is offered: `self.size` read, or not.
  static func plugin(readsSize: Bool) -> String {
    let size = readsSize ? "self.size" : "{ width = 100, height = 60 }"
    return """
      local m = morph
      return m.component {
        name = "Box",
        size = { 100, 60 },
        body = function(self)
          local s = \(size)
          return m.rect():frame(s.width, s.height):id("box")
        end,
      }
      """
  }

  func box(_ session: PluginSession) throws -> Size {
    let frame = try #require(session.frame())
    return try #require(frame.list.items.first { $0.id == "box" }).frame.size
  }

  @Test func aBodyThatReadsItsSizeIsLaidOutInTheView() throws {
    let w = try Workspace()
    try w.write(plugin: Self.plugin(readsSize: true))
    let session = w.session()
    #expect(try box(session) == Size(100, 60))
    #expect(session.declaredCanvas == Size(148, 108))
    session.offer(Size(300, 80))
    #expect(try box(session) == Size(300, 80), "the first frame after the offer is laid out in it")
    #expect(session.canvas == Size(348, 128))
    #expect(session.declaredCanvas == Size(148, 108), "the declared canvas stays")
    session.offer(nil)
    #expect(try box(session) == Size(100, 60), "no view: the declared size again")
  }

  @Test func aBodyThatDoesNotReadItKeepsItsDeclaredCanvas() throws {
    let w = try Workspace()
    try w.write(plugin: Self.plugin(readsSize: false))
    let session = w.session()
    session.offer(Size(300, 80))
    #expect(try box(session) == Size(100, 60))
    #expect(session.canvas == Size(148, 108))
    // A save that starts reading it is laid out in the view at once.
    try w.write(plugin: Self.plugin(readsSize: true))
    w.awaitReload(session)
    #expect(session.error == nil)
    #expect(try box(session) == Size(300, 80))
  }

  @Test func sizesAViewCannotHaveOfferNothingOrTheLargest() throws {
    let w = try Workspace()
    try w.write(plugin: Self.plugin(readsSize: true))
    let session = w.session()
    for bad in [Size(0, 10), Size(-5, 10), Size(.nan, 10)] {
      session.offer(bad)
      #expect(session.viewSize == nil)
      #expect(try box(session) == Size(100, 60))
    }
    session.offer(Size(.infinity, 50))
    #expect(try box(session) == Size(SceneError.maxCanvasSide - 48, 50))
    #expect(session.error == nil)
  }

  @Test func aLoopWaitsForAChangeAndTheSessionReloads() throws {
    let w = try Workspace()
    let session = PluginSession(path: w.path, clock: .wall())
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    defer { for fd in fds { close(fd) } }
    // Nothing happens: the wait times out.
    let idle = session.wait(for: [fds[0]], timeout: 0.01)
    #expect(idle.ready.isEmpty && !idle.reloaded)
    // Input on the caller's descriptor wakes it.
    var byte: UInt8 = 1
    #expect(write(fds[1], &byte, 1) == 1)
    #expect(session.wait(for: [fds[0]], timeout: 60).ready == [fds[0]])
    // A save wakes it and reloads (once quiet: a few waits at most).
    try w.write(width: 50)
    let end = Date().addingTimeInterval(60)
    var reloaded = false
    while !reloaded && Date() < end {
      reloaded = session.wait(for: [], timeout: 1).reloaded
    }
    #expect(reloaded)
    session.seek(progress: 1)
    #expect(try width(session) == 150)
  }

  @Test func aMonitorReloadsOnItsQueue() throws {
    let w = try Workspace()
    let queue = DispatchQueue(label: "session-monitor-test")
    let reloaded = DispatchSemaphore(value: 0)
    let holder = Holder()
    queue.sync {
      let session = PluginSession(path: w.path, clock: .wall())
      holder.session = session
      holder.monitor = SessionFileMonitor(session: session, queue: queue) { reloaded.signal() }
    }
    try w.write(width: 50)
    #expect(reloaded.wait(timeout: .now() + 60) == .success)
    let drawn = queue.sync { () -> Double? in
      holder.session?.seek(progress: 1)
      return holder.session.flatMap { try? width($0) }
    }
    #expect(drawn == 150)
    // A changed import is followed too (the session watches the new file list).
    try w.write(module: "return { color = m.color('#00FF00') }")
    #expect(reloaded.wait(timeout: .now() + 60) == .success)
    queue.sync { holder.monitor?.cancel() }
  }

  @Test func aSessionThatDoesNotWatchReadsTheFileOnce() throws {
    let w = try Workspace()
    let session = PluginSession(path: w.path, clock: .virtual, watchesFiles: false)
    #expect(session.watchedFiles.isEmpty && session.watcher == nil)
    #expect(session.error == nil)
  }
}

/// The session and monitor a queue uses, kept between its blocks.
private final class Holder: @unchecked Sendable {
  var session: PluginSession?
  var monitor: SessionFileMonitor?
}
