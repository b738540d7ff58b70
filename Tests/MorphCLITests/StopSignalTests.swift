import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 37, item 6: SIGTERM (what `timeout` and CI cancellation send) and SIGINT stop an
/// export the same way: ffmpeg stopped, the hidden partial file removed, one line, 143 or
/// 130. A real `morphhost export` is started, signalled once its partial file exists,
/// and watched until it exits.
@Suite(.serialized) struct StopSignalTests {
  static let hasFFmpeg =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
    || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/ffmpeg")

  /// A generous bound for a loaded machine; the measured figure is printed.
  static let exitBound = 10.0

  static let cases: [(output: String, signal: Int32, extra: [String])] = [
    ("fan.apng", SIGTERM, []),
    ("fan.apng", SIGINT, []),
    ("fan.apng", SIGTERM, ["--optimize"]),
    ("fan.apng", SIGINT, ["--optimize"]),
    ("fan.gif", SIGTERM, []),
  ]

  static let videoCases: [(output: String, signal: Int32, extra: [String])] = [
    ("fan.mp4", SIGTERM, []), ("fan.webm", SIGINT, []),
  ]

  @Test(arguments: cases)
  func stopsAnExport(_ output: String, _ signal: Int32, _ extra: [String]) throws {
    try Self.stop(output, signal, extra, waitForFFmpeg: false)
  }

  @Test(.enabled(if: hasFFmpeg), arguments: videoCases)
  func stopsAVideoExportAndItsFFmpeg(_ output: String, _ signal: Int32, _ extra: [String])
    throws
  {
    try Self.stop(output, signal, extra, waitForFFmpeg: true)
  }

  static func stop(_ output: String, _ signal: Int32, _ extra: [String], waitForFFmpeg: Bool)
    throws
  {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stop-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let logs = FileManager.default.temporaryDirectory.appendingPathComponent("stoplog-\(UUID())")
    try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    defer {
      try? FileManager.default.removeItem(at: dir)
      try? FileManager.default.removeItem(at: logs)
    }
    let errPath = logs.appendingPathComponent("err").path
    // Far more frames than run before the signal comes.
    let arguments =
      [
        "export", "deck_fan", "-o", dir.appendingPathComponent(output).path, "--scale", "2",
        "--duration", "30", "--fps", "30",
      ] + extra
    let pid = try spawn(arguments, stderr: errPath)
    var status: Int32 = 0
    var exited = false
    defer {
      if !exited {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
      }
    }
    // Signalled once it is writing: its hidden partial file exists (and ffmpeg runs).
    var ffmpeg: pid_t?
    let started = Date()
    while Date().timeIntervalSince(started) < 120 {
      let partial =
        (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?
        .contains { $0.hasPrefix(".") } ?? false
      ffmpeg = children(of: pid).first
      if partial && (!waitForFFmpeg || ffmpeg != nil) { break }
      #expect(waitpid(pid, &status, WNOHANG) == 0, "the export ended before it was signalled")
      usleep(20_000)
    }
    // A few frames in, so a frame's compression is under way.
    usleep(500_000)
    let sent = Date()
    kill(pid, signal)
    while waitpid(pid, &status, WNOHANG) == 0 {
      if Date().timeIntervalSince(sent) > 60 { break }
      usleep(5_000)
    }
    let seconds = Date().timeIntervalSince(sent)
    exited = status & 0x7F == 0 && seconds <= 60
    print(
      "export \(output) \(extra.joined(separator: " ")) stopped by signal \(signal) in "
        + String(format: "%.2f s", seconds))
    #expect(seconds < exitBound, "took \(seconds) s to exit")
    #expect(status & 0x7F == 0, "died of signal \(status & 0x7F) instead of stopping")
    #expect((status >> 8) & 0xFF == 128 + signal)
    let err = String(
      decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
    let lines = err.split(separator: "\n").filter { !$0.hasPrefix("\r") && !$0.contains("frames ") }
    #expect(lines.count == 1 && err.contains("no output was written"), Comment(rawValue: err))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    if let ffmpeg { #expect(kill(ffmpeg, 0) != 0, "ffmpeg \(ffmpeg) still runs") }
    if waitForFFmpeg { #expect(ffmpeg != nil) }
  }

  /// The built morphhost with `arguments`, standard error to `stderr`.
  static func spawn(_ arguments: [String], stderr: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // A test runner may run its threads with signals blocked: the child starts with none.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGINT)
    sigaddset(&defaults, SIGTERM)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([Subprocess.binary] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, Subprocess.binary, &actions, &attributes, argv, environ)
    guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
    return pid
  }

  /// The processes whose parent is `pid` (from /proc; none elsewhere).
  static func children(of pid: pid_t) -> [pid_t] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
      return []
    }
    return entries.compactMap { entry -> pid_t? in
      guard let child = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 2 && pid_t(fields[1]) == pid ? child : nil
    }
  }
}
