import CCairo
import MorphCore

/// Why a render, or a PNG encode or decode, failed.
public enum RenderError: Diagnostic, Hashable, Sendable {
  /// The canvas size or scale cannot give a surface (non-finite, negative or too large).
  case invalidCanvas(String)
  /// The display list cannot be drawn: unbalanced or too deeply nested groups.
  case invalidDisplayList(String)
  /// Cairo reported a failure while doing `operation`.
  case cairo(operation: String, status: String)
  /// A file could not be read or written.
  case io(String)
  /// Frames given to an encoder do not make one animation (sizes differ, none, too many,
  /// too many colours).
  case invalidFrames(String)
  /// Bytes that should be a PNG file are not one.
  case invalidPNG(String)
  /// An encoding library (deflate, libimagequant, giflib, libwebp, libsixel) failed.
  case encoder(String)
  /// The frame would cost more than its `FrameBudget` allows.
  case frameBudget(String)

  public var message: String { description }

  public var description: String {
    switch self {
    case .invalidCanvas(let message), .invalidDisplayList(let message), .io(let message),
      .invalidFrames(let message), .invalidPNG(let message), .encoder(let message),
      .frameBudget(let message):
      return message
    case .cairo(let operation, let status):
      return "cairo failed to \(operation): \(status)"
    }
  }

  /// An error for a Cairo status, or nil when it is a success.
  static func check(_ status: cairo_status_t, _ operation: @autoclosure () -> String)
    -> RenderError?
  {
    guard status != CAIRO_STATUS_SUCCESS else { return nil }
    return .cairo(operation: operation(), status: String(cString: cairo_status_to_string(status)))
  }
}

/// A number as people write it: `428` rather than `428.0`.
func formatNumber(_ v: Double) -> String {
  v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
