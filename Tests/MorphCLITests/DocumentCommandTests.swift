import Foundation
import Testing

/// One document loader: a file's top level runs once under every command,
/// whatever it returns (a component or a scene).
@Suite struct DocumentCommandTests {
  static let scene = """
    print("top level ran")
    return {
      name = "Printing", size = { 100, 50 },
      body = function(p) return morph.rect():fill("#336699"):frame(100 * p + 1, 50) end,
    }
    """

  @Test func aSceneFilesTopLevelRunsOnceUnderRenderAndExport() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("once-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("scene.lua")
    try Self.scene.write(to: file, atomically: true, encoding: .utf8)
    let runs: [[String]] = [
      ["render", file.path, "--progress", "0.5", "--format", "json"],
      ["export", file.path, "--frames", "4", "-o", dir.appendingPathComponent("s.apng").path],
    ]
    for arguments in runs {
      let result = try Subprocess.run(arguments)
      #expect(result.status == 0, "\(arguments[0]): \(result.err)")
      let printed = result.err.components(separatedBy: "top level ran").count - 1
      #expect(printed == 1, "\(arguments[0]) ran the top level \(printed) times")
    }
  }
}
