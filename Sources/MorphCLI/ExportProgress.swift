import Dispatch
import Foundation
import MorphExport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// Ends the bar's line (once).
  func finish() {
    lock.withLock {
      if shown { _ = writeAll(Array("\n".utf8), to: STDERR_FILENO) }
      shown = false
    }
  }
}
