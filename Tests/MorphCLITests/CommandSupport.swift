import Foundation

@testable import MorphCLI

/// Runs a command in-process, as the shell would.
func runCommand(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
  let output = CapturedOutput()
  let status = MorphhostCommand.run(arguments, output: output)
  return (status, output.out.joined(separator: "\n"), output.err.joined(separator: "\n"))
}

/// A fresh folder whose path is over 200 bytes, as deep as users keep projects.
func deepScratchFolder() throws -> URL {
  var url = FileManager.default.temporaryDirectory.appendingPathComponent("deep-\(UUID())")
  while url.path.utf8.count < 200 { url.appendPathComponent("a-folder-name-as-users-have") }
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
