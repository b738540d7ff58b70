import Foundation
import MorphCore
import MorphRender

/// Bytes of host work the preview's threads hold at once, charged before
/// the work starts: the PNG an event stream makes of the frames it missed,
/// and a `frame.png` render. One charge is always let through when nothing
/// else is charged, so any single piece of work can run; the rest wait their
/// turn (bounded), and what does not fit in time is not done.
final class ByteBudget: @unchecked Sendable {
  let limit: Int
  private let condition = NSCondition()
  private var charged = 0

  init(limit: Int) { self.limit = limit }

  /// The preview's, for every plugin and stream (`PreviewLimits.hostBytes`).
  static let shared = ByteBudget(limit: PreviewLimits.hostBytes)

  /// Charges `bytes` once they fit, waiting at most `timeout` seconds (and
  /// no longer once `stopped` says so: looked at on every wake); false when
  /// they did not fit in time. `release` the same bytes afterwards.
  func charge(_ bytes: Int, timeout: Double, stopped: () -> Bool = { false }) -> Bool {
    let bytes = max(0, bytes)
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date().addingTimeInterval(timeout)
    while charged > 0, bytes > limit - charged {
      if stopped() || !condition.wait(until: deadline) { return false }
    }
    charged += bytes
    return true
  }

  func release(_ bytes: Int) {
    condition.lock()
    charged -= max(0, bytes)
    condition.broadcast()
    condition.unlock()
  }

  /// Bytes charged now.
  var inUse: Int {
    condition.lock()
    defer { condition.unlock() }
    return charged
  }
}

/// The preview had no room for the work now (`ByteBudget`): answered 503.
struct PreviewBusy: Diagnostic {
  var message: String
  var description: String { message }
}
