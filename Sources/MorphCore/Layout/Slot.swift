/// A view's place in its body that survives siblings coming and going, for frames to be
/// compared between layouts (SwiftUI's structural identity, for bodies built as Lua
/// arrays, where an `if` leaves no slot behind): a path of steps from the root, each a
/// view's id (`#id`) or, for a view with none, its ordinal among the siblings that carry
/// no transition (the views that come and go carry one, and an id).
enum Slot {
  /// The path of the view at `step` from the view whose path is `parent` (the root's
  /// parent: "").
  static func path(_ parent: String, _ step: String) -> String { parent + "/" + step }

  /// The root's step.
  static func root(_ node: ViewNode) -> String { named(node) ?? "0" }

  /// The steps of a stack's children, in order.
  static func steps(_ children: [ViewNode]) -> [String] {
    var ordinal = 0
    return children.map { child in
      if let name = named(child) { return name }
      defer { if child.lastTransition == nil { ordinal += 1 } }
      return String(ordinal)
    }
  }

  /// The step of an overlay's (or a background's) view.
  static func attached(_ view: ViewNode, background: Bool) -> String {
    (background ? "bg" : "ov") + (named(view) ?? "")
  }

  private static func named(_ node: ViewNode) -> String? { node.lastID.map { "#" + $0 } }
}
