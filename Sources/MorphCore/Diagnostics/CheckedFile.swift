import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a file the host was pointed at (a plugin, an import, an input script), and
/// telling files apart, without ever blocking: the one owner of "what kind of file is
/// this" for readers and writers alike.
///
/// A path may name a FIFO (which blocks `open` until a writer comes, and then `read`
/// until it writes), a device (`/dev/zero` never ends, a terminal waits for a key) or a
/// folder. `read` opens with `O_NONBLOCK`, looks at what it opened with `fstat`, and
/// reads only a regular file, up to a size cap: anything else is one clear refusal.
public enum CheckedFile {
  /// Why a read was refused; `description` is the reason, without the path.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// `open` or `read` failed: the system's reason.
    case system(Int32)
    /// Not a regular file: what it is instead ("a FIFO", "a device", "a folder"…).
    case notRegular(String)
    /// Larger than the cap given, in bytes.
    case tooLarge(Int)

    public var description: String {
      switch self {
      case .system(let code): String(cString: strerror(code))
      case .notRegular(let kind): "is \(kind), not a regular file"
      case .tooLarge(let cap): "is larger than \(CheckedFile.describe(bytes: cap))"
      }
    }
  }

  /// The bytes of the regular file at `path`, at most `maxBytes` of them; with
  /// `followingLinks` false, a link at `path` is refused as what it is.
  public static func read(_ path: String, maxBytes: Int, followingLinks: Bool = true)
    throws(Failure) -> [UInt8]
  {
    let fd = try openRegular(path, followingLinks: followingLinks)
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .system(errno) }
    guard Int(info.st_size) <= maxBytes else { throw .tooLarge(maxBytes) }
    return try readAll(fd, maxBytes: maxBytes)
  }

  /// Why `path` cannot be read as a regular file without blocking, or nil when it can
  /// (or when it cannot be opened at all: that is the reader's to say, in its words).
  public static func refusal(ofPath path: String) -> Failure? {
    do {
      close(try openRegular(path, followingLinks: true))
      return nil
    } catch {
      if case .system = error { return nil }
      return error
    }
  }

  /// A descriptor of the regular file at `path`, opened without blocking; the caller closes it.
  private static func openRegular(_ path: String, followingLinks: Bool) throws(Failure) -> Int32 {
    var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
    if !followingLinks { flags |= O_NOFOLLOW }
    let fd = open(path, flags)
    guard fd >= 0 else {
      throw errno == ELOOP && !followingLinks ? .notRegular(describe(S_IFLNK)) : .system(errno)
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw .system(code)
    }
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFREG else {
      close(fd)
      throw .notRegular(describe(kind))
    }
    return fd
  }

  /// Everything `fd` gives until its end, refused once it passes `maxBytes`. With a
  /// `deadline` (uptime in nanoseconds, as `DispatchTime` counts) `fd` is a pipe opened
  /// with `O_NONBLOCK`: each read first waits in `poll` for data or the writer's close,
  /// and the whole read fails with `ETIMEDOUT` past the deadline. (Reading such a FIFO
  /// before its writer has opened it would see an end at once.)
  public static func readAll(_ fd: Int32, maxBytes: Int, deadline: UInt64? = nil)
    throws(Failure) -> [UInt8]
  {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      if let deadline { try waitReadable(fd, deadline: deadline) }
      let n = systemRead(fd, &buffer, buffer.count)
      if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard n >= 0 else { throw .system(errno) }
      if n == 0 { return bytes }
      guard n <= maxBytes - bytes.count else { throw .tooLarge(maxBytes) }
      bytes += buffer[0..<n]
    }
  }

  /// Waits until `fd` has data or its writer closed it, or fails past `deadline`.
  private static func waitReadable(_ fd: Int32, deadline: UInt64) throws(Failure) {
    while true {
      let now = DispatchTime.now().uptimeNanoseconds
      guard now < deadline else { throw .system(ETIMEDOUT) }
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, Int32(min((deadline - now) / 1_000_000 + 1, 1000)))
      if ready > 0 { return }
      if ready < 0 && errno != EINTR { throw .system(errno) }
    }
  }

  /// What a file of type `kind` (`st_mode & S_IFMT`) is, for messages.
  public static func describe(_ kind: mode_t) -> String {
    switch kind {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR, S_IFBLK: return "a device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a link"
    default: return "not a regular file"
    }
  }

  /// `64 MiB`, `1 MiB`, `512 KiB`, `100 bytes`.
  static func describe(bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}

/// read(2), named apart from `CheckedFile.read`.
private func systemRead(_ fd: Int32, _ buffer: inout [UInt8], _ count: Int) -> Int {
  read(fd, &buffer, count)
}

/// A file as the system knows it (device and inode), to tell whether two paths are the
/// same file whatever links or spellings lead to them.
public struct FileIdentity: Hashable, Sendable {
  public let device: UInt64
  public let inode: UInt64

  /// The file `path` names (following links); nil when it does not exist.
  public init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }

  /// Whether `a` and `b` name the same file: the same device and inode, or, for a path
  /// that does not exist yet, the same absolute path once `.`, `..` and the folders'
  /// links are resolved.
  public static func same(_ a: String, _ b: String) -> Bool {
    if let x = FileIdentity(path: a), let y = FileIdentity(path: b) { return x == y }
    return resolved(a) == resolved(b)
  }

  /// `path` made absolute, its folder's links resolved (the file itself may not exist).
  static func resolved(_ path: String) -> String {
    let absolute =
      path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let url = URL(fileURLWithPath: absolute).standardized
    let folder = url.deletingLastPathComponent().path
    guard let real = realpath(folder, nil) else { return url.path }
    defer { free(real) }
    let base = String(cString: real)
    return (base == "/" ? "" : base) + "/" + url.lastPathComponent
  }
}
