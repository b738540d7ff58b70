import Foundation
import Testing

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
