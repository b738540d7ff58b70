import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Tells when files change, for hot reload. On Linux it uses inotify on each
/// file's folder (so editors that write a new file and rename it over the old
/// one are seen); elsewhere it polls size and modification time. Changes are
/// debounced: a burst of writes within `quietPeriod` counts once.
public final class FileWatcher {
  public let paths: [String]
  /// The paths as given (before standardising), to compare with a new list.
  public let requested: [String]
  public let quietPeriod: Double
  private var signatures: [String: String] = [:]
  /// When the activity seen so far is due to be checked (once quiet), if any:
  /// a front end that waits on `descriptor` looks again then.
  public private(set) var dueAt: Double?
  #if os(Linux)
    private var inotify: Int32 = -1
    private var names: Set<String> = []
  #endif

  public init(paths: [String], quietPeriod: Double = 0.015) {
    requested = paths
    self.paths = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    self.quietPeriod = quietPeriod
    for path in self.paths { signatures[path] = Self.signature(path) }
    #if os(Linux)
      inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_ATTRIB)
      for dir in Set(self.paths.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }) {
        _ = inotify_add_watch(inotify, dir, mask)
      }
      names = Set(self.paths.map { URL(fileURLWithPath: $0).lastPathComponent })
    #endif
  }

  deinit {
    #if os(Linux)
      if inotify >= 0 { close(inotify) }
    #endif
  }

  /// A descriptor to wait on with `poll` (nil when polling is the only way).
  public var descriptor: Int32? {
    #if os(Linux)
      return inotify >= 0 ? inotify : nil
    #else
      return nil
    #endif
  }

  /// Size and modification time: cheap, and enough to see a save.
  static func signature(_ path: String) -> String {
    var info = stat()
    guard stat(path, &info) == 0 else { return "missing" }
    #if os(Linux)
      let time = info.st_mtim
    #else
      let time = info.st_mtimespec
    #endif
    return "\(info.st_size):\(time.tv_sec):\(time.tv_nsec):\(info.st_ino)"
  }

  /// Reads pending notifications and returns true once a change has been
  /// quiet for `quietPeriod` (call it every loop iteration with the time).
  public func changed(now: Double) -> Bool {
    if sawActivity() {
      dueAt = now + quietPeriod
    }
    guard let due = dueAt, now >= due else { return false }
    dueAt = nil
    var differs = false
    for path in paths {
      let signature = Self.signature(path)
      if signature != signatures[path] {
        signatures[path] = signature
        differs = true
      }
    }
    return differs
  }

  private func sawActivity() -> Bool {
    #if os(Linux)
      if inotify >= 0 {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var seen = false
        while true {
          let n = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
          guard n > 0 else { break }
          var offset = 0
          while offset < n {
            let (length, name) = buffer.withUnsafeBytes { raw -> (Int, String) in
              let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
              let nameStart = offset + MemoryLayout<inotify_event>.size
              let bytes = raw[nameStart..<(nameStart + Int(event.len))].prefix { $0 != 0 }
              return (
                MemoryLayout<inotify_event>.size + Int(event.len),
                String(decoding: bytes, as: UTF8.self)
              )
            }
            if names.contains(name) { seen = true }
            offset += length
          }
        }
        return seen
      }
    #endif
    // Polling: a changed signature is activity.
    return paths.contains { Self.signature($0) != signatures[$0] }
  }
}
