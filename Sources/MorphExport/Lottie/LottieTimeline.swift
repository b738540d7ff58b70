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

  /// Frames that share one paint order, and that order, back to front.
  struct Segment {
    var frames: Range<Int>
    var order: [String]
  }

  /// One layer: an identity over a run of frames, where it keeps its place.
  struct Slot {
    var identity: String
    var frames: Range<Int>
  }

  /// The tracks of one composition (the whole scene, or a group's content), the
  /// segments of frames in which their paint order holds, and the layers that draw
  /// them, back to front.
  final class Composition {
    var segments: [Segment] = []
    var slots: [Slot] = []
    var tracks: [String: Track] = [:]
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

  /// Paint orders for the frames: consecutive frames share one while their orders can
  /// be merged (a topological sort, earliest seen first); where the order changes (a
  /// card brought to the front), a new segment starts and its layers are written again.
  private static func settleOrder(_ composition: Composition) {
    let orders = composition.frameOrders
    var segments: [Segment] = []
    var start = 0
    while start < orders.count {
      var end = start + 1
      var merged = mergedOrder(orders[start..<end])!
      while end < orders.count, let wider = mergedOrder(orders[start..<(end + 1)]) {
        merged = wider
        end += 1
      }
      segments.append(Segment(frames: start..<end, order: merged))
      start = end
    }
    composition.segments = segments
    composition.slots = slots(segments)
    composition.frameOrders = []
    for track in composition.tracks.values {
      if case .group(_, let inner) = track { settleOrder(inner) }
    }
  }

  /// Layers for the segments: where the order changes, the identities on the longest
  /// common subsequence of the two orders keep their layers, and each of the others
  /// gets a new layer from then on, placed between its new neighbours.
  static func slots(_ segments: [Segment]) -> [Slot] {
    var slots: [Slot] = []
    var open: [String: Int] = [:]
    var previous: [String] = []
    for segment in segments {
      let kept = Set(longestCommonSubsequence(previous, segment.order))
      open = open.filter { kept.contains($0.key) }
      var insertAt = 0
      for identity in segment.order {
        if let index = open[identity] {
          slots[index].frames = slots[index].frames.lowerBound..<segment.frames.upperBound
          insertAt = index + 1
        } else {
          slots.insert(Slot(identity: identity, frames: segment.frames), at: insertAt)
          open = open.mapValues { $0 >= insertAt ? $0 + 1 : $0 }
          open[identity] = insertAt
          insertAt += 1
        }
      }
      previous = segment.order
    }
    return slots
  }

  static func longestCommonSubsequence(_ a: [String], _ b: [String]) -> [String] {
    guard !a.isEmpty, !b.isEmpty else { return [] }
    var lengths = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        lengths[i][j] =
          a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    var out: [String] = []
    var (i, j) = (0, 0)
    while i < a.count && j < b.count {
      if a[i] == b[j] {
        out.append(a[i])
        (i, j) = (i + 1, j + 1)
      } else if lengths[i + 1][j] >= lengths[i][j + 1] {
        i += 1
      } else {
        j += 1
      }
    }
    return out
  }

  /// One order agreeing with every frame's, or nil when none does.
  private static func mergedOrder(_ orders: ArraySlice<[String]>) -> [String]? {
    var firstSeen: [String: Int] = [:]
    var after: [String: Set<String>] = [:]
    var indegree: [String: Int] = [:]
    for order in orders {
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
      guard let next = ready.min(by: { firstSeen[$0]! < firstSeen[$1]! }) else { return nil }
      remaining.remove(next)
      result.append(next)
      for b in after[next] ?? [] { indegree[b, default: 0] -= 1 }
    }
    return result
  }
}
