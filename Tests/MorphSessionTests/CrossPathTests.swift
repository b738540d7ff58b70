import Foundation
import MorphCore
import MorphHost
import MorphScript
import Testing

@testable import MorphSession

/// Time is the only input to what is drawn (docs/motion.md): one component read at the
/// same moments along every path a moment can be reached by gives the same state and the
/// same geometry. The paths, each driving the real host the way its command does:
///
/// - `render --time T`: a fresh instance per moment, its input played straight to T;
/// - `export` at 30 and at 60 fps: one instance, a frame drawn at every 1/fps s;
/// - `test`, reading only the moments compared, and with many moments in between, each
///   drawing a frame (as `at(t) { test.snapshot … }` does);
/// - the preview: a session on a virtual clock, its input given as pointer events the
///   way the page sends them, played in uneven display steps, then scrubbed back
///   (`rewind`) to each moment.
@Suite struct CrossPathTests {
  /// One plugin with the input its examples play.
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var path: String
    var input: String
    var description: String { name }
  }

  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func example(_ plugin: String, _ input: String?) -> Case {
    let root = repository.appendingPathComponent("Examples")
    let text = input.flatMap {
      try? String(
        contentsOf: root.appendingPathComponent("inputs/\($0)"), encoding: .utf8)
    }
    return Case(
      name: plugin, path: root.appendingPathComponent("plugins/\(plugin).lua").path,
      input: text ?? "")
  }

  static let cases: [Case] =
    BundledPlugins.all.map { plugin in
      plugin.name == "card_stack"
        ? Case(
          name: plugin.name, path: plugin.path,
          input: example("card_stack", "flick.txt").input)
        : Case(name: plugin.name, path: plugin.path, input: "0 tap")
    } + [
      example("like_button", "like.txt"), example("progress_ring", "ring.txt"),
      example("segmented_control", "segments.txt"), example("spinner", nil),
      example("tab_bar", "tabs.txt"), example("toast", "toast.txt"),
      example("toggle_switch", "toggle.txt"),
      Case(
        name: "chain",
        path: repository.appendingPathComponent("Tests/MorphSessionTests/Fixtures/chain.lua").path,
        input: "1.2 tap"),
    ]

  /// The moments compared: every 0.1 s to 3 s, as the k-th tenth (on every path's grid).
  static let tenths = 0...30

  /// What a moment shows: every numeric state key's presented value, and every drawn
  /// item's corners through its transform, in paint order.
  struct Reading {
    var state: [String: Double]
    var items: [(identity: String, corners: [Point])]
  }

  static func read(_ host: ComponentHost) throws -> Reading {
    let frame = try host.frame()
    var state: [String: Double] = [:]
    for key in host.component.engine.channels.keys {
      state[key] = host.component.presented(key)
    }
    return Reading(state: state, items: frame.list.items.map { ($0.identity, $0.quad) })
  }

  static func host(_ c: Case) throws -> ComponentHost {
    ComponentHost(component: try ComponentInstance(path: c.path))
  }

  static func script(_ c: Case) throws -> InputScript {
    try InputScript.parse(c.input, file: c.name)
  }

  /// The largest difference between two readings, state and geometry apart; a key or an
  /// item one has and the other lacks is an infinite difference.
  static func difference(_ a: Reading, _ b: Reading) -> (state: Double, points: Double) {
    var state = 0.0
    for key in Set(a.state.keys).union(b.state.keys) {
      guard let x = a.state[key], let y = b.state[key] else { return (.infinity, .infinity) }
      state = max(state, abs(x - y))
    }
    guard a.items.count == b.items.count else { return (state, .infinity) }
    var points = 0.0
    for (p, q) in zip(a.items, b.items) {
      guard p.identity == q.identity else { return (state, .infinity) }
      for (u, v) in zip(p.corners, q.corners) { points = max(points, u.distance(to: v)) }
    }
    return (state, points)
  }

  // MARK: The paths

  /// `render --time`: a fresh instance for each moment.
  static func render(_ c: Case) throws -> [Reading] {
    try tenths.map { k in
      let host = try host(c)
      var player = ScriptPlayer(try script(c))
      try player.play(until: Double(3 * k) / 30, on: host)
      return try read(host)
    }
  }

  /// `export`'s time mode: one instance, a frame at every 1/fps s.
  static func export(_ c: Case, fps: Int) throws -> [Reading] {
    let host = try host(c)
    var player = ScriptPlayer(try script(c))
    var readings: [Reading] = []
    for i in 0...(3 * fps) {
      try player.play(until: Double(i) / Double(fps), on: host)
      let reading = try read(host)
      if i % (fps / 10) == 0 { readings.append(reading) }
    }
    return readings
  }

  /// `test`: one instance read at the compared moments only, or also at a moment every
  /// 0.013 s between them.
  static func test(_ c: Case, extraMoments: Bool) throws -> [Reading] {
    let host = try host(c)
    var player = ScriptPlayer(try script(c))
    return try tenths.map { k in
      let t = Double(3 * k) / 30
      if extraMoments {
        while host.time + 0.013 < t {
          try player.play(until: host.time + 0.013, on: host)
          _ = try read(host)
        }
      }
      try player.play(until: t, on: host)
      return try read(host)
    }
  }

  /// A pointer event the page sends (canvas points).
  enum Pointer {
    case down(Point)
    case move(Point)
    case up(Point)
  }

  /// The input as the page's pointer events, at the moments a scripted hand makes them
  /// (a press and its release a tick apart, a drag moving every tick).
  static func pointerEvents(_ script: InputScript, on host: ComponentHost)
    -> [(time: Double, event: Pointer)]
  {
    var events: [(Double, Pointer)] = []
    func press(_ p: Point?, at t: Double) {
      let point = p.map(host.canvasPoint) ?? host.center
      events += [(t, .down(point)), (t + host.tick, .up(point))]
    }
    for e in script.events {
      switch e.action {
      case .tap(let p): press(p, at: e.time)
      case .doubleTap(let p):
        press(p, at: e.time)
        press(p, at: e.time + InputScript.doubleTapGap)
      case .drag(let a, let b, let duration):
        let (from, to) = (host.canvasPoint(a), host.canvasPoint(b))
        let steps = max(1, Int((duration / host.tick).rounded()))
        events.append((e.time, .down(from)))
        for i in 1...steps {
          let f = Double(i) / Double(steps)
          events.append(
            (e.time + Double(i) * duration / Double(steps), .move(from + (to - from) * f)))
        }
        events.append((e.time + duration, .up(to)))
      default: Issue.record("no pointer form for \(e.action)")
      }
    }
    return events.sorted { $0.0 < $1.0 }
  }

  /// The preview: pointer events at their moments among uneven display steps, then a
  /// scrub back to each moment compared.
  static func preview(_ c: Case) throws -> [Reading] {
    let session = PluginSession(path: c.path, clock: .virtual, watchesFiles: false)
    session.startRecording()
    var events = pointerEvents(try script(c), on: try #require(session.host))
    let steps = [0.016, 0.017, 0.0167, 0.033, 0.008]
    var i = 0
    while let host = session.host, host.time < 3 {
      let next = min(3, host.time + steps[i % steps.count])
      i += 1
      while let (time, event) = events.first, time <= next {
        events.removeFirst()
        session.advance(to: time)
        switch event {
        case .down(let p): session.pointerDown(at: p)
        case .move(let p): session.pointerMoved(to: p)
        case .up(let p): session.pointerUp(at: p)
        }
      }
      session.advance(to: next)
      _ = session.frame()
    }
    #expect(session.error == nil, "\(String(describing: session.error))")
    return try tenths.reversed().map { k in
      session.rewind(to: Double(3 * k) / 30)
      return try read(try #require(session.host))
    }.reversed()
  }

  @Test(arguments: cases)
  func everyPathShowsTheSame(_ c: Case) throws {
    let reference = try Self.render(c)
    let paths: [(String, [Reading])] = [
      ("export 30 fps", try Self.export(c, fps: 30)),
      ("export 60 fps", try Self.export(c, fps: 60)),
      ("test", try Self.test(c, extraMoments: false)),
      ("test with extra moments", try Self.test(c, extraMoments: true)),
      ("preview scrub", try Self.preview(c)),
    ]
    var worst = (state: 0.0, points: 0.0)
    var worstAt = ""
    for (name, readings) in paths {
      try #require(readings.count == reference.count, "\(name)")
      for (k, (a, b)) in zip(Self.tenths, zip(reference, readings)) {
        let d = Self.difference(a, b)
        #expect(
          d.state < 1e-9, "\(c.name), \(name) at \(Double(k) / 10) s: state off by \(d.state)")
        if d.points > worst.points { worstAt = "\(name) at \(Double(k) / 10) s" }
        worst = (max(worst.state, d.state), max(worst.points, d.points))
      }
    }
    print(
      "cross-path \(c.name): largest state difference \(worst.state), geometry \(worst.points) pt"
        + (worstAt.isEmpty ? "" : " (\(worstAt))"))
    #expect(worst.points < 0.001, "\(c.name), \(worstAt): geometry off by \(worst.points) pt")
  }

  /// The chained component of issue 34: `y` starts the moment `clock` ends, so at 1.5 s
  /// it is halfway on every path.
  @Test func aChainedAnimationStartsAtTheEndOfTheOneBefore() throws {
    let c = Self.cases.last!
    for readings in [try Self.render(c), try Self.test(c, extraMoments: false)] {
      let y = try #require(readings[15].state["y"])
      #expect(abs(y - 0.5) < 1e-9, "y = \(y)")
    }
  }
}
