import Dispatch
import MorphHost

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Waiting for a session's watched files: the one place that knows the
/// watcher's descriptor, its debounce deadline and the polling fallback.
/// A loop waits with `wait(for:timeout:)`; a dispatch queue with a
/// `SessionFileMonitor`.
extension PluginSession {
  /// How often files are looked at where the system gives no descriptor.
  public static let filePollInterval = 0.25

  /// What woke `wait(for:timeout:)`.
  public struct Wake: Sendable {
    /// The caller's descriptors that are readable (or closed).
    public var ready: Set<Int32> = []
    /// Whether a watched file changed and the session reloaded (or tried to).
    public var reloaded = false
  }

  /// Waits up to `timeout` seconds for one of `descriptors` (the caller's
  /// input) or a change of a watched file, which it reloads once the change
  /// is quiet. Returns sooner when a change is due to be checked.
  public func wait(for descriptors: [Int32], timeout: Double) -> Wake {
    var limit = max(0, timeout)
    if let due = nextFileCheck { limit = min(limit, max(0, due - wallNow)) }
    if watcher != nil, watchDescriptor == nil { limit = min(limit, Self.filePollInterval) }
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    if let fd = watchDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
    _ = poll(&fds, nfds_t(fds.count), Int32((limit * 1000).rounded(.up)))
    var wake = Wake()
    for entry in fds.prefix(descriptors.count)
    where entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      wake.ready.insert(entry.fd)
    }
    wake.reloaded = checkFiles()
    return wake
  }
}

/// Reloads a session on a dispatch queue when its files change: a read
/// source on the watcher's descriptor (or a look every
/// `PluginSession.filePollInterval` where there is none), checked again
/// once the debounce period is over. Use it on `queue` only, like the session.
public final class SessionFileMonitor: @unchecked Sendable {
  private let session: PluginSession
  private let queue: DispatchQueue
  private let onReload: () -> Void
  /// The watcher waited on, and which one it is (a pending callback for an
  /// earlier one does nothing).
  private var watched: FileWatcher?
  private var generation = 0
  private var source: DispatchSourceRead?

  /// `onReload` runs on `queue` after each reload a change caused.
  public init(session: PluginSession, queue: DispatchQueue, onReload: @escaping () -> Void) {
    self.session = session
    self.queue = queue
    self.onReload = onReload
    follow()
  }

  /// Waits on the session's watcher now, if it is a new one (a reload or
  /// new props changed the imports). Cheap when nothing changed.
  public func follow() {
    guard session.watcher !== watched else { return }
    cancel()
    watched = session.watcher
    guard let watcher = session.watcher else { return }
    let generation = self.generation
    guard let fd = watcher.descriptor else { return poll(generation) }
    let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
    source.setEventHandler { [weak self] in self?.active(generation) }
    // The watcher owns the descriptor: it must outlive the source's cancellation.
    let owner = UncheckedSendable(watcher)
    source.setCancelHandler { withExtendedLifetime(owner) {} }
    source.resume()
    self.source = source
  }

  /// Stops waiting (until the next `follow()` with another watcher).
  public func cancel() {
    source?.cancel()
    source = nil
    watched = nil
    generation += 1
  }

  /// The descriptor woke: check now, and again once the debounce period is over.
  private func active(_ generation: Int) {
    guard generation == self.generation else { return }
    if check() { return }
    guard let due = session.nextFileCheck else { return }
    let delay = max(0, due - session.wallNow) + 0.002
    queue.asyncAfter(deadline: .now() + delay) { [weak self] in
      guard let self, generation == self.generation else { return }
      _ = self.check()
    }
  }

  private func poll(_ generation: Int) {
    queue.asyncAfter(deadline: .now() + PluginSession.filePollInterval) { [weak self] in
      guard let self, generation == self.generation else { return }
      _ = self.check()
      self.poll(generation)
    }
  }

  private func check() -> Bool {
    guard session.checkFiles() else { return false }
    follow()
    onReload()
    return true
  }
}

/// A value used on one queue at a time, carried into a closure that runs there. The
/// front ends use it too, so there is one such box.
public struct UncheckedSendable<T>: @unchecked Sendable {
  public let value: T
  public init(_ value: T) { self.value = value }
}
