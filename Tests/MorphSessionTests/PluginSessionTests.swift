import Foundation
import MorphCore
import MorphHost
import MorphRender
import MorphScript
import Testing

@testable import MorphSession

/// A wall clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
  private let lock = NSLock()
  private var seconds = 1000.0

  var now: Double { lock.withLock { seconds } }
  func move(by dt: Double) { lock.withLock { seconds += dt } }
  var clock: SessionClock { .wall { [self] in self.now } }
}

/// A plugin in a scratch folder, with an imported module, run by a session on a manual clock.
final class Workspace {
  let dir: URL
  let time = ManualClock()
  var path: String { dir.appendingPathComponent("plugin.lua").path }
  var module: String { dir.appendingPathComponent("parts/look.lua").path }

  /// `body` is on line 8: the broken-save test points at it.
  static let plugin = """
    local m = morph
    local look = m.import("parts/look")
    return m.component {
      name = "Grower",
      size = { 100, 60 },
      state = { p = 0 },
      progress = "p",
      body = function(self) return m.rect():fill(look.color):frame(100 + WIDTH * self.p, 60):id("box") end,
      tap = function(self) self:animate(m.linear(0.5), { p = 1 }) end,
    }
    """

  init() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID())")
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("parts"), withIntermediateDirectories: true)
    try write(module: "return { color = m.color('#FF0000') }")
    try write(width: 100)
  }

  deinit { try? FileManager.default.removeItem(at: dir) }

  func write(width: Int) throws {
    try write(plugin: Self.plugin.replacingOccurrences(of: "WIDTH", with: "\(width)"))
  }

  func write(plugin text: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  func write(module text: String, name: String = "look") throws {
    try ("local m = morph\n" + text).write(
      toFile: dir.appendingPathComponent("parts/\(name).lua").path, atomically: true,
      encoding: .utf8)
  }

  func session() -> PluginSession {
    PluginSession(path: path, clock: time.clock)
  }

  /// Moves the clock past the watcher's quiet period until the session sees
  /// the save (file notifications arrive when the system sends them: at most 60 s).
  func awaitReload(_ session: PluginSession, sourceLocation: SourceLocation = #_sourceLocation) {
    let end = Date().addingTimeInterval(60)
    while Date() < end {
      time.move(by: 0.05)
      if session.checkFiles() { return }
      Thread.sleep(forTimeInterval: 0.01)
    }
    Issue.record("the session never saw the save", sourceLocation: sourceLocation)
  }
}

func width(_ session: PluginSession) throws -> Double {
  let frame = try #require(session.frame())
  return try #require(frame.list.items.first { $0.id == "box" }).frame.width
}

func dump(_ session: PluginSession) throws -> String {
  let frame = try #require(session.frame())
  return SceneJSON.encode(frame.list, summary: frame.summary)
}

@Suite(.serialized) struct PluginSessionTests {
  @Test func aSaveReloadsKeepingTheState() throws {
    let w = try Workspace()
    let session = w.session()
    #expect(session.error == nil)
    session.tap()
    session.advance(by: 1)
    #expect(session.host?.component.progress == 1)
    #expect(try width(session) == 200)
    try w.write(width: 50)
    w.awaitReload(session)
    #expect(session.error == nil)
    #expect(session.host?.component.progress == 1, "the state survives the save")
    #expect(try width(session) == 150, "the new code draws")
  }

  @Test func aBrokenSaveKeepsTheLastGoodVersionAndSaysWhere() throws {
    let w = try Workspace()
    let session = w.session()
    try w.write(plugin: Workspace.plugin.replacingOccurrences(of: "WIDTH", with: "nil"))
    w.awaitReload(session)
    let error = try #require(session.error)
    #expect(error.location == FilePosition(file: w.path, line: 8))
    #expect(error.locatedMessage.hasPrefix("\(w.path):8: "), "\(error.locatedMessage)")
    #expect(error.source?.contains("100 + nil * self.p") == true)
    #expect(error.traceback?.contains("stack traceback") == true)
    #expect(error.detail.hasPrefix(error.locatedMessage + "\n    "))
    #expect(try width(session) == 100, "the last good version still draws")

    try w.write(width: 10)
    w.awaitReload(session)
    #expect(session.error == nil, "the fix clears the error")
    session.seek(progress: 1)
    #expect(try width(session) == 110)
  }

  @Test func aChangedImportReloadsAndANewImportIsWatched() throws {
    let w = try Workspace()
    let session = w.session()
    #expect(session.watchedFiles == [w.path, w.module])
    let first = session.watcher
    let red = try dump(session)
    try w.write(module: "return { color = m.color('#00FF00') }")
    w.awaitReload(session)
    #expect(session.error == nil)
    #expect(try dump(session) != red, "the new colour draws")
    #expect(session.watcher === first, "the same files: the same watcher")

    // The plugin now imports a second module: the session watches it too.
    try w.write(module: "return { extra = 30 }", name: "extra")
    try w.write(
      plugin: "local _ = morph.import('parts/extra')\n"
        + Workspace.plugin.replacingOccurrences(of: "WIDTH", with: "100"))
    w.awaitReload(session)
    #expect(session.error == nil)
    let extra = w.dir.appendingPathComponent("parts/extra.lua").path
    #expect(session.watchedFiles == [w.path, extra, w.module])
    #expect(session.watcher !== first, "a new watcher for the new set of files")
    try w.write(module: "return { extra = ", name: "extra")
    w.awaitReload(session)
    #expect(session.error?.location?.file == extra, "a save of the new import reloads too")
  }

  @Test func aPluginThatDoesNotLoadWaitsForTheSaveThatFixesIt() throws {
    let w = try Workspace()
    try w.write(plugin: "return morph.component {")
    let session = w.session()
    #expect(session.host == nil)
    #expect(session.error?.location?.file == w.path)
    #expect(session.watchedFiles == [w.path])
    try w.write(width: 100)
    w.awaitReload(session)
    #expect(session.host != nil)
    #expect(session.error == nil)
    #expect(session.watchedFiles == [w.path, w.module], "the imports are watched once it loads")
  }

  @Test func theWallClockPlaysPausesAndChangesSpeed() throws {
    let w = try Workspace()
    let session = w.session()
    let host = try #require(session.host)
    session.tap()
    w.time.move(by: 0.05)
    session.catchUp()
    #expect(abs(host.time - 0.05) < 1e-9)

    session.pause()
    w.time.move(by: 0.05)
    session.catchUp()
    #expect(abs(host.time - 0.05) < 1e-9, "a paused clock stands still")

    session.resume()
    try session.setSpeed(2)
    w.time.move(by: 0.05)
    session.catchUp()
    #expect(abs(host.time - 0.15) < 1e-9, "twice as fast")

    w.time.move(by: 30)
    session.catchUp()
    #expect(abs(host.time - 0.35) < 1e-9, "a stall plays at most maxStep")
    #expect(throws: SessionError.speedOutOfRange(5)) { try session.setSpeed(5) }
    #expect(session.speed == 2)
  }

  @Test func seekingAndSteppingPauseTheClock() throws {
    let w = try Workspace()
    let session = w.session()
    let host = try #require(session.host)
    session.seek(progress: 0.25)
    #expect(session.isPaused)
    #expect(host.component.progress == 0.25)
    #expect(try width(session) == 125)
    session.scrub(by: 0.5)
    #expect(host.component.progress == 0.75)

    session.resume()
    let before = host.time
    session.step()
    #expect(session.isPaused)
    #expect(abs(host.time - before - SessionClock.frameInterval) < 1e-9)
  }

  @Test func aVirtualClockMovesOnlyWhenTold() throws {
    let w = try Workspace()
    let session = PluginSession(path: w.path, clock: .virtual)
    let host = try #require(session.host)
    session.tap()
    session.catchUp()
    #expect(host.time == 0)
    session.advance(by: 0.25)
    #expect(host.time == 0.25)
    #expect(host.component.progress.map { abs($0 - 0.5) < 1e-9 } == true)
  }

  @Test func aHandlerErrorIsADiagnosticAndTheStateStays() throws {
    let w = try Workspace()
    try w.write(
      plugin: Workspace.plugin.replacingOccurrences(of: "WIDTH", with: "100")
        .replacingOccurrences(
          of: "tap = function(self) ", with: "tap = function(self) error('no') "))
    let session = w.session()
    session.tap()
    #expect(session.error?.locatedMessage == "\(w.path):9: no")
    #expect(session.host?.component.progress == 0)
    #expect(try width(session) == 100)
  }

  @Test func newPropsKeepTheNumericStateOrTheOldInstance() throws {
    let w = try Workspace()
    try w.write(
      plugin: Workspace.plugin.replacingOccurrences(of: "WIDTH", with: "self.grow")
        .replacingOccurrences(of: "state = {", with: "props = { grow = 100 },\n  state = {"))
    let session = w.session()
    session.seek(progress: 0.5)
    #expect(session.setProps([("grow", "20")]))
    #expect(session.host?.component.progress == 0.5)
    #expect(try width(session) == 110)
    #expect(!session.setProps([("grow", "'wide'")]), "arithmetic on a string fails")
    #expect(session.error != nil)
    #expect(try width(session) == 110, "the old instance keeps running")
    #expect(session.options.props.map(\.value) == ["20"])
  }

  @Test func aDiagnosticEncodesWhatThePageShows() throws {
    let w = try Workspace()
    try w.write(plugin: "return morph.component {")
    let session = w.session()
    let error = try #require(session.error)
    let json = try JSONEncoder().encode(error)
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    #expect(object["line"] as? String == error.locatedMessage)
    #expect(object["file"] as? String == w.path)
    #expect(try JSONDecoder().decode(SessionDiagnostic.self, from: json) == error)
  }
}

/// An input script plays through a session as it does on a bare `ComponentHost`.
@Suite struct SessionInputScriptTests {
  @Test func aScriptPlaysTheSameThroughTheSession() throws {
    let text = "0.0 drag 150,200 -> 330,200 over 0.6\n0.9 tap\n1.0 key r\n"
    let script = try InputScript.parse(text, file: "script.txt")
    let deckFan = try #require(BundledPlugins.all.first { $0.name == "deck_fan" }).path
    let bare = ComponentHost(component: try ComponentInstance(path: deckFan))
    var player = ScriptPlayer(script)
    let session = PluginSession(path: deckFan, clock: .virtual)
    let host = try #require(session.host)
    var keys: [String] = []
    session.onKey = { keys.append($0) }
    session.play(script)
    #expect(session.isAnimating)
    var bareKeys: [String] = []
    for step in 1...30 {
      let time = Double(step) * 0.05
      try player.play(until: time, on: bare) { bareKeys.append($0) }
      session.advance(to: time)
      #expect(abs(host.time - bare.time) < 1e-9)
      #expect(host.component.progress == bare.component.progress, "at \(host.time) s")
      let ours = try #require(session.frame())
      let theirs = try bare.frame()
      #expect(
        SceneJSON.encode(ours.list, summary: ours.summary)
          == SceneJSON.encode(theirs.list, summary: theirs.summary))
    }
    #expect(session.error == nil)
    #expect(keys == ["r"] && bareKeys == ["r"])
    #expect(session.watchedFiles.isEmpty, "a bundled plugin has no file to watch")
  }
}

/// A scene file: no clock or input, but reloaded on a save and drawn at a progress.
@Suite struct SessionSceneTests {
  static let scene = """
    return {
      name = "Bar",
      size = { 100, 40 },
      body = function(p) return morph.rect():frame(100 * p + WIDTH, 40):id("bar") end,
    }
    """

  @Test func aSceneReloadsAndSeeks() throws {
    let w = try Workspace()
    try w.write(plugin: Self.scene.replacingOccurrences(of: "WIDTH", with: "0"))
    let session = w.session()
    #expect(session.error == nil)
    #expect(session.host == nil, "a scene has no component")
    #expect(session.name == "Bar")
    #expect(session.watchedFiles == [w.path])
    session.seek(progress: 0.5)
    #expect(session.progress == 0.5)
    #expect(try #require(session.frame()).list.items.first { $0.id == "bar" }?.frame.width == 50)
    try w.write(plugin: Self.scene.replacingOccurrences(of: "WIDTH", with: "10"))
    w.awaitReload(session)
    #expect(session.error == nil)
    #expect(try #require(session.frame()).list.items.first { $0.id == "bar" }?.frame.width == 60)
  }
}
