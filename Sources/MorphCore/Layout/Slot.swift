/// A view's place in its body that survives siblings coming and going, for frames to be
/// compared between layouts (SwiftUI's structural identity, for bodies built as Lua
/// arrays, where an `if` leaves no slot behind): a path of steps from the root, each a
/// view's id (`#id`) or, for a view with none, its ordinal among the siblings with none
/// (the views that come and go under a transition carry an id, so they take no ordinal).
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
      defer { ordinal += 1 }
      return String(ordinal)
    }
  }

  /// The steps of the views a node's modifiers attach, by modifier index (nil: the
  /// modifier attaches none): `ov` for an overlay's, `bg` for a background's, then its id
  /// or its ordinal among the node's overlays (or backgrounds) with none.
  static func attachedSteps(_ modifiers: [Modifier]) -> [String?] {
    var ordinals = (overlay: 0, background: 0)
    return modifiers.map { modifier in
      switch modifier {
      case .overlay(let view, _):
        defer { if named(view) == nil { ordinals.overlay += 1 } }
        return "ov" + (named(view) ?? String(ordinals.overlay))
      case .background(let view, _):
        defer { if named(view) == nil { ordinals.background += 1 } }
        return "bg" + (named(view) ?? String(ordinals.background))
      default: return nil
      }
    }
  }

  private static func named(_ node: ViewNode) -> String? { node.lastID.map { "#" + $0 } }
}
