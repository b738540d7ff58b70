import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `morphhost` binary as a child process with a deadline, so a
/// case that would hang or trap fails the test instead of the test run.
enum Subprocess {
  static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("morphhost").path
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

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

  /// Runs `morphhost ARGUMENTS` (give paths absolute: the folder is the test's). Standard output goes
  /// to `stdout` when given (e.g. "/dev/full"), else it is captured.
  static func run(
    _ arguments: [String], stdout: String? = nil, environment: [String: String] = [:],
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
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for entry in envp { free(entry) } }
    var pid: pid_t = 0
    let start = Date()
    guard posix_spawn(&pid, binary, &actions, nil, argv, envp) == 0 else {
      throw POSIXError(.ENOENT)
    }
    var status: Int32 = 0
    var timedOut = false
    var usage = rusage()
    while wait4(pid, &status, WNOHANG, &usage) == 0 {
      if Date().timeIntervalSince(start) > deadline {
        kill(pid, SIGKILL)
        wait4(pid, &status, 0, &usage)
        timedOut = true
        break
      }
      usleep(10_000)
    }
    #if canImport(Darwin)
      let peak = Int(usage.ru_maxrss)  // bytes on macOS
    #else
      let peak = Int(usage.ru_maxrss) * 1024  // KiB on Linux
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
}

/// The `morphhost` executable SwiftPM built beside the test bundle.
let builtBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  .appendingPathComponent("morphhost")

/// What a finished child process left behind.
struct ProcessResult {
  var status: Int32
  var out: String
  var err: String
}

/// Runs `executable` in `directory` with its output in files (no pipe to
/// fill up), killing it after `deadline` seconds so a hang fails the test
/// instead of stalling the suite.
func runProcess(
  _ executable: URL, _ arguments: [String], in directory: URL,
  environment: [String: String] = ProcessInfo.processInfo.environment, deadline: Double = 60
) throws -> ProcessResult {
  let outFile = directory.appendingPathComponent(".out-\(UUID())")
  let errFile = directory.appendingPathComponent(".err-\(UUID())")
  FileManager.default.createFile(atPath: outFile.path, contents: nil)
  FileManager.default.createFile(atPath: errFile.path, contents: nil)
  defer {
    try? FileManager.default.removeItem(at: outFile)
    try? FileManager.default.removeItem(at: errFile)
  }
  // A copied binary can be briefly "busy" (ETXTBSY): another test's fork
  // may still hold the copy's write handle until its own exec. Try again.
  var attempt = 0
  var process: Process
  while true {
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outFile)
    process.standardError = try FileHandle(forWritingTo: errFile)
    do {
      try process.run()
      break
    } catch let error as NSError {
      let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
      attempt += 1
      guard underlying?.code == Int(ETXTBSY), attempt < 50 else { throw error }
      Thread.sleep(forTimeInterval: 0.05)
    }
  }
  let end = Date().addingTimeInterval(deadline)
  while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
  if process.isRunning {
    process.terminate()
    process.waitUntilExit()
    Issue.record("\(executable.lastPathComponent) \(arguments) still ran after \(deadline) s")
  }
  return ProcessResult(
    status: process.terminationStatus,
    out: try String(contentsOf: outFile, encoding: .utf8),
    err: try String(contentsOf: errFile, encoding: .utf8))
}
