/// What a component or scene that declares nothing gets: the one owner of these defaults.
public enum DocumentDefaults {
  /// The frame a document is drawn in, in points: the SwiftUI preview frame the seeds use.
  public static let size = Size(380, 240)
  /// The progress values filmstrips, checks and exports sweep.
  public static let progressRange: ClosedRange<Double> = 0...1
}
