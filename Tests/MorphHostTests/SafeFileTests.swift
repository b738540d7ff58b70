import Foundation
import MorphCore
import Testing

@testable import MorphHost

/// `SafeFile`, the one safe writer: a temporary file renamed into place, never through a
/// link, and (when asked) never outside the folder given.
@Suite struct SafeFileTests {
  static func folder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("safe-\(UUID())").path
    try FileManager.default.createDirectory(atPath: path + "/in", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: path + "/out", withIntermediateDirectories: true)
    try "precious".write(toFile: path + "/out/user.txt", atomically: true, encoding: .utf8)
    return path
  }

  @Test func aLinkIsReplacedNotWrittenThrough() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createSymbolicLink(
      atPath: dir + "/in/a.txt", withDestinationPath: dir + "/out/user.txt")
    try SafeFile.write(Array("new".utf8), to: dir + "/in/a.txt")
    #expect(try String(contentsOfFile: dir + "/out/user.txt", encoding: .utf8) == "precious")
    #expect(try String(contentsOfFile: dir + "/in/a.txt", encoding: .utf8) == "new")
    // Asked to, it refuses the link instead.
    try FileManager.default.createSymbolicLink(
      atPath: dir + "/in/b.txt", withDestinationPath: dir + "/out/none.txt")
    #expect(
      throws: FileWriteError(
        path: dir + "/in/b.txt", reason: "is a symbolic link; refusing to replace it")
    ) {
      try SafeFile.write(Array("new".utf8), to: dir + "/in/b.txt", refusingLinks: true)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/out") == ["user.txt"])
  }

  @Test func withinKeepsTheFileInsideTheFolderGiven() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createSymbolicLink(
      atPath: dir + "/in/away", withDestinationPath: dir + "/out")
    #expect(throws: FileWriteError.self) {
      try SafeFile.write(Array("x".utf8), to: dir + "/in/away/x.txt", within: dir + "/in")
    }
    #expect(throws: FileWriteError.self) {
      try SafeFile.write(Array("x".utf8), to: dir + "/in/../out/x.txt", within: dir + "/in")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/out") == ["user.txt"])
    try SafeFile.write(Array("x".utf8), to: dir + "/in/x.txt", within: dir + "/in")
    #expect(FileManager.default.fileExists(atPath: dir + "/in/x.txt"))
  }

  @Test func aFileWhereTheFolderShouldBeIsOneLine() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(
      throws: FileWriteError(
        path: dir + "/out/user.txt/x", reason: "\(dir)/out/user.txt is not a folder")
    ) { try SafeFile.write(Array("x".utf8), to: dir + "/out/user.txt/x") }
    #expect(throws: FileWriteError.self) { try SafeFile.write(Array("x".utf8), to: dir + "/out") }
  }

  @Test func anAbandonedFileLeavesNothing() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let file = try SafeFile(dir + "/in/a.txt")
    try file.write(Array("half".utf8))
    #expect(FileManager.default.fileExists(atPath: file.temporaryPath))
    file.abandon()
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/in") == [])
  }
}
