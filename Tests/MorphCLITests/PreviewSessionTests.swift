import Foundation
import MorphCore
import MorphScript
import MorphSession
import Testing

@testable import MorphCLI

/// The preview's host in process, without a browser: what it pushes, when,
/// and what survives saves and prop changes.
@Suite(.serialized) struct PreviewSessionTests {
  static let flip = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "Plugins/flip.lua")

  /// A session on a scratch copy of flip.lua, streaming at scale 1.
  final class Fixture {
    let dir: URL
    let file: URL
    let original: String
    let session: PreviewSession
    var seen = 0

    init(plugin: URL = PreviewSessionTests.flip) throws {
      dir = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID())")
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
      file = dir.appendingPathComponent(plugin.lastPathComponent)
      original = try String(contentsOf: plugin, encoding: .utf8)
      try original.write(to: file, atomically: true, encoding: .utf8)
      session = PreviewSession(path: file.path, options: ComponentOptions())
      session.perform { [session] in session.subscribe(scale: 1) }
    }

    deinit {
      session.close()
      try? FileManager.default.removeItem(at: dir)
    }

    /// The next pushed frame that satisfies `condition` (60 s at most: a
    /// loaded machine is slow, and a frame that comes returns at once).
    func wait(
      for what: String, _ condition: (LiveFrameBoard.Posted) -> Bool
    ) -> LiveFrameBoard.Posted? {
      let end = Date().addingTimeInterval(60)
      while Date() < end {
        guard case .some(.some(let posted)) = session.board.next(after: seen, timeout: 1) else {
          continue
        }
        seen = posted.sequence
        if condition(posted) { return posted }
      }
      Issue.record("no frame \(what) within 60 s")
      return nil
    }

    /// Waits until nothing has been pushed for `quiet` seconds.
    func settle(quiet: Double = 1) {
      let end = Date().addingTimeInterval(30)
      while Date() < end {
        guard case .some(.some(let posted)) = session.board.next(after: seen, timeout: quiet)
        else { return }
        seen = posted.sequence
      }
      Issue.record("the preview kept pushing frames for 30 s")
    }

    func tapCentre() throws {
      try session.perform { [session] in
        try session.pointer("down", at: Point(214, 144))
        try session.pointer("up", at: Point(214, 144))
      }
    }

    func save(_ text: String) throws { try text.write(to: file, atomically: true, encoding: .utf8) }
  }

  /// Issue 27: the page's room for the frame reaches a body that reads
  /// `self.size`, and the status's canvas follows it; none gives the declared size back.
  @Test func thePagesSizeReachesABodyThatReadsIt() throws {
    let f = try Fixture(
      plugin: Self.flip.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/MorphCLITests/Fixtures/adaptive.lua"))
    let first = f.wait(for: "at all") { $0.images[1] != nil }
    #expect(first?.status.value == "offered 200x100")
    f.session.perform { [session = f.session] in session.resize(to: Size(320, 90)) }
    let resized = f.wait(for: "in the page's size") { $0.status.value == "offered 320x90" }
    #expect(resized?.status.canvas == [368, 138])
    #expect(resized?.images[1]?.raster.width == 368)
    f.session.perform { [session = f.session] in session.resize(to: nil) }
    let back = f.wait(for: "in the declared size again") { $0.status.value == "offered 200x100" }
    #expect(back?.status.canvas == [248, 148])
  }

  @Test func pushesOnlyWhatChanged() throws {
    let f = try Fixture()
    let first = f.wait(for: "at all") { $0.images[1] != nil }
    #expect(first?.status.value == "Showing front")
    f.settle()
    // Pausing changes the status: one frame. Pausing again changes nothing: none.
    try f.session.perform { [session = f.session] in try session.control("pause", nil) }
    #expect(f.wait(for: "after pausing") { !$0.status.playing } != nil)
    try f.session.perform { [session = f.session] in try session.control("pause", nil) }
    let quiet = f.session.board.next(after: f.seen, timeout: 0.5)
    #expect(quiet.map { $0 == nil } == true, "a request that changes nothing pushes nothing")
    try f.session.perform { [session = f.session] in try session.control("play", nil) }
    try f.tapCentre()
    #expect(f.wait(for: "showing the back") { $0.status.value == "Showing back" } != nil)
    f.settle()  // the flip ends, and so do the pushes
  }

  @Test func saveKeepsStateAndABrokenSaveKeepsTheLastGoodVersion() throws {
    let f = try Fixture()
    _ = f.wait(for: "at all") { $0.images[1] != nil }
    try f.tapCentre()
    _ = f.wait(for: "showing the back") { $0.status.value == "Showing back" }
    f.settle()
    try f.save(f.original.replacingOccurrences(of: "#2F6FED", with: "#FF0000"))
    let reloaded = f.wait(for: "after a good save") { $0.status.propsVersion > 1 }
    #expect(reloaded?.status.value == "Showing back", "the flip survives the save")
    #expect(reloaded?.status.error == nil)

    let marker = "local angle = 360 * self.turns"
    let line = f.original.components(separatedBy: marker)[0].split(
      separator: "\n", omittingEmptySubsequences: false
    ).count
    try f.save(f.original.replacingOccurrences(of: marker, with: marker + " + nil"))
    let broken = f.wait(for: "with an error") { $0.status.error != nil }
    #expect(broken?.status.error?.locatedMessage.contains("flip.lua:\(line):") == true)
    #expect(broken?.status.error?.source?.contains("+ nil") == true)
    #expect(broken?.status.error?.traceback?.contains("stack traceback") == true)
    #expect(broken?.status.value == "Showing back", "the last good version keeps running")

    try f.save(f.original)
    let fixed = f.wait(for: "after the fix") { $0.status.error == nil }
    #expect(fixed?.status.value == "Showing back")
  }

  @Test func aPropChangeKeepsNumericState() throws {
    let f = try Fixture()
    _ = f.wait(for: "at all") { $0.images[1] != nil }
    try f.tapCentre()
    _ = f.wait(for: "showing the back") { $0.status.value == "Showing back" }
    f.settle()
    let before = f.session.board.sequence
    try f.session.perform { [session = f.session] in try session.setProp("accent", "#FF0000") }
    let after = f.wait(for: "after the prop change") { $0.sequence > before }
    #expect(after?.status.value == "Showing back")
    #expect(after?.status.progress == 0.5)
    #expect(after?.status.error == nil)
    let propsJSON = try f.session.perform { [session = f.session] in try session.propsJSON() }
    #expect(String(decoding: propsJSON, as: UTF8.self).contains(##""accent":"#FF0000""##))

    // A bad value is refused and the running instance stays.
    #expect(throws: UsageError.self) {
      try f.session.perform { [session = f.session] in try session.setProp("duration", "slow") }
    }
    try f.session.perform { [session = f.session] in try session.setProp("accent", "#nothex") }
    let refused = f.wait(for: "with the refused prop") { $0.status.error != nil }
    #expect(refused?.status.error?.locatedMessage.contains("accent") == true)
    #expect(refused?.status.value == "Showing back")
  }
}
