import Dispatch
import Foundation
import MorphExport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Set by the SIGINT handler; a signal handler may only store to such a flag.
nonisolated(unsafe) private var interruptRaised: sig_atomic_t = 0

/// Ctrl-C during an export: the signal only raises a flag (installed
/// synchronously, so no Ctrl-C is lost), and the export stops at the next
/// frame (`ExportError.cancelled`), so every output file is removed by its
/// owner on the way out and the exit status is 130.
final class Interruption: Sendable {
  /// Catches SIGINT until `stop`.
  func start() {
    interruptRaised = 0
    signal(SIGINT) { _ in interruptRaised = 1 }
  }

  func stop() { signal(SIGINT, SIG_DFL) }

  /// Ctrl-C was pressed since `start`.
  var raised: Bool { interruptRaised != 0 }
}

/// A one-line progress bar on standard error (terminals only): frames done,
/// frames per second, and the time left at that rate.
final class ProgressBar: @unchecked Sendable {
  let enabled: Bool
  private var shown = false
  private let started = DispatchTime.now().uptimeNanoseconds
  private let lock = NSLock()

  init(enabled: Bool) { self.enabled = enabled }

  /// Shows `done` of `total` frames (a bar only for exports of 8 frames or more).
  func advance(done: Int, total: Int) {
    guard enabled, total >= 8 else { return }
    lock.withLock {
      shown = true
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
      _ = writeAll(
        Array(("\r" + Self.line(done: done, total: total, seconds: seconds)).utf8),
        to: STDERR_FILENO)
    }
  }

  /// `[#####-----] 40/120 frames  35.2 fps  ETA 2.3 s`
  static func line(done: Int, total: Int, seconds: Double) -> String {
    let width = 30
    let filled = width * done / max(1, total)
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let rate = seconds > 0 ? Double(done) / seconds : 0
    let eta = rate > 0 ? String(format: "ETA %.1f s", Double(total - done) / rate) : "ETA …"
    return "[\(bar)] \(done)/\(total) frames  " + String(format: "%.1f fps  ", rate) + eta + "  "
  }

  func finish() {
    if shown { _ = writeAll(Array("\n".utf8), to: STDERR_FILENO) }
  }
}
