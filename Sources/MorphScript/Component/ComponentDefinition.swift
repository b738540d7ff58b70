import MorphCore

/// What a component's definition declares about itself, read once from the
/// `morph.component{…}` table (`ComponentInstance.readDefinition`) and kept, snapshotted
/// and restored whole: the one list of these fields on the Swift side.
public struct ComponentDefinition: Equatable, Sendable {
  /// `name`, else the file's base name.
  public var name: String
  /// `size`: the component's frame, in points.
  public var size = DocumentDefaults.size
  /// `progress`: the state key controlled mode sets, if any.
  public var progressKey: String?
  /// `description`: a one-line summary.
  public var summary: String?
  /// `progressRange`: the values filmstrips, checks and exports sweep.
  public var progressRange = DocumentDefaults.progressRange
  /// `dragMinimumDistance`: points a pointer moves before a drag starts.
  public var dragMinimumDistance = ComponentDefinition.defaultDragMinimumDistance
  /// Whether the definition has `controlled(self, value)`.
  public var hasController = false
  /// Whether the definition has `appear(self)` (SwiftUI's `onAppear`).
  public var hasAppear = false
  /// Whether the definition has `disappear(self)`, run when the instance is unloaded.
  public var hasDisappear = false

  /// SwiftUI's `DragGesture` default minimum distance.
  public static let defaultDragMinimumDistance = 10.0

  public init(name: String) { self.name = name }
}
