import MorphCore

/// SwiftUI's `onAppear`/`onDisappear` on nodes (docs/lua-api.md, Appear and disappear):
/// compares each body's hooked nodes (`ViewNode.lifecycleSites`) with the last body's and
/// says which handlers fall due. A body's handler list is replaced by the next body's, so
/// the tracker keeps its own reference to each present node's `onDisappear` handlers —
/// the ones its latest body wrote, as SwiftUI calls the latest closure — and lets go of
/// them once they have run or the node is back.
struct NodeLifecycle {
  /// A node of the last body, or a removed one still drawing.
  struct Node {
    var ids: [String]
    var disappear: [LuaRef]
  }

  /// The last body's hooked nodes by identity, and their identities in tree order.
  private var present: [String: Node] = [:]
  private var order: [String] = []
  /// Removed nodes a transition still draws, with the tree order they had: their
  /// `onDisappear` waits until their removal ends (SwiftUI removes the view, and calls
  /// its disappear action, when the removal animation completes).
  private var departing: [(identity: String, node: Node)] = []

  /// Whether it tracks no node: a body without hooks then has nothing to compare.
  var isEmpty: Bool { present.isEmpty && departing.isEmpty }

  /// How many handler references it holds (tests watch it for leaks).
  var heldHandlers: Int {
    present.values.reduce(0) { $0 + $1.disappear.count }
      + departing.reduce(0) { $0 + $1.node.disappear.count }
  }

  /// Takes a new body's `sites` (its handlers in `handlers`; `leaving`, the ids whose
  /// removal a transition draws after that body) and returns what runs now, in order:
  /// the `onDisappear` of nodes whose removal already ended, then of nodes removed at
  /// once (in the last body's tree order), then the `onAppear` of inserted nodes (in
  /// this body's). A node back while its removal still draws never left: neither runs.
  mutating func update(_ sites: [LifecycleSite], handlers: [LuaRef], leaving: Set<String>)
    -> [LuaRef]
  {
    var found: [String: Node] = [:]
    for site in sites {
      found[site.identity] = Node(ids: site.ids, disappear: site.disappear.map { handlers[$0] })
    }
    let back = Set(departing.map(\.identity).filter { found[$0] != nil })
    departing.removeAll { back.contains($0.identity) }
    var due = ended(leaving: leaving)
    for identity in order where found[identity] == nil {
      guard let node = present[identity] else { continue }
      if node.ids.contains(where: leaving.contains) {
        departing.append((identity, node))
      } else {
        due += node.disappear
      }
    }
    for site in sites where present[site.identity] == nil && !back.contains(site.identity) {
      due += site.appear.map { handlers[$0] }
    }
    present = found
    order = sites.map(\.identity)
    return due
  }

  /// The `onDisappear` handlers of removed nodes whose removal has ended: none of their
  /// ids is still `leaving`.
  mutating func ended(leaving: Set<String>) -> [LuaRef] {
    guard !departing.isEmpty else { return [] }
    var due: [LuaRef] = []
    departing.removeAll { entry in
      guard !entry.node.ids.contains(where: leaving.contains) else { return false }
      due += entry.node.disappear
      return true
    }
    return due
  }

  /// Every node leaves (the component is unloaded): their `onDisappear` handlers, those
  /// still drawing a removal first, then the last body's in tree order.
  mutating func unload() -> [LuaRef] {
    var due = departing.flatMap(\.node.disappear)
    for identity in order { due += present[identity]?.disappear ?? [] }
    self = NodeLifecycle()
    return due
  }
}
