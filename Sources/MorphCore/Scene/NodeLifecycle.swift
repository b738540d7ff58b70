/// A node with `onAppear`/`onDisappear` hooks, where one body put it (docs/lua-api.md,
/// Appear and disappear).
public struct LifecycleSite: Hashable, Sendable {
  /// What makes it the same node from one body to the next: its `id` (the last written),
  /// else its place under the nearest node around it with an id (or the root), each step
  /// its index among the stack's children without an id, or the modifier that attaches it,
  /// with the kind of node found there — so an `if … else` that puts another kind of node
  /// in the same place is a new node, as in SwiftUI.
  public var identity: String
  /// The ids of the node and of the nodes around it, innermost first: a removed node keeps
  /// drawing while one of them leaves under a transition.
  public var ids: [String]
  /// Its `onAppear` and `onDisappear` handler ids, in the order written.
  public var appear: [Int]
  public var disappear: [Int]
}

extension ViewNode {
  /// The nodes with lifecycle hooks in tree order: a node before the nodes it holds (its
  /// children, then what its modifiers attach); the first node of an identity wins.
  public var lifecycleSites: [LifecycleSite] {
    var sites: [LifecycleSite] = []
    var seen: Set<String> = []
    collectSites(place: "root:" + kindName, ids: [], into: &sites, seen: &seen)
    return sites
  }

  /// Whether any node in the tree has a lifecycle hook: a walk that allocates nothing, so
  /// a body without hooks costs no more than it.
  public var hasLifecycleHooks: Bool {
    let own = modifiers.contains { modifier in
      switch modifier {
      case .lifecycle: return true
      case .overlay(let node, _), .background(let node, _), .mask(let node, _):
        return node.hasLifecycleHooks
      default: return false
      }
    }
    guard !own, case .stack(_, _, _, let children) = content else { return own }
    return children.contains { $0.hasLifecycleHooks }
  }

  private func collectSites(
    place: String, ids: [String], into sites: inout [LifecycleSite], seen: inout Set<String>
  ) {
    var place = place
    var ids = ids
    if let id = lastID {
      place = "#" + id
      ids.insert(id, at: 0)
    }
    var appear: [Int] = []
    var disappear: [Int] = []
    for case .lifecycle(let hooks) in modifiers {
      if let handler = hooks.appear { appear.append(handler) }
      if let handler = hooks.disappear { disappear.append(handler) }
    }
    if !appear.isEmpty || !disappear.isEmpty, seen.insert(place).inserted {
      sites.append(LifecycleSite(identity: place, ids: ids, appear: appear, disappear: disappear))
    }
    if case .stack(_, _, _, let children) = content {
      // A child's step is the layout's (`Slot`): its id, or its ordinal among the children
      // without one, so siblings with ids coming and going (a transition's) leave it be.
      // A child with an id replaces this place with its id.
      for (child, step) in zip(children, Slot.steps(children)) {
        let own = child.lastID == nil ? "/\(step):" : "/"
        child.collectSites(
          place: place + own + child.kindName, ids: ids, into: &sites, seen: &seen)
      }
    }
    for (k, modifier) in modifiers.enumerated() {
      switch modifier {
      case .overlay(let node, _), .background(let node, _), .mask(let node, _):
        node.collectSites(
          place: place + "/m\(k):" + node.kindName, ids: ids, into: &sites, seen: &seen)
      default: continue
      }
    }
  }

  /// The kind of node, as a place in `LifecycleSite.identity` names it.
  var kindName: String {
    switch content {
    case .shape(let shape): return shape.kind.rawValue
    case .text: return "text"
    case .image: return "image"
    case .stack(let axis, _, _, _): return axis.rawValue + "stack"
    case .empty: return "empty"
    case .spacer: return "spacer"
    }
  }
}
