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

/// The preview's frames fitted to `PreviewLimits.frameBytes`.
enum FrameFit {
  /// The factor (at most 1) every one of `scales` is multiplied by so that
  /// the rasters of one frame of `canvas`, one per scale, take at most
  /// `bytes`: a 1 950-point offer at 4x is 7 800 pixels a side, 243 MB a
  /// raster, more than a screen shows; it is drawn at a lower density
  /// instead, and the page shows it at the same size. 1 when the canvas
  /// cannot be drawn at all (the renderer then says why).
  static func factor(_ scales: [Double], canvas: Size, bytes: Int) -> Double {
    func total(_ factor: Double) -> Int? {
      var sum = 0
      for scale in scales {
        guard let (width, height) = try? CairoRenderer.pixelSize(canvas, scale: scale * factor)
        else { return nil }
        sum += width * height * 4
      }
      return sum
    }
    guard let whole = total(1), whole > bytes, whole > 0 else { return 1 }
    // Pixels grow with the square of the scale; whole-pixel rounding may
    // still leave it a little over, so it steps down until it fits.
    var factor = (Double(bytes) / Double(whole)).squareRoot()
    while factor > 1e-3, let sum = total(factor), sum > bytes { factor *= 0.98 }
    return factor
  }

  /// The bytes of one raster of `canvas` at `scale` (0 when it cannot be drawn).
  static func rasterBytes(_ canvas: Size, scale: Double) -> Int {
    guard let (width, height) = try? CairoRenderer.pixelSize(canvas, scale: scale) else { return 0 }
    return width * height * 4
  }
}

/// The preview had no room for the work now (`ByteBudget`): answered 503.
struct PreviewBusy: Diagnostic {
  var message: String
  var description: String { message }
}
