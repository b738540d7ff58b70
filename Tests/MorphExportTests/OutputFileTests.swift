import Foundation
import MorphExport
import Testing

/// A file is replaced only when every byte of the new one was written.
@Suite struct OutputFileTests {
  @Test func anAbandonedWriteLeavesNothing() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("kept.txt").path
    try OutputFile.write(Array("old".utf8), to: target)
    let file = try OutputFile(target)
    try file.write(Array("half of the new".utf8))
    file.abandon()
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["kept.txt"])
  }
}
