import MorphCore

/// Display lists sampled one per exported frame, regrouped by identity as they arrive:
/// every drawn item and compositing group becomes one track that lives across the frames
/// it is in. A frame's list is not kept: each item is reduced to what the writer reads
/// (text as its glyph outline, no handlers), and an outline, clip or paint equal to the
/// track's previous sample shares its storage, so memory grows with what changes.
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
    /// A group's `.mask` content, when it has one (in canvas space, as the content).
    var mask: Composition?
    /// The open segment's paint orders merged so far.
    fileprivate var merging = OrderMerge()
    fileprivate var segmentStart = 0
    /// Each item track's latest sample, whose storage a sample equal in part shares.
    fileprivate var latest: [String: DisplayItem] = [:]
    /// What each item track's samples held now cost (`cost(of:)`).
    fileprivate var heldBytes: [String: Int] = [:]
    /// Layers already made of an item track's earlier samples (`flush`), each with the
    /// first frame it draws; their samples are no longer held.
    var flushed: [String: [(first: Int, layer: LottieJSON)]] = [:]
    /// Whether this is the content of an eraser (`blend("destinationOut")`), whose items
    /// become masks on the enclosing group, read from all their samples at the end.
    fileprivate var erases = false

    /// The open segment's first frame, or the closed segment's holding `frame`.
    fileprivate func segmentStart(of frame: Int) -> Int {
      if frame >= segmentStart { return segmentStart }
      return segments.first { $0.frames.contains(frame) }?.frames.lowerBound ?? segmentStart
    }
  }

  let root = Composition()
  private(set) var frameCount = 0
  /// Makes a text item drawable (its glyph outline), or leaves it as it is.
  let prepare: (DisplayItem) -> DisplayItem
  /// What the outlines held so far will cost the writer, in bytes (`cost(of:)`).
  private(set) var heldBytes = 0
  /// The most `heldBytes` may reach before the export ends.
  let limit: Int

  /// What one outline held costs the writer per element and per subpath: its stored
  /// elements (56 bytes each), their Bézier vertices and numbers, and the JSON values
  /// and text made of them; each subpath is a shape item with its own keyframe list.
  /// Measured: about 175 bytes an element for a 90 000-point moving path, and 5 kB a
  /// glyph contour for ten 10 000-character texts.
  static let bytesPerElement = 256
  static let bytesPerSubpath = 4096

  init(
    limit: Int = LottieStream.maxHeldBytes, prepare: @escaping (DisplayItem) -> DisplayItem = { $0 }
  ) {
    self.limit = limit
    self.prepare = prepare
  }

  init(_ lists: [DisplayList]) {
    self.init(limit: .max)
    for list in lists { try? add(list) }
    finish()
  }

  /// The bytes `path`, held, costs the writer.
  static func cost(of path: Path) -> Int {
    var subpaths = 0
    for case .move in path.elements { subpaths += 1 }
    return path.elements.count * bytesPerElement + subpaths * bytesPerSubpath
  }

  /// Folds one frame (the next) into the tracks; past the export budget, an error that
  /// ends the export.
  mutating func add(_ list: DisplayList) throws(SceneError) {
    var added = 0
    Self.add(
      Self.tree(list.commands), frame: frameCount, to: root, prepare: prepare, held: &added)
    heldBytes += added
    frameCount += 1
    guard heldBytes <= limit else {
      throw SceneError(
        "Lottie export would hold more than \(limit >> 20) MiB of outlines by frame "
          + "\(frameCount) (the export budget): the frame's outlines, with what is held of "
          + "earlier frames, cost more; draw fewer points, move shapes with offset or rotation "
          + "rather than their points, or choose a raster format (.webp)")
    }
  }

  /// Makes layers of the samples held by the item tracks that hold the most outline
  /// bytes, heaviest first, until at most `target` bytes are held, and drops those
  /// samples: a long export whose outlines change every frame holds a window of frames,
  /// not all of them. `layer` makes one layer of one track's samples within one paint
  /// order (each run then keeps one place among the layers); the next frame is the
  /// one after the samples given. An eraser's items are kept (they become masks).
  mutating func flush(
    downTo target: Int, _ layer: (String, [Int: DisplayItem]) throws -> LottieJSON?
  ) rethrows {
    var heavy: [(Composition, String, Int)] = []
    func gather(_ composition: Composition) {
      if !composition.erases {
        for (identity, bytes) in composition.heldBytes where bytes > 0 {
          heavy.append((composition, identity, bytes))
        }
      }
      for track in composition.tracks.values {
        guard case .group(_, let inner) = track else { continue }
        gather(inner)
        if let mask = inner.mask { gather(mask) }
      }
    }
    gather(root)
    heavy.sort { ($0.2, $0.1) > ($1.2, $1.1) }
    for (composition, identity, bytes) in heavy {
      guard heldBytes > target else { break }
      guard case .item(let samples)? = composition.tracks[identity] else { continue }
      composition.tracks[identity] = .item([:])
      var runs: [Int: [Int: DisplayItem]] = [:]
      for (frame, sample) in samples {
        runs[composition.segmentStart(of: frame), default: [:]][frame] = sample
      }
      for start in runs.keys.sorted() {
        let run = runs[start]!
        if let made = try layer(identity, run) {
          composition.flushed[identity, default: []].append((run.keys.min()!, made))
        }
      }
      composition.heldBytes[identity] = 0
      heldBytes -= bytes
    }
  }

  /// Closes the last segments and places the layers; call once, after the last frame.
  func finish() { Self.settleOrder(root, frameCount: frameCount) }

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

  private static func add(
    _ nodes: [Node], frame: Int, to composition: Composition,
    prepare: (DisplayItem) -> DisplayItem, held: inout Int
  ) {
    extendSegment(composition, frame: frame, order: nodes.map(\.identity))
    for node in nodes {
      switch node {
      case .item(let item):
        var samples: [Int: DisplayItem] = [:]
        if case .item(let existing)? = composition.tracks[item.identity] { samples = existing }
        composition.tracks[item.identity] = nil  // unique, so the insert below does not copy
        let (sample, bytes) = compact(prepare(item), after: composition.latest[item.identity])
        held += bytes
        composition.heldBytes[item.identity, default: 0] += bytes
        composition.latest[item.identity] = sample
        samples[frame] = sample
        composition.tracks[item.identity] = .item(samples)
      case .group(let style, let identity, let children):
        var styles: [Int: GroupStyle] = [:]
        var inner = Composition()
        if case .group(let existing, let c)? = composition.tracks[identity] {
          (styles, inner) = (existing, c)
        }
        styles[frame] = style
        if style.blend == .destinationOut { inner.erases = true }
        add(children, frame: frame, to: inner, prepare: prepare, held: &held)
        // One mask is a track matte; more (rare) are left to the writer's report.
        if style.masks.count == 1 {
          let mask = inner.mask ?? Composition()
          inner.mask = mask
          add(tree(style.masks[0]), frame: frame, to: mask, prepare: prepare, held: &held)
        }
        composition.tracks[identity] = .group(styles, inner)
      }
    }
  }

  /// What the writer reads of an item, sharing storage with the previous sample where
  /// equal (most outlines stay the same while their transforms move), and what the
  /// outlines it does not share cost the writer (`cost(of:)`).
  static func compact(_ item: DisplayItem, after previous: DisplayItem?) -> (DisplayItem, Int) {
    var item = item
    item.handlers = nil
    item.text = nil  // drawn by now as its outline, or left out
    var bytes = 0
    if let previous, item.path == previous.path {
      item.path = previous.path
    } else {
      bytes += cost(of: item.path)
    }
    if let previous, item.untrimmedPath == previous.untrimmedPath {
      item.untrimmedPath = previous.untrimmedPath
    } else if let whole = item.untrimmedPath {
      bytes += cost(of: whole)
    }
    if let previous, item.clips == previous.clips {
      item.clips = previous.clips
    } else {
      for clip in item.clips { bytes += cost(of: clip.path) }
    }
    guard let previous else { return (item, bytes) }
    if item.fill == previous.fill { item.fill = previous.fill }
    if item.stroke == previous.stroke { item.stroke = previous.stroke }
    return (item, bytes)
  }

  /// Adds a frame's paint order to the open segment of `composition`, or, when no order
  /// agrees with it and the segment's, closes that segment and opens one with it.
  private static func extendSegment(_ composition: Composition, frame: Int, order: [String]) {
    var wider = composition.merging
    if wider.add(order) {
      composition.merging = wider
      return
    }
    if let merged = composition.merging.order {
      composition.segments.append(
        Segment(frames: composition.segmentStart..<frame, order: merged))
    }
    composition.segmentStart = frame
    composition.merging = OrderMerge()
    _ = composition.merging.add(order)
  }

  /// Paint orders for the frames: consecutive frames share one while their orders can
  /// be merged (a topological sort, earliest seen first); where the order changes (a
  /// card brought to the front), a new segment starts and its layers are written again.
  private static func settleOrder(_ composition: Composition, frameCount: Int) {
    if let merged = composition.merging.order, composition.segmentStart < frameCount {
      composition.segments.append(
        Segment(frames: composition.segmentStart..<frameCount, order: merged))
    }
    composition.merging = OrderMerge()
    composition.latest = [:]
    composition.slots = slots(composition.segments)
    for track in composition.tracks.values {
      guard case .group(_, let inner) = track else { continue }
      settleOrder(inner, frameCount: frameCount)
      if let mask = inner.mask { settleOrder(mask, frameCount: frameCount) }
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

}

/// Paint orders merged one frame at a time: the identities in the order first seen, and
/// which must come after which; `order` is one order agreeing with all of them.
struct OrderMerge {
  private var firstSeen: [String: Int] = [:]
  private var after: [String: Set<String>] = [:]
  /// The merged order, or nil before the first frame.
  private(set) var order: [String]?

  /// Adds one frame's order; false (and unchanged) when no order agrees with it too.
  mutating func add(_ frameOrder: [String]) -> Bool {
    var next = self
    for id in frameOrder where next.firstSeen[id] == nil {
      next.firstSeen[id] = next.firstSeen.count
    }
    for (a, b) in zip(frameOrder, frameOrder.dropFirst()) {
      next.after[a, default: []].insert(b)
    }
    guard let sorted = next.sorted() else { return false }
    next.order = sorted
    self = next
    return true
  }

  /// A topological sort, earliest seen first among the ready; nil on a cycle.
  private func sorted() -> [String]? {
    var indegree = firstSeen.mapValues { _ in 0 }
    for targets in after.values { for b in targets { indegree[b, default: 0] += 1 } }
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
