import Foundation
import MorphCore
import MorphHost
import MorphScript

/// A `PluginSession` hosted for any number of threads: everything that touches
/// it runs on `queue` (serial: a Lua state is not thread-safe), the wall clock
/// is pumped at the display's pace while something plays (no timer otherwise),
/// the plugin's files are watched, and every change is handed to a
/// `LiveFrameStream`, whose `board` readers wait on. The browser preview serves
/// it; an app can show its frames the same way.
///
/// ```swift
/// let host = SessionHost(path: "flip.lua", frameBytes: 32 << 20)
/// host.perform { host.subscribe(scale: 2) }
/// host.perform { host.session.apply(.tap(nil)) }
/// if case .some(.some(let frame)) = host.board.next(after: 0, timeout: 1) { … }
/// ```
public final class SessionHost: @unchecked Sendable {
  public let path: String
  public let queue: DispatchQueue
  /// Frames posted so far, and the latest, for readers on any thread.
  public let board = LiveFrameBoard()
  /// Use on `queue` only (inside `perform`).
  public let session: PluginSession
  /// Called on `queue` after the files changed and the session reloaded (or tried to).
  /// Set it inside `perform`, as everything on the queue.
  public var onReload: (() -> Void)?
  /// Called on `queue` as each status is made: a front end adds its own fields.
  /// Set it inside `perform`.
  public var decorate: ((inout SessionStatus) -> Void)?
  /// What frames are drawn over (nil: transparent). Set it inside `perform`.
  public var background: Color? = .white

  private let stream: LiveFrameStream
  private var monitor: SessionFileMonitor?
  private var timer: DispatchSourceTimer?
  /// Pixel scales readers asked for, with how many use each.
  private var scales: [Double: Int] = [:]

  /// What became of the frames handed to the stream (any thread).
  public var frameCounts: LiveFrameStream.Tally { stream.counts }

  /// Loads `path` on the queue's own thread and starts watching it. `frameBytes`
  /// bounds one frame's pixels over every scale (`FrameFit`).
  public init(
    path: String, options: ComponentOptions = ComponentOptions(), clock: SessionClock = .wall(),
    frameBytes: Int, label: String? = nil
  ) {
    self.path = path
    let queue = DispatchQueue(
      label: label ?? "morphhost.session.\(BundledPlugins.baseName(ofPath: path))")
    self.queue = queue
    stream = LiveFrameStream(board: board, frameBytes: frameBytes)
    let settings = UncheckedSendable(options)
    // Loading runs Lua: on the queue's own thread, like everything after it.
    session = Self.run(on: queue) {
      let session = PluginSession(path: path, options: settings.value, clock: clock)
      session.startRecording()
      return session
    }
    onQueue {
      self.monitor = SessionFileMonitor(session: self.session, queue: queue) { [weak self] in
        self?.changed()
      }
    }
  }

  /// Runs `body` on the queue and returns its result, catching the clock up
  /// first and publishing a frame afterwards if anything changed.
  public func perform<T>(_ body: @escaping () throws -> T) throws -> T {
    try onQueue {
      self.session.catchUp()
      defer { self.publish() }
      return try body()
    }
  }

  public func perform(_ body: @escaping () -> Void) {
    onQueue {
      self.session.catchUp()
      body()
      self.publish()
    }
  }

  private func onQueue<T>(_ body: @escaping () throws -> T) throws -> T {
    try Self.run(on: queue) { Result { try body() } }.get()
  }

  private func onQueue(_ body: @escaping () -> Void) {
    _ = try? onQueue { () throws -> Void in body() }
  }

  /// Runs `body` on one of `queue`'s own threads and waits for it. Not
  /// `queue.sync`, which runs on the caller's thread: an HTTP server's threads
  /// may have small stacks, and Lua and the tree reader recurse.
  private static func run<T>(on queue: DispatchQueue, _ body: @escaping () -> T) -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let work = UncheckedSendable(body)
    queue.async {
      result.value = work.value()
      done.signal()
    }
    done.wait()
    return result.value!  // set before the signal
  }

  /// Stops the clock and the watcher and unloads the component (its `disappear`
  /// runs); readers of `board` end.
  public func close() {
    onQueue {
      self.timer?.cancel()
      self.timer = nil
      self.monitor?.cancel()
      self.monitor = nil
      self.session.close()
    }
    stream.close()
    board.close()
  }

  /// A reader wants frames at `scale` (on the queue: inside `perform`).
  public func subscribe(scale: Double) {
    scales[scale, default: 0] += 1
  }

  public func unsubscribe(scale: Double) {
    scales[scale, default: 1] -= 1
    if scales[scale] == 0 { scales[scale] = nil }
  }

  /// After a save the session reloaded (or tried to).
  private func changed() {
    session.catchUp()
    onReload?()
    publish()
  }

  /// A timer runs only while something animates and a wall clock plays (a
  /// virtual clock moves only when told).
  private func updateTimer() {
    let needed = session.isPlaying && session.clock.now != nil
    if needed, timer == nil {
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(
        deadline: .now() + SessionClock.frameInterval, repeating: SessionClock.frameInterval)
      timer.setEventHandler { [weak self] in
        guard let self else { return }
        self.session.catchUp()
        self.publish()
      }
      timer.resume()
      self.timer = timer
    } else if !needed, let timer {
      timer.cancel()
      self.timer = nil
    }
  }

  /// Builds the frame now and hands it to the stream, which posts it if its
  /// picture or status changed.
  private func publish() {
    let list = session.frame()?.list
    var status = session.status()
    decorate?(&status)
    stream.submit(
      list: list, status: status, scales: scales.keys.sorted(), background: background)
    // New props may import other files.
    monitor?.follow()
    updateTimer()
  }
}

/// Carries a value from the queue's thread back to the waiting caller.
final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}

extension PluginSession {
  /// The one playback loop of a virtual clock: `frame` sees each moment (its
  /// index from 0; the first is now), then the clock moves `interval` on, until
  /// nothing animates, `done` says so after a frame, or `maxFrames` were shown.
  /// What an app's export loop, a pipe's `run` or a test's settle plays.
  public func play(
    every interval: Double, maxFrames: Int = Int.max, until done: (Int) -> Bool = { _ in false },
    _ frame: (Int) throws -> Void
  ) rethrows {
    var index = 0
    while index < maxFrames {
      try frame(index)
      index += 1
      guard isAnimating, !done(index) else { return }
      advance(by: interval)
    }
  }
}
