import MorphCore

/// What a handler receives, in the component's own coordinates (the origin
/// at the top-left of its `size` frame).
public struct InputEvent: Sendable, Equatable {
  public enum Phase: String, Sendable {
    case began, changed, ended
    /// Hovering: the pointer is over the component (SwiftUI's `HoverPhase.active`).
    case active
  }

  public var phase: Phase?
  public var location: Point
  public var startLocation: Point
  public var translation: Point
  /// Points per second, from the last ~0.1 s of motion.
  public var velocity: Point
  public var time: Double

  public init(
    phase: Phase? = nil, location: Point, startLocation: Point? = nil,
    translation: Point = .zero, velocity: Point = .zero, time: Double
  ) {
    self.phase = phase
    self.location = location
    self.startLocation = startLocation ?? location
    self.translation = translation
    self.velocity = velocity
    self.time = time
  }

  /// SwiftUI's `predictedEndTranslation`: where a flick would come to rest.
  public var predictedEndTranslation: Point { translation + velocity * 0.25 }

  /// A tap at `location`.
  public static func tap(at location: Point, time: Double) -> InputEvent {
    InputEvent(location: location, time: time)
  }
}
