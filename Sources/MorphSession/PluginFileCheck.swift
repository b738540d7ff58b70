import MorphCore
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
    // A missing or unreadable file is the loader's to report, with its own words.
    guard case .notRegular(let kind)? = CheckedFile.refusal(ofPath: path) else { return nil }
    return .notARegularFile(path: path, kind: kind)
  }
}
