import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a child process (the built `morphhost` unless told otherwise) with a
/// deadline, so a case that would hang or trap fails the test instead of the
/// test run. Its output goes to files in a scratch folder (no pipe to fill up,
/// nothing written beside the files a test looks at).
enum Subprocess {
  static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("morphhost").path
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// True when the suite runs under AddressSanitizer (`make test-sanitize` sets
  /// `ASAN_OPTIONS`): its quarantine keeps up to 256 MB of freed memory, so peak
  /// memory grows with the work done and ratios of peaks say nothing there.
  static let underAddressSanitizer = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil

  struct Result {
    var status: Int32
    /// The signal that ended the child (a trap is SIGILL or SIGTRAP), if any.
    var signal: Int32?
    var timedOut: Bool
    var out: String
    var err: String
    var seconds: Double
    /// The child's peak resident memory, in bytes.
    var peakMemory: Int
  }

  /// Runs `executable ARGUMENTS` in `directory` (default: the test's folder,
  /// so give paths absolute) with `environment` added to the test's, reading `stdin` (a
  /// path; `/dev/zero` is an endless input). Standard
  /// output goes to `stdout` when given (e.g. "/dev/full"), else it is captured.
  static func run(
    _ arguments: [String], executable: String = binary, in directory: URL? = nil,
    stdin: String = "/dev/null", stdout: String? = nil, environment: [String: String] = [:],
    deadline: Double = 60
  ) throws -> Result {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morph-sub-\(UUID())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outPath = stdout ?? scratch.appendingPathComponent("out").path
    let errPath = scratch.appendingPathComponent("err").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    closeInheritedDescriptors(&actions)
    if let directory { try changeDirectory(&actions, directory.path) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for entry in envp { free(entry) } }
    var pid: pid_t = 0
    let start = Date()
    try spawn(&pid, executable, &actions, argv, envp)
    var status: Int32 = 0
    var timedOut = false
    var usage = rusage()
    var polledPeak = 0
    while wait4(pid, &status, WNOHANG, &usage) == 0 {
      polledPeak = max(polledPeak, Self.highWaterMark(pid) ?? 0)
      if Date().timeIntervalSince(start) > deadline {
        kill(pid, SIGKILL)
        wait4(pid, &status, 0, &usage)
        timedOut = true
        Issue.record("\(executable) \(arguments) still ran after \(deadline) s")
        break
      }
      usleep(10_000)
    }
    #if canImport(Darwin)
      let peak = Int(usage.ru_maxrss)  // bytes on macOS
    #else
      // Linux's ru_maxrss of a spawned child starts from the spawning process's own peak
      // (the child ran on its memory until exec), so with a test runner past a few
      // hundred MB it says nothing about the child: the child's VmHWM, polled while it
      // runs, counts from its exec.
      let peak = polledPeak > 0 ? polledPeak : Int(usage.ru_maxrss) * 1024
    #endif
    let seconds = Date().timeIntervalSince(start)
    let signalled = status & 0x7F
    func text(_ path: String) -> String {
      String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
    return Result(
      status: signalled == 0 ? (status >> 8) & 0xFF : -1,
      signal: signalled == 0 ? nil : signalled, timedOut: timedOut,
      out: stdout == nil ? text(outPath) : "", err: text(errPath), seconds: seconds,
      peakMemory: peak)
  }

  /// The peak resident memory of a running process since its exec, in bytes (Linux's
  /// `/proc/PID/status` VmHWM); nil where there is none.
  static func highWaterMark(_ pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kib * 1024
  }

  /// Adds a chdir to the child's actions. glibc declares
  /// `posix_spawn_file_actions_addchdir_np` only under _GNU_SOURCE, which
  /// Swift's Glibc module is not built with, so it is looked up by name.
  private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String)
    throws
  {
    #if canImport(Darwin)
      let code = posix_spawn_file_actions_addchdir_np(&actions, path)
    #else
      typealias AddChdir =
        @convention(c) (
          UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32
      guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
        throw POSIXError(.ENOSYS)
      }
      let code = unsafeBitCast(symbol, to: AddChdir.self)(&actions, path)
    #endif
    guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL) }
  }

  /// Closes every descriptor above standard error in the child, whatever
  /// the test process has open without close-on-exec (glibc 2.34 and later;
  /// looked up by name like `addchdir_np`; elsewhere nothing is added).
  private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    #if !canImport(Darwin)
      typealias AddCloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
      if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
      }
    #endif
  }

  /// posix_spawn, tried again while the executable is "busy" (ETXTBSY): a
  /// binary a test just copied may still be open for writing in another
  /// test's child until that child's own exec.
  private static func spawn(
    _ pid: inout pid_t, _ executable: String, _ actions: inout posix_spawn_file_actions_t,
    _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?]
  ) throws {
    for _ in 0..<50 {
      let code = posix_spawn(&pid, executable, &actions, nil, argv, envp)
      if code == 0 { return }
      guard code == ETXTBSY else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ENOENT) }
      usleep(50_000)
    }
    throw POSIXError(.ETXTBSY)
  }
}

/// The `morphhost` executable SwiftPM built beside the test bundle.
let builtBinary = URL(fileURLWithPath: Subprocess.binary)

/// Copies an executable so that no other process can hold it open for
/// writing: the copy is written through a descriptor opened close-on-exec.
/// (Foundation's `copyItem` opens its destination without O_CLOEXEC, so a
/// child another test spawns meanwhile inherits the write descriptor for its
/// whole life, and running the copy fails with ETXTBSY: CI saw it.)
func copyExecutable(_ source: URL, to destination: URL) throws {
  let bytes = try Data(contentsOf: source)
  let fd = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
  guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  defer { close(fd) }
  try bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      offset += written
    }
  }
}
