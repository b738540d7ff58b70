/// What a component or scene that declares nothing gets: the one owner of these defaults.
public enum DocumentDefaults {
  /// The frame a document is drawn in, in points: the SwiftUI preview frame the seeds use.
  public static let size = Size(380, 240)
  /// The progress values filmstrips, checks and exports sweep.
  public static let progressRange: ClosedRange<Double> = 0...1
}

/// SwiftUI's gesture thresholds the host recognises input with: the one owner of these
/// numbers (the gesture tracker uses them, the Lua API's docs quote them).
public enum GestureDefaults {
  /// SwiftUI's tap fails once the pointer moves about this far, in points.
  public static let tapSlop = 10.0
  /// SwiftUI's `LongPressGesture` defaults: held this long, in seconds…
  public static let longPressMinimumDuration = 0.5
  /// …without straying this far, in points.
  public static let longPressMaximumDistance = 10.0
  /// Two taps this close in seconds are a double tap (UIKit's tap recognizer's
  /// interval between taps, which SwiftUI's `onTapGesture(count: 2)` uses).
  public static let doubleTapInterval = 0.35
}
