import MorphCore

/// Display lists sampled one per exported frame, regrouped by identity: every drawn
/// item and compositing group becomes one track that lives across the frames it is in.
struct LottieTimeline {
  /// One frame's commands as a tree: items, and groups holding their contents.
  indirect enum Node {
    case item(DisplayItem)
    case group(GroupStyle, identity: String, [Node])

    var identity: String {
      switch self {
      case .item(let item): item.identity
      case .group(_, let identity, _): identity
      }
    }
  }

  /// A layer's samples, by frame.
  enum Track {
    case item([Int: DisplayItem])
    case group([Int: GroupStyle], Composition)
  }

  /// The tracks of one composition (the whole scene, or a group's content) in paint
  /// order, back to front.
  final class Composition {
    var order: [String] = []
    var tracks: [String: Track] = [:]
    /// Identities whose place in the paint order changed between frames.
    var reordered: Set<String> = []
    fileprivate var frameOrders: [[String]] = []
  }

  let root: Composition
  let frameCount: Int

  init(_ lists: [DisplayList]) {
    frameCount = lists.count
    root = Composition()
    for (frame, list) in lists.enumerated() {
      Self.add(Self.tree(list.commands), frame: frame, to: root)
    }
    Self.settleOrder(root)
  }

  /// The command list as a tree; `.node` items (hit targets, not drawn) are left out and
  /// an identity met twice in one frame gets a suffix.
  static func tree(_ commands: [DisplayCommand]) -> [Node] {
    var stack: [(GroupStyle?, [Node])] = [(nil, [])]
    var seen: [String: Int] = [:]
    func unique(_ identity: String) -> String {
      let n = seen[identity, default: 0]
      seen[identity] = n + 1
      return n == 0 ? identity : identity + "~\(n)"
    }
    for command in commands {
      switch command {
      case .item(var item):
        guard item.kind != .node else { continue }
        item.identity = unique(item.identity)
        stack[stack.count - 1].1.append(.item(item))
      case .beginGroup(let style):
        stack.append((style, []))
      case .endGroup:
        guard stack.count > 1, let (style, children) = stack.popLast(), let style else { continue }
        let first = children.first?.identity ?? "empty"
        stack[stack.count - 1].1.append(
          .group(style, identity: unique("group:" + first), children))
      }
    }
    return stack[0].1
  }

  private static func add(_ nodes: [Node], frame: Int, to composition: Composition) {
    composition.frameOrders.append(nodes.map(\.identity))
    for node in nodes {
      switch node {
      case .item(let item):
        var samples: [Int: DisplayItem] = [:]
        if case .item(let existing)? = composition.tracks[item.identity] { samples = existing }
        samples[frame] = item
        composition.tracks[item.identity] = .item(samples)
      case .group(let style, let identity, let children):
        var styles: [Int: GroupStyle] = [:]
        var inner = Composition()
        if case .group(let existing, let c)? = composition.tracks[identity] {
          (styles, inner) = (existing, c)
        }
        styles[frame] = style
        add(children, frame: frame, to: inner)
        composition.tracks[identity] = .group(styles, inner)
      }
    }
  }

  /// One paint order for every frame: each frame's order merged (a topological sort,
  /// earliest seen first); an identity that cannot keep its place in some frame is noted.
  private static func settleOrder(_ composition: Composition) {
    var firstSeen: [String: Int] = [:]
    var after: [String: Set<String>] = [:]
    var indegree: [String: Int] = [:]
    for order in composition.frameOrders {
      for id in order where firstSeen[id] == nil {
        firstSeen[id] = firstSeen.count
        indegree[id] = 0
      }
      for (a, b) in zip(order, order.dropFirst()) where !(after[a]?.contains(b) ?? false) {
        after[a, default: []].insert(b)
        indegree[b, default: 0] += 1
      }
    }
    var result: [String] = []
    var remaining = Set(firstSeen.keys)
    while !remaining.isEmpty {
      let ready = remaining.filter { indegree[$0] == 0 }
      let next: String
      if let pick = ready.min(by: { firstSeen[$0]! < firstSeen[$1]! }) {
        next = pick
      } else {
        // A cycle: the paint order changes between frames.
        next = remaining.min(by: { firstSeen[$0]! < firstSeen[$1]! })!
        composition.reordered.insert(next)
      }
      remaining.remove(next)
      result.append(next)
      for b in after[next] ?? [] { indegree[b, default: 0] -= 1 }
    }
    composition.order = result
    composition.frameOrders = []
    for track in composition.tracks.values {
      if case .group(_, let inner) = track { settleOrder(inner) }
    }
  }
}
