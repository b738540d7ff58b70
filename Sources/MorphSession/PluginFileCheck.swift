import MorphScript

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a plugin's path can be read without blocking, checked before the
/// session reads it: a FIFO put in its place would hold `open` (and the
/// session's queue) until some writer came, a device may never end. The
/// path is opened non-blocking and must be a regular file; it is closed
/// again at once (the loader reads it then). The general reader of plugin
/// files is the loader's; this keeps a session from being the one that hangs.
public enum PluginFileCheck {
  /// Nil when `path` is a regular file (or a bundled plugin, which has
  /// none), else why it cannot be a plugin, as one line.
  public static func refusal(of path: String) -> SessionError? {
    guard BundledPlugins.plugin(atPath: path) == nil else { return nil }
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    // A missing or unreadable file is the loader's to report, with its own words.
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    let kind = info.st_mode & S_IFMT
    guard kind != S_IFREG else { return nil }
    let name: String
    switch kind {
    case S_IFIFO: name = "a FIFO"
    case S_IFCHR, S_IFBLK: name = "a device"
    case S_IFDIR: name = "a folder"
    case S_IFSOCK: name = "a socket"
    default: name = "not a regular file"
    }
    return .notARegularFile(path: path, kind: name)
  }
}
