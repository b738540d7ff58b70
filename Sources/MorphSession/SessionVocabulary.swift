import MorphCore
import MorphHost
import MorphScript

/// One input event a front end hands a session: the one place the input kinds are
/// spelled. The preview's page reads `Kind.allCases` from the server; the history's
/// markers and a replay use the same names.
public enum SessionInput: Equatable, Sendable {
  case down(Point)
  case move(Point)
  case up(Point)
  case hover(Point)
  case leave
  /// A whole tap (at the centre when nil).
  case tap(Point?)
  /// The progress set from outside (controlled mode).
  case progress(Double)

  public enum Kind: String, CaseIterable, Codable, Sendable {
    case down, move, up, hover, leave, tap, progress

    /// Whether the event happens at a point (a tap's is optional).
    public var takesPoint: Bool {
      switch self {
      case .down, .move, .up, .hover, .tap: true
      case .leave, .progress: false
      }
    }

    /// The kinds a pointer over the picture sends.
    public static let pointer: [Kind] = [.down, .move, .up, .hover, .leave]
  }

  public var kind: Kind {
    switch self {
    case .down: .down
    case .move: .move
    case .up: .up
    case .hover: .hover
    case .leave: .leave
    case .tap: .tap
    case .progress: .progress
    }
  }

  /// The event a kind names, with its point or value; nil when one it needs is missing.
  public init?(kind: Kind, point: Point?, value: Double? = nil) {
    switch (kind, point, value) {
    case (.down, let point?, _): self = .down(point)
    case (.move, let point?, _): self = .move(point)
    case (.up, let point?, _): self = .up(point)
    case (.hover, let point?, _): self = .hover(point)
    case (.leave, _, _): self = .leave
    case (.tap, _, _): self = .tap(point)
    case (.progress, _, let value?): self = .progress(value)
    default: return nil
    }
  }

  public var point: Point? {
    switch self {
    case .down(let p), .move(let p), .up(let p), .hover(let p): p
    case .tap(let p): p
    case .leave, .progress: nil
    }
  }
}

/// One control of a session's playback: the one place the controls are spelled,
/// with the range each value takes (`PluginSession.range(of:)`). Front ends (the
/// preview's page, the live view's keys) name these, and the session replays them
/// through one exhaustive switch.
public enum SessionCommand: Equatable, Sendable {
  case play
  case pause
  /// Pauses and plays one display frame.
  case step
  case speed(Double)
  /// Pauses at a progress (scrubbing).
  case progress(Double)
  case reduceMotion(Bool)
  /// Starts again and plays the take's input.
  case replay
  /// Pauses at a moment of the take, in seconds.
  case rewind(Double)

  public enum Name: String, CaseIterable, Codable, Sendable {
    case play, pause, step, speed, progress, reduceMotion, replay, rewind

    /// Whether the command carries a number (`reduceMotion`'s is 0 or 1, and optional).
    public var takesValue: Bool {
      switch self {
      case .speed, .progress, .reduceMotion, .rewind: true
      case .play, .pause, .step, .replay: false
      }
    }
  }

  public var name: Name {
    switch self {
    case .play: .play
    case .pause: .pause
    case .step: .step
    case .speed: .speed
    case .progress: .progress
    case .reduceMotion: .reduceMotion
    case .replay: .replay
    case .rewind: .rewind
    }
  }

  /// The command a name means with its value (already checked against
  /// `PluginSession.range(of:)`); nil when a value it needs is missing.
  public init?(name: Name, value: Double?) {
    switch (name, value) {
    case (.play, _): self = .play
    case (.pause, _): self = .pause
    case (.step, _): self = .step
    case (.replay, _): self = .replay
    case (.speed, let value?): self = .speed(value)
    case (.progress, let value?): self = .progress(value)
    case (.rewind, let value?): self = .rewind(value)
    case (.reduceMotion, _): self = .reduceMotion((value ?? 0) != 0)
    default: return nil
    }
  }
}

extension PluginSession {
  /// Runs one input event (a handler's failure becomes `error`).
  public func apply(_ input: SessionInput) {
    switch input {
    case .down(let point): pointerDown(at: point)
    case .move(let point): pointerMoved(to: point)
    case .up(let point): pointerUp(at: point)
    case .hover(let point): hover(at: point)
    case .leave: endHover()
    case .tap(let point): tap(at: point)
    case .progress(let value): seek(progress: value)
    }
  }

  /// Runs one control. Values are the caller's to check against `range(of:)`
  /// first (speed is refused here too).
  public func apply(_ command: SessionCommand) throws(SessionError) {
    switch command {
    case .play: resume()
    case .pause: pause()
    case .step: step()
    case .speed(let value): try setSpeed(value)
    case .progress(let value): seek(progress: value)
    case .reduceMotion(let on): setReduceMotion(on)
    case .replay: replay()
    case .rewind(let time): rewind(to: time)
    }
  }

  /// The values a command takes now (nil: it takes none): speeds, the plugin's
  /// progress range, a moment from the take's start to the newest recorded.
  public func range(of name: SessionCommand.Name) -> ClosedRange<Double>? {
    switch name {
    case .speed: return Self.speeds
    case .progress: return document?.progressRange ?? DocumentDefaults.progressRange
    case .reduceMotion: return 0...1
    case .rewind: return 0...timelineEnd
    case .play, .pause, .step, .replay: return nil
    }
  }
}
