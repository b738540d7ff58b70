import Foundation
import MorphCore
import MorphHost
import MorphScript
import Testing

@testable import MorphSession

/// The one vocabulary of inputs and controls, the take as an input script, a running
/// curve's name and the code frame of an error.
@Suite struct SessionVocabularyTests {
  @Test func everyInputKindMakesItsEventAndBack() {
    for kind in SessionInput.Kind.allCases {
      let input = SessionInput(kind: kind, point: Point(3, 4), value: 0.5)
      #expect(input?.kind == kind, "\(kind)")
      if kind.takesPoint, kind != .tap {
        #expect(SessionInput(kind: kind, point: nil) == nil, "\(kind) needs a point")
      }
    }
    #expect(SessionInput(kind: .progress, point: nil) == nil, "progress needs a value")
    #expect(SessionInput(kind: .tap, point: nil) == .tap(nil))
  }

  @Test func everyCommandNamesItselfAndSaysWhetherItTakesAValue() {
    for name in SessionCommand.Name.allCases {
      let command = SessionCommand(name: name, value: 1)
      #expect(command?.name == name, "\(name)")
      if name.takesValue, name != .reduceMotion {
        #expect(SessionCommand(name: name, value: nil) == nil, "\(name) needs a value")
      } else {
        #expect(SessionCommand(name: name, value: nil) != nil, "\(name) takes none")
      }
    }
  }

  @Test func commandsDriveTheSessionAndRangesComeFromTheirOwners() throws {
    let space = try Workspace()
    let session = PluginSession(path: space.path, clock: space.time.clock)
    defer { session.close() }
    session.startRecording()
    #expect(session.range(of: .speed) == PluginSession.speeds)
    #expect(session.range(of: .progress) == session.document?.progressRange)
    #expect(session.range(of: .play) == nil)
    try session.apply(.pause)
    #expect(session.isPaused)
    try session.apply(.speed(0.5))
    #expect(session.speed == 0.5)
    #expect(throws: SessionError.self) { try session.apply(.speed(9)) }
    try session.apply(SessionCommand.progress(0.25))
    #expect(session.progress == 0.25)
    try session.apply(.reduceMotion(true))
    #expect(session.reduceMotion)
    try session.apply(.play)
    #expect(!session.isPaused)
    session.apply(.tap(nil))
    #expect(session.take.last?.kind == SessionInput.Kind.tap.rawValue)
  }

  @Test func theTakeBecomesAnInputScript() throws {
    let space = try Workspace()
    let session = PluginSession(path: space.path, clock: .virtual)
    defer { session.close() }
    session.startRecording()
    #expect(session.takeScript == nil, "nothing played: no script")
    session.apply(.down(Point(10, 10)))
    session.advance(by: 0.1)
    session.apply(.up(Point(11, 10)))
    session.advance(by: 0.5)
    session.apply(.down(Point(10, 10)))
    session.apply(.move(Point(40, 10)))
    session.advance(by: 0.2)
    session.apply(.up(Point(80, 10)))
    let script = try #require(session.takeScript)
    #expect(script.events.count == 2)
    #expect(script.events[0].action == .tap(Point(10, 10)))
    #expect(abs(script.events[0].time) < 1e-9)
    guard case .drag(let from, let to, let duration) = script.events[1].action else {
      Issue.record("the second press is not a drag: \(script.events[1].action)")
      return
    }
    #expect(from == Point(10, 10) && to == Point(80, 10))
    #expect(abs(duration - 0.2) < 1e-9)
    #expect(session.timelineEnd >= script.duration)
  }

  @Test func runningCurvesAreNamedAsLuaWritesThem() {
    #expect(
      RunningAnimation.describe(
        kind: "timing", ["duration": 0.35, "x1": 0.42, "y1": 0, "x2": 0.58, "y2": 1])
        == "easeInOut(duration: 0.35)")
    #expect(
      RunningAnimation.describe(kind: "spring", ["duration": 0.5, "bounce": 0.3, "repeats": -1])
        == "spring(duration: 0.5, bounce: 0.3).repeatForever()")
    #expect(
      RunningAnimation.describe(
        kind: "timing", ["duration": 1, "x1": 0.2, "y1": 1, "x2": 0.3, "y2": 1])
        == "timing(0.2, 1, 0.3, 1, duration: 1)")
  }

  @Test func aDiagnosticCarriesTheLinesAroundItsOwn() throws {
    let space = try Workspace()
    try space.write(plugin: Workspace.plugin.replacingOccurrences(of: "WIDTH", with: "nil"))
    let session = PluginSession(path: space.path, clock: .virtual)
    defer { session.close() }
    _ = session.frame()
    let error = try #require(session.error)
    let context = try #require(error.context)
    let line = try #require(error.location?.line)
    #expect(context.first == line - SessionDiagnostic.contextRadius)
    #expect(context.lines[line - context.first] == error.source)
    let json = try JSONEncoder().encode(error)
    let back = try JSONDecoder().decode(SessionDiagnostic.self, from: json)
    #expect(back == error)
  }

  @Test func theHostPostsFramesOfItsSessionToTheStream() throws {
    let space = try Workspace()
    let host = SessionHost(path: space.path, clock: .virtual, frameBytes: 32 << 20)
    defer { host.close() }
    host.perform { host.subscribe(scale: 1) }
    host.perform { host.session.apply(.tap(nil)) }
    var seen = 0
    var pictured = false
    let end = Date().addingTimeInterval(60)
    while !pictured, Date() < end {
      guard case .some(.some(let posted)) = host.board.next(after: seen, timeout: 1) else {
        continue
      }
      seen = posted.sequence
      pictured = posted.images[1] != nil && posted.status.name == "Grower"
    }
    #expect(pictured, "no frame with a picture at scale 1 within 60 s")
    #expect(host.frameCounts.drawn >= 1)
    var frames = 0
    host.perform { host.session.play(every: 0.1, maxFrames: 50) { _ in frames += 1 } }
    // The tap's 0.5 s animation: six moments, 0 to 0.5 s.
    #expect((5...7).contains(frames), "\(frames)")
  }
}
