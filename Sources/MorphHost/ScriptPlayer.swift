import MorphCore
import MorphScript

/// Plays an input script on a host's virtual clock.
public struct ScriptPlayer {
  public let script: InputScript
  private var next = 0

  public init(_ script: InputScript) {
    self.script = script
  }

  public var isFinished: Bool { next >= script.events.count }

  /// Plays every event due by `time`, advancing the host's clock to each,
  /// then to `time`. `onKey` receives key events (the live view's keys).
  public mutating func play(
    until time: Double, on host: ComponentHost, onKey: (String) throws -> Void = { _ in }
  ) throws {
    while next < script.events.count, script.events[next].time <= time {
      let event = script.events[next]
      next += 1
      try host.advance(to: max(host.time, event.time))
      switch event.action {
      case .tap(let p): try host.tap(at: p.map(host.canvasPoint))
      case .drag(let a, let b, let d):
        try host.drag(from: host.canvasPoint(a), to: host.canvasPoint(b), over: d)
      case .key(let name): try onKey(name)
      case .progress(let p): try host.component.setProgress(p)
      }
    }
    try host.advance(to: max(host.time, time))
  }
}

extension ComponentHost {
  /// Component point → canvas point.
  public func canvasPoint(_ p: Point) -> Point { p + Point(margin, margin) }
}
