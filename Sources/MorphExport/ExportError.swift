import MorphCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an export failed, as one line. The plugin's own errors (a Lua error,
/// a frame that cannot be drawn) pass through `failed` with their location,
/// so `file:line` survives; everything the export itself checks has a case.
public enum ExportError: Diagnostic {
  /// A file or folder that cannot be written, and why; nothing was left behind.
  case unwritable(path: String, reason: String)
  /// A format name or file extension that names no format.
  case unknownFormat(String)
  /// Frames larger than the format holds, refused before any frame renders.
  case frameTooLarge(format: ExportFormat, limit: Int, width: Int, height: Int)
  /// A timeline with no frames, too many, or a duration or rate out of range.
  case invalidTimeline(String)
  /// A setting outside what its format accepts.
  case invalidSetting(String)
  /// Stopped by its observer before the end; nothing was written.
  case cancelled
  /// The plugin, its input or its frames failed: that error, as it was.
  case failed(any Diagnostic)

  /// A failed system call on `path`, with the system's reason.
  public static func unwritable(_ path: String, errno code: Int32) -> ExportError {
    .unwritable(path: path, reason: String(cString: strerror(code)))
  }

  /// Any error, as an `ExportError` (a plugin's keeps its location).
  static func wrap(_ error: any Error) -> ExportError {
    switch error {
    case let error as ExportError: error
    case let error as any Diagnostic: .failed(error)
    default: .failed(Unexpected(message: "\(error)"))
    }
  }

  public var message: String {
    switch self {
    case .unwritable(let path, let reason): "cannot write \(path): \(reason)"
    case .unknownFormat(let text): text
    case .frameTooLarge(let format, let limit, let width, let height):
      "\(format.rawValue) frames are at most \(limit) px a side; got \(width)×\(height)"
    case .invalidTimeline(let text), .invalidSetting(let text): text
    case .cancelled: "interrupted; no output was written"
    case .failed(let error): error.message
    }
  }

  public var location: FilePosition? {
    if case .failed(let error) = self { return error.location }
    return nil
  }

  public var traceback: String? {
    if case .failed(let error) = self { return error.traceback }
    return nil
  }

  public var fullTraceback: String? {
    if case .failed(let error) = self { return error.fullTraceback }
    return nil
  }

  public var codeFrame: String? {
    if case .failed(let error) = self { return error.codeFrame }
    return nil
  }

  public var exitStatus: ExitStatus {
    switch self {
    case .unwritable: .failure
    case .unknownFormat, .frameTooLarge, .invalidTimeline, .invalidSetting: .usage
    case .cancelled: .interrupted
    case .failed(let error): error.exitStatus
    }
  }

  public var description: String { locatedMessage }
}

/// An error from below that is not a `Diagnostic` (none is expected): its text.
private struct Unexpected: Diagnostic {
  let message: String
  var description: String { message }
}
