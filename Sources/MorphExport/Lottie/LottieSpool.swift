import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a long export's finished layer text waits for the final file: a temporary file
/// in TMPDIR, unlinked as soon as it is opened, so it is gone on every exit (an error,
/// Ctrl-C, SIGTERM, even SIGKILL) and no other program can open it. The writer keeps
/// only the spans it wrote; the final JSON copies them from here in bounded pieces.
final class LottieSpool {
  /// How much is read back at a time.
  static let pieceBytes = 1 << 20

  private let descriptor: Int32

  static var temporaryFolder: String {
    let folder = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
    return folder.isEmpty ? "/tmp" : folder
  }
  private(set) var size = 0

  /// A spool in `folder` (TMPDIR, else /tmp).
  init(in folder: String = LottieSpool.temporaryFolder) throws(ExportError) {
    var template = Array((folder + "/morphhost-lottie-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw .unwritable(folder, errno: errno) }
    let name = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    unlink(name)
    descriptor = fd
  }

  deinit { close(descriptor) }

  /// Appends `text`; where it lies.
  func append(_ text: String) throws(ExportError) -> LottieJSON.Spooled {
    var text = text
    let start = size
    let failure = text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    if let failure { throw .unwritable("a temporary file for the Lottie layers", errno: failure) }
    size += text.utf8.count
    return LottieJSON.Spooled(offset: start, count: size - start)
  }

  /// The bytes of `span`, in pieces of at most `pieceBytes`.
  func read(
    _ span: LottieJSON.Spooled, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    var buffer = [UInt8](repeating: 0, count: min(span.count, Self.pieceBytes))
    var done = 0
    while done < span.count {
      let want = min(buffer.count, span.count - done)
      let got = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, want, off_t(span.offset + done))
      }
      guard got > 0 else {
        throw ExportError.unwritable(
          "a temporary file for the Lottie layers", errno: got < 0 ? errno : EIO)
      }
      try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
      done += got
    }
  }
}
