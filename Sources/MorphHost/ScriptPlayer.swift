import MorphCore
import MorphScript

/// Plays an input script on a host's virtual clock, the way a hand would:
/// a tap is a press and a release one tick apart, and a drag presses, moves
/// the pointer every tick and releases with the velocity of its last motion,
/// so a frame in the middle of a drag shows the drag in progress.
public struct ScriptPlayer {
  public let script: InputScript
  private var next = 0
  /// The drag the pointer is making now.
  private var drag: Drag?
  /// Presses and releases still to come (taps, double taps, long presses), in time order.
  private var presses: [(time: Double, down: Bool, point: Point)] = []

  private struct Drag {
    var from: Point
    var to: Point
    var start: Double
    var steps: Int
    var stepDuration: Double
    var done = 0

    var nextTime: Double { start + Double(done + 1) * stepDuration }
    var nextPoint: Point { from + (to - from) * (Double(done + 1) / Double(steps)) }
  }

  public init(_ script: InputScript) {
    self.script = script
  }

  public var isFinished: Bool { next >= script.events.count && drag == nil && presses.isEmpty }

  /// Plays everything due by `time` in order (script events, drag steps,
  /// tap releases), advancing the host's clock to each, then to `time`.
  /// `onKey` receives key events (the live view's keys).
  public mutating func play(
    until time: Double, on host: ComponentHost, onKey: (String) throws -> Void = { _ in }
  ) throws {
    // Ticks are sums of 1/120 s: allow for their rounding.
    while let due = nextMoment(), due <= time + 1e-9 {
      try host.advance(to: max(host.time, due))
      if let press = presses.first, press.time == due {
        presses.removeFirst()
        if press.down {
          try host.pointerDown(at: press.point)
        } else {
          try host.pointerUp(at: press.point)
        }
      } else if var d = drag, d.nextTime == due {
        let point = d.nextPoint
        d.done += 1
        try host.pointerMoved(to: point)
        if d.done == d.steps {
          drag = nil
          try host.pointerUp(at: point)
        } else {
          drag = d
        }
      } else {
        let event = script.events[next]
        next += 1
        try start(event.action, on: host, onKey: onKey)
      }
    }
    try host.advance(to: max(host.time, time))
  }

  /// The earliest moment something is due, or nil when the script is done.
  private func nextMoment() -> Double? {
    let times = [
      presses.first?.time, drag?.nextTime,
      next < script.events.count ? script.events[next].time : nil,
    ]
    return times.compactMap { $0 }.min()
  }

  private mutating func start(
    _ action: InputScript.Action, on host: ComponentHost, onKey: (String) throws -> Void
  ) throws {
    switch action {
    case .tap(let p): press(p, on: host, at: [0], hold: host.tick)
    case .doubleTap(let p):
      press(p, on: host, at: [0, InputScript.doubleTapGap], hold: host.tick)
    case .longPress(let p): press(p, on: host, at: [0], hold: InputScript.longPressHold)
    case .hover(let p): try host.hover(at: host.canvasPoint(p))
    case .drag(let a, let b, let duration):
      let steps = max(1, Int(min(duration / host.tick, 1e7).rounded()))
      try host.pointerDown(at: host.canvasPoint(a))
      drag = Drag(
        from: host.canvasPoint(a), to: host.canvasPoint(b), start: host.time, steps: steps,
        stepDuration: duration / Double(steps))
    case .key(let name): try onKey(name)
    case .progress(let p): try host.component.setProgress(p)
    }
  }

  /// Queues a press at each offset from now, each released `hold` later.
  private mutating func press(
    _ p: Point?, on host: ComponentHost, at offsets: [Double], hold: Double
  ) {
    let point = p.map(host.canvasPoint) ?? host.center
    for offset in offsets {
      presses.append((host.time + offset, true, point))
      presses.append((host.time + offset + hold, false, point))
    }
    presses.sort { $0.time < $1.time }
  }
}

extension ComponentHost {
  /// Component point → canvas point.
  public func canvasPoint(_ p: Point) -> Point { p + Point(margin, margin) }
}
