import Foundation
import MorphCore
import MorphHost
import MorphScript
import Testing

@testable import MorphSession

/// The flip card, bundled: it turns over on a tap.
private let flip = BundledPlugins.all.first { $0.name == "flip" }!.path

/// A session on a virtual clock that records from the start.
private func recording(_ path: String = flip) -> PluginSession {
  let session = PluginSession(path: path, clock: .virtual)
  session.startRecording()
  return session
}

@Suite struct SessionHistoryTests {
  @Test func samplesMatchAnIndependentEngineOnTheGrid() throws {
    let session = recording()
    session.advance(to: 0.2)
    let tapTime = try #require(session.host?.time)
    session.tap()
    session.advance(to: 1.5)
    let history = try #require(session.history)
    #expect(history.samples.count == 91, "one at load, then 60 a second")
    #expect(history.markers.map(\.kind) == ["tap"])
    #expect(history.markers.first?.time == tapTime)

    // The same tap at the same moment, played with no history in another session.
    let other = PluginSession(path: flip, clock: .virtual)
    other.advance(to: tapTime)
    other.tap()
    var moved = false
    for sample in history.samples where sample.time > tapTime {
      #expect(abs(sample.time - (sample.time * 60).rounded() / 60) < 1e-12, "on the grid")
      other.advance(to: sample.time)
      let engine = other.readings
      #expect(Set(engine.keys) == Set(sample.readings.keys))
      for (key, reading) in sample.readings {
        let truth = try #require(engine[key])
        #expect(abs(reading.value - truth.value) <= 1e-9, "\(key) at \(sample.time)")
        #expect(abs(reading.target - truth.target) <= 1e-9)
        #expect(abs(reading.velocity - truth.velocity) <= 1e-9)
        if reading.value != reading.target { moved = true }
      }
    }
    #expect(moved, "the tap animated something")
  }

  @Test func runningAnimationsSayTheirCurve() throws {
    let session = recording()
    session.tap()
    session.advance(by: 0.05)
    let running = session.animations
    #expect(!running.isEmpty)
    let engine = try #require(session.host?.component.engine)
    #expect(Set(running.map(\.key)) == Set(engine.animatingKeys))
    for animation in running {
      #expect((animation.parameters["duration"] ?? 0) > 0)
      switch animation.kind {
      case "spring": #expect(animation.parameters["bounce"] != nil)
      case "timing": #expect(animation.parameters["x1"] != nil && animation.parameters["y2"] != nil)
      default: Issue.record("flip plays springs and timing curves, not \(animation.kind)")
      }
      #expect(animation.end > animation.start)
    }
  }

  @Test func theHistoryIsBounded() throws {
    let session = recording()
    session.tap()
    for _ in 0..<70 { session.advance(by: 1) }
    let history = try #require(session.history)
    #expect(history.samples.count == SessionHistory.capacity)
    #expect(history.recorded == 70 * 60 + 1)
    let first = try #require(history.samples.first?.time)
    #expect(abs(first - 10 - 1.0 / 60) < 1e-9, "the oldest 10 s are gone")
    #expect(history.samples(after: history.recorded - 5).count == 5)
    #expect(history.samples(after: 0).count == SessionHistory.capacity)
  }

  @Test func aPluginWithManyKeysRecordsTheFirst() throws {
    let w = try Workspace()
    let state = (0..<40).map { String(format: "k%02d = %d", $0, $0) }.joined(separator: ", ")
    try w.write(
      plugin: """
        local m = morph
        return m.component {
          name = "Many", size = { 10, 10 }, state = { \(state) },
          body = function(self) return m.rect():frame(10 + self.k39, 10) end,
        }
        """)
    let session = w.session()
    session.startRecording()
    session.advance(by: 0.1)
    let history = try #require(session.history)
    #expect(session.error == nil)
    #expect(history.keys == (0..<SessionHistory.keyCapacity).map { String(format: "k%02d", $0) })
    #expect(history.samples.allSatisfy { $0.readings.count == SessionHistory.keyCapacity })
    #expect(history.samples.last?.readings["k31"]?.value == 31)
  }

  @Test func theMarkersAreBoundedAndReadFromWhereAReaderIs() throws {
    let session = recording()
    let moves = SessionHistory.markerCapacity + 10
    for i in 0..<moves {
      session.hover(at: Point(Double(i % 300), 100))
      session.advance(by: 0.001)
    }
    let history = try #require(session.history)
    #expect(history.marked == moves)
    #expect(history.markers.count <= SessionHistory.markerCapacity)
    #expect(session.take.count <= SessionHistory.markerCapacity)
    let newest = history.markers(after: moves - 3)
    #expect(newest.map(\.x) == history.markers.suffix(3).map(\.x))
    #expect(newest.last?.kind == "hover")
    #expect(history.markers(after: 0).count == history.markers.count)
  }

  @Test func aReplayPlaysTheSameGestureFromTheLoadState() throws {
    let session = recording()
    session.advance(to: 0.3)
    session.pointerDown(at: Point(200, 140))
    session.advance(by: 0.05)
    session.pointerUp(at: Point(200, 140))
    session.advance(to: 1.2)
    let first = try #require(session.history?.samples)
    let markers = try #require(session.history?.markers)
    #expect(markers.map(\.kind) == ["down", "up"])

    session.replay()
    #expect(session.host?.time == 0)
    #expect(session.history?.samples.count == 1, "a replay starts a new history")
    session.advance(to: 1.2)
    let again = try #require(session.history?.samples)
    #expect(again.count == first.count)
    for (a, b) in zip(first, again) {
      #expect(a.time == b.time)
      for (key, reading) in a.readings {
        #expect(abs((b.readings[key]?.value ?? .nan) - reading.value) <= 1e-9)
      }
    }
    #expect(session.history?.markers == markers, "the replayed events are the take again")
    #expect(session.take == markers)
  }

  @Test func rewindingReachesARecordedMomentAndPlaysOnFromIt() throws {
    let session = recording()
    session.advance(to: 0.1)
    session.tap()
    session.advance(to: 1)
    let history = try #require(session.history)
    let moment = history.samples[30]
    session.rewind(to: moment.time)
    #expect(session.isPaused)
    #expect(session.history?.recorded == history.recorded, "rewinding records nothing")
    for (key, reading) in moment.readings {
      #expect(abs((session.readings[key]?.value ?? .nan) - reading.value) <= 1e-9)
    }
    session.resume()
    session.advance(to: 1)
    let replayed = try #require(session.history?.samples)
    #expect(replayed.count == history.samples.count, "the rest of the take played again")
    #expect(session.history?.markers.map(\.kind) == ["tap"])
  }

  @Test func aReloadKeepsTheHistoryAndMarksIt() throws {
    let w = try Workspace()
    let session = w.session()
    session.startRecording()
    session.tap()
    w.time.move(by: 0.05)
    session.catchUp()
    try w.write(width: 50)
    w.awaitReload(session)
    let history = try #require(session.history)
    #expect(history.markers.map(\.kind) == ["tap", "reload"])
    #expect(history.samples.count > 1, "the samples before the reload stay")
  }

  /// Issue 37: a reader's count is any number a request carried. Past the
  /// capacity (items dropped) Int.min and its neighbours overflowed `count
  /// - dropped`; every count now gives a slice of what is kept.
  @Test func readersCountsOfAnySizeAreSafePastTheCapacity() throws {
    let session = recording()
    // More markers than are kept: the oldest quarter is dropped at the cap.
    for i in 0..<(SessionHistory.markerCapacity + 100) {
      session.hover(at: Point(Double(i % 100), 10))
    }
    // More samples than are kept: 70 s at 60 a second.
    session.advance(by: Double(SessionHistory.capacity) / 60 + 10)
    let history = try #require(session.history)
    #expect(history.recorded > SessionHistory.capacity)
    #expect(history.marked > history.markers.count)
    let counts = [
      Int.min, Int.min + 1, -9_223_372_036_854_775_807, -1, 0, 1,
      history.marked - history.markers.count, history.recorded - SessionHistory.capacity,
      history.marked, history.recorded, history.recorded + 1, Int.max - 1, Int.max,
    ]
    for count in counts {
      let samples = history.samples(after: count)
      let markers = history.markers(after: count)
      let newSamples = max(0, min(SessionHistory.capacity, history.recorded - max(count, 0)))
      #expect(samples.count == (count <= 0 ? SessionHistory.capacity : newSamples), "\(count)")
      let newMarkers = max(0, min(history.markers.count, history.marked - max(count, 0)))
      #expect(markers.count == (count <= 0 ? history.markers.count : newMarkers), "\(count)")
    }
    // The reader that has everything gets nothing; one behind gets the newest.
    #expect(history.samples(after: history.recorded - 1).map(\.time) == [history.lastTime!])
    #expect(history.markers(after: history.marked - 1) == history.markers.suffix(1))
  }
}
