import Foundation
import MorphCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file the host writes on a user's behalf, made safely: the bytes go to a temporary
/// file the host creates in the target's folder, which replaces the target by rename only
/// when every byte was written, so nothing is ever written through an existing file or
/// link. The target must be a regular file or not exist: a device, a FIFO or a folder is
/// refused before anything is written, and a failed write (a full disk) leaves neither a
/// partial file nor the temporary.
///
/// Two refusals a caller may ask for: `within` names the folder the file must stay in
/// (its folder's real path, links resolved, must lie inside that folder's), and
/// `refusingLinks` refuses a target that is a symbolic link rather than replacing the
/// link. The folder is opened once and every step after the check works relative to it,
/// so swapping a folder for a link meanwhile does not move the file elsewhere.
///
/// The one owner of safe writing: `OutputFile` (MorphExport) is a thin user of it.
public final class SafeFile {
  public let path: String
  /// Where the bytes go until `commit`: for a program that writes the file itself.
  public let temporaryPath: String
  private let folder: Int32
  private let name: String
  private let temporaryName: String
  private let refusingLinks: Bool
  private var descriptor: Int32

  /// Opens the temporary file beside `path` after checking `path` can be replaced.
  public init(_ path: String, within root: String? = nil, refusingLinks: Bool = false)
    throws(FileWriteError)
  {
    let (folder, name) = try Self.openFolder(of: path, within: root)
    do {
      try Self.checkTarget(name, in: folder, path: path, refusingLinks: refusingLinks)
    } catch {
      close(folder)
      throw error
    }
    // A fresh name, created exclusively and never followed: the host owns the file.
    var made: (Int32, String)?
    for _ in 0..<100 {
      let candidate = ".\(name.prefix(200)).\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
      let fd = openat(
        folder, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if fd >= 0 {
        made = (fd, candidate)
        break
      }
      if errno != EEXIST {
        let code = errno
        close(folder)
        throw FileWriteError(path, errno: code)
      }
    }
    guard let (descriptor, temporaryName) = made else {
      close(folder)
      throw FileWriteError(path: path, reason: "cannot create a temporary file beside it")
    }
    self.path = path
    self.folder = folder
    self.name = name
    self.temporaryName = temporaryName
    self.refusingLinks = refusingLinks
    self.descriptor = descriptor
    let shown = (path as NSString).deletingLastPathComponent
    temporaryPath = (shown.isEmpty ? "" : shown + "/") + temporaryName
  }

  deinit {
    abandon()
    close(folder)
  }

  /// Appends `bytes`; a short or failed write is an error naming the path.
  public func write(_ bytes: some ContiguousBytes) throws(FileWriteError) {
    guard descriptor >= 0 else { throw FileWriteError(path: path, reason: "already closed") }
    if let failure = Self.writeAll(bytes, to: descriptor) {
      throw FileWriteError(path, errno: failure)
    }
  }

  /// Rewrites bytes already written at `offset` (a header known only at the end).
  public func patch(_ bytes: [UInt8], at offset: Int) throws(FileWriteError) {
    guard descriptor >= 0 else { throw FileWriteError(path: path, reason: "already closed") }
    let written = bytes.withUnsafeBytes {
      pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset))
    }
    guard written == bytes.count else {
      throw FileWriteError(path, errno: written < 0 ? errno : EIO)
    }
  }

  /// Flushes, closes and renames over the target (checked again: it may have changed).
  public func commit() throws(FileWriteError) {
    guard descriptor >= 0 else { throw FileWriteError(path: path, reason: "already closed") }
    if fsync(descriptor) != 0, errno != EINVAL {
      let code = errno
      abandon()
      throw FileWriteError(path, errno: code)
    }
    // mkstemp-style files are 0600; an output file gets the usual 0666 less the umask.
    let mask = umask(0)
    umask(mask)
    fchmod(descriptor, 0o666 & ~mask)
    let closed = close(descriptor)
    let code = errno
    descriptor = -1
    guard closed == 0 else {
      unlinkat(folder, temporaryName, 0)
      throw FileWriteError(path, errno: code)
    }
    do {
      try Self.checkTarget(name, in: folder, path: path, refusingLinks: refusingLinks)
    } catch {
      unlinkat(folder, temporaryName, 0)
      throw error
    }
    guard renameat(folder, temporaryName, folder, name) == 0 else {
      let code = errno
      unlinkat(folder, temporaryName, 0)
      throw FileWriteError(path, errno: code)
    }
  }

  /// Drops the temporary file; the target is untouched.
  public func abandon() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
    unlinkat(folder, temporaryName, 0)
  }

  /// Writes `bytes` to `path` in one go.
  public static func write(
    _ bytes: some ContiguousBytes, to path: String, within root: String? = nil,
    refusingLinks: Bool = false
  ) throws(FileWriteError) {
    let file = try SafeFile(path, within: root, refusingLinks: refusingLinks)
    try file.write(bytes)
    try file.commit()
  }

  /// Refuses a target that is not a regular file (a device, FIFO, socket or folder), whose
  /// folder does not exist, or (when asked) that is a link or lies outside `root`. A
  /// missing target is fine.
  public static func checkReplaceable(
    _ path: String, within root: String? = nil, refusingLinks: Bool = false
  ) throws(FileWriteError) {
    let (folder, name) = try openFolder(of: path, within: root)
    defer { close(folder) }
    try checkTarget(name, in: folder, path: path, refusingLinks: refusingLinks)
  }

  /// The folder of `path`, opened, after checking it is a folder inside `root`.
  private static func openFolder(of path: String, within root: String?) throws(FileWriteError)
    -> (Int32, String)
  {
    guard !path.isEmpty else { throw FileWriteError(path: path, reason: "an empty path") }
    let name = (path as NSString).lastPathComponent
    guard !name.isEmpty, name != ".", name != "..", !path.hasSuffix("/") else {
      throw FileWriteError(
        path: path, reason: "is a folder, not a regular file; refusing to replace it")
    }
    var folderPath = (path as NSString).deletingLastPathComponent
    if folderPath.isEmpty { folderPath = "." }
    let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else {
      switch errno {
      case ENOENT: throw FileWriteError(path: path, reason: "its folder does not exist")
      case ENOTDIR: throw FileWriteError(path: path, reason: "\(folderPath) is not a folder")
      case let code: throw FileWriteError(path, errno: code)
      }
    }
    if let root {
      // Compared by real paths, and the opened folder must be the one checked.
      guard let real = realPath(folderPath), let realRoot = realPath(root),
        real == realRoot || real.hasPrefix(realRoot == "/" ? "/" : realRoot + "/"),
        sameFile(folder, real)
      else {
        close(folder)
        throw FileWriteError(
          path: path, reason: "leads outside \(root); refusing to write outside the folder given")
      }
    }
    return (folder, name)
  }

  /// `name` in `folder` is missing or a regular file (a link to one, unless refused).
  private static func checkTarget(
    _ name: String, in folder: Int32, path: String, refusingLinks: Bool
  ) throws(FileWriteError) {
    var info = stat()
    if refusingLinks, fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
      info.st_mode & S_IFMT == S_IFLNK
    {
      throw FileWriteError(path: path, reason: "is a symbolic link; refusing to replace it")
    }
    // Through a link: a link to a regular file is replaced; one to a device is refused.
    if fstatat(folder, name, &info, 0) == 0 {
      let kind = info.st_mode & S_IFMT
      guard kind == S_IFREG else {
        throw FileWriteError(
          path: path,
          reason: "is \(CheckedFile.describe(kind)), not a regular file; refusing to replace it")
      }
      return
    }
    guard errno == ENOENT else { throw FileWriteError(path, errno: errno) }
  }

  /// Whether the open descriptor `fd` is the file at `path`.
  private static func sameFile(_ fd: Int32, _ path: String) -> Bool {
    var a = stat()
    var b = stat()
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev
      && a.st_ino == b.st_ino
  }

  /// `path` with every link resolved, or nil when it does not exist.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Writes every byte to `descriptor`, retrying short writes; the errno of a failure.
  public static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Int32? {
    bytes.withUnsafeBytes { buffer -> Int32? in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let n = systemWrite(descriptor, base + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += n
      }
      return nil
    }
  }
}

/// A file that cannot be written, and why; nothing was left behind.
public struct FileWriteError: Diagnostic, Equatable {
  public var path: String
  public var reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// A failed system call on `path`, with the system's reason.
  public init(_ path: String, errno code: Int32) {
    self.init(path: path, reason: String(cString: strerror(code)))
  }

  public var message: String { "cannot write \(path): \(reason)" }
  public var description: String { message }
  public var exitStatus: ExitStatus { .failure }
}

/// The system's `write`, which `SafeFile.write` hides inside the class.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}
