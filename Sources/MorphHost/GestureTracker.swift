import MorphCore
import MorphScript

/// Turns pointer samples into a drag the way SwiftUI's `DragGesture` reports
/// one: nothing until the pointer has moved `minimumDistance`, then changes;
/// velocity from the last 0.1 s of samples.
struct GestureTracker {
  enum DragTarget: Equatable {
    case none, component
    case node(LuaRef)

    static func == (a: DragTarget, b: DragTarget) -> Bool {
      switch (a, b) {
      case (.none, .none), (.component, .component): return true
      case (.node(let x), .node(let y)): return x === y
      default: return false
      }
    }
  }

  let start: Point
  let startTime: Double
  let target: DragTarget
  let minimumDistance: Double
  private(set) var current: Point
  private(set) var isDragging = false
  /// How far the pointer has strayed from where it went down.
  private(set) var maxDistance = 0.0
  static let tapSlop = GestureDefaults.tapSlop
  static let longPressMinimumDuration = GestureDefaults.longPressMinimumDuration
  static let longPressMaximumDistance = GestureDefaults.longPressMaximumDistance
  static let doubleTapInterval = GestureDefaults.doubleTapInterval
  /// Whether this press has already been reported as a long press.
  var didLongPress = false

  /// Whether the press has been held still long enough to be a long press by `time`.
  func isLongPress(at time: Double) -> Bool {
    !didLongPress && !isDragging && maxDistance < Self.longPressMaximumDistance
      && time - startTime >= Self.longPressMinimumDuration - 1e-9
  }

  /// A release that still counts as a tap (not after a long press).
  var isTap: Bool { !isDragging && !didLongPress && maxDistance < Self.tapSlop }
  private var samples: [(time: Double, point: Point)]

  static let velocityWindow = 0.1

  init(start: Point, startTime: Double, target: DragTarget, minimumDistance: Double) {
    self.start = start
    self.startTime = startTime
    self.target = target
    self.minimumDistance = minimumDistance
    current = start
    samples = [(startTime, start)]
  }

  /// Records a move; returns the phase to report, if any.
  mutating func move(to p: Point, time: Double) -> InputEvent.Phase? {
    // Every sample counts toward velocity, a still one too: a finger that
    // stops before lifting has (nearly) no velocity left, as in SwiftUI.
    samples.append((time, p))
    while samples.count > 2, let first = samples.first, time - first.time > Self.velocityWindow {
      samples.removeFirst()
    }
    guard p != current || !isDragging else { return nil }
    current = p
    maxDistance = max(maxDistance, start.distance(to: p))
    guard target != .none else { return nil }
    if isDragging { return .changed }
    guard start.distance(to: p) >= minimumDistance else { return nil }
    isDragging = true
    return .began
  }

  /// Points per second over the window.
  var velocity: Point {
    guard let first = samples.first, let last = samples.last, last.time > first.time else {
      return .zero
    }
    return (last.point - first.point) * (1 / (last.time - first.time))
  }
}
