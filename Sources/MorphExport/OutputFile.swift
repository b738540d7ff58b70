import Foundation
import MorphCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file an export writes, made safely: the bytes go to a temporary file in
/// the target's folder, which replaces the target by rename only when every
/// byte was written. The target must be a regular file or not exist: a
/// device, a FIFO or a folder is refused before anything is written, and a
/// failed write (a full disk) leaves neither a partial file nor the temporary.
public final class OutputFile {
  public let path: String
  private let temporary: String
  private var descriptor: Int32

  /// Opens the temporary file beside `path` after checking `path` can be replaced.
  public init(_ path: String) throws(ExportError) {
    try Self.checkReplaceable(path)
    self.path = path
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    var template = Array(((folder.isEmpty ? "." : folder) + "/.\(name).XXXXXX").utf8CString)
    descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw ExportError.unwritable(path, errno: errno) }
    temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit { abandon() }

  /// Appends `bytes`; a short or failed write is an error naming the path.
  public func write(_ bytes: some ContiguousBytes) throws(ExportError) {
    guard descriptor >= 0 else {
      throw ExportError.unwritable(path: path, reason: "already closed")
    }
    if let failure = writeAll(bytes, to: descriptor) {
      throw ExportError.unwritable(path, errno: failure)
    }
  }

  /// Where the bytes go until `commit`: for a program that writes the file itself.
  public var temporaryPath: String { temporary }

  /// Rewrites bytes already written at `offset` (a header known only at the end).
  public func patch(_ bytes: [UInt8], at offset: Int) throws(ExportError) {
    guard descriptor >= 0 else {
      throw ExportError.unwritable(path: path, reason: "already closed")
    }
    let written = bytes.withUnsafeBytes {
      pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset))
    }
    guard written == bytes.count else {
      throw ExportError.unwritable(path, errno: written < 0 ? errno : EIO)
    }
  }

  /// Flushes, closes and renames over the target (checked again: it may have changed).
  public func commit() throws(ExportError) {
    guard descriptor >= 0 else {
      throw ExportError.unwritable(path: path, reason: "already closed")
    }
    if fsync(descriptor) != 0, errno != EINVAL {
      let code = errno
      abandon()
      throw ExportError.unwritable(path, errno: code)
    }
    let closed = close(descriptor)
    let code = errno
    descriptor = -1
    guard closed == 0 else {
      unlink(temporary)
      throw ExportError.unwritable(path, errno: code)
    }
    do {
      try Self.checkReplaceable(path)
    } catch {
      unlink(temporary)
      throw error
    }
    // mkstemp makes the file 0600; an output file gets the usual 0644 less the umask.
    let mask = umask(0)
    umask(mask)
    chmod(temporary, 0o666 & ~mask)
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw ExportError.unwritable(path, errno: code)
    }
  }

  /// Drops the temporary file; the target is untouched.
  public func abandon() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
    unlink(temporary)
  }

  /// Writes `bytes` to `path` in one go.
  public static func write(_ bytes: some ContiguousBytes, to path: String) throws(ExportError) {
    let file = try OutputFile(path)
    try file.write(bytes)
    try file.commit()
  }

  /// Refuses a target that is not a regular file (a device, FIFO, socket or
  /// folder), or whose folder does not exist. A missing target is fine.
  public static func checkReplaceable(_ path: String) throws(ExportError) {
    guard !path.isEmpty else { throw ExportError.unwritable(path: path, reason: "an empty path") }
    var info = stat()
    // Through a link: a link to a regular file is replaced; one to a device is refused.
    if stat(path, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      guard kind == S_IFREG else {
        throw ExportError.unwritable(
          path: path, reason: "is \(describe(kind)), not a regular file; refusing to replace it")
      }
      return
    }
    guard errno == ENOENT else { throw ExportError.unwritable(path, errno: errno) }
    let folder = (path as NSString).deletingLastPathComponent
    var folderInfo = stat()
    guard stat(folder.isEmpty ? "." : folder, &folderInfo) == 0,
      folderInfo.st_mode & S_IFMT == S_IFDIR
    else { throw ExportError.unwritable(path: path, reason: "its folder does not exist") }
  }

  static func describe(_ kind: mode_t) -> String { CheckedFile.describe(kind) }
}

/// Writes every byte to `descriptor`, retrying short writes; the errno of a failure.
public func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Int32? {
  bytes.withUnsafeBytes { buffer -> Int32? in
    guard let base = buffer.baseAddress else { return nil }
    var offset = 0
    while offset < buffer.count {
      let n = write(descriptor, base + offset, buffer.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += n
    }
    return nil
  }
}
