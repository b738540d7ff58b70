/// What one run of a handler did to state, as SwiftUI's `Transaction` carries it: the
/// animation the change ran under (nil: none, the change is immediate) and when.
public struct Transaction: Hashable, Sendable {
  public var animation: AnimationCurve?
  public var time: Double

  /// A transition plays its curve once: a `repeatCount` or `repeatForever` on the curve
  /// that carried the change is dropped (its delay and speed stay).
  public init(animation: AnimationCurve?, time: Double) {
    self.animation = animation.map { curve in
      var once = curve
      once.modifiers = curve.modifiers.once
      return once
    }
    self.time = time
  }
}

/// SwiftUI's insertion and removal transitions (docs/design.md, Transitions): compares
/// each body's nodes that have an `id` and a `transition` (the root, a stack's child, an
/// overlay's or a background's view) with the last body's, and when one appears or
/// disappears under an animation, animates its presence — 0 is the transition's state,
/// 1 the node as its body says — on an engine channel named by the id. A removed node
/// keeps drawing at the frame it was last laid out at, taking no space (its siblings
/// glide into its room under the same animation, as they glide to make room for an
/// inserted one: `MatchedGeometry.moved`), with no handlers so hit testing passes
/// through it, until its removal ends. No Lua runs per frame, but a custom transition's
/// function while its node moves.
public struct TransitionTracker: Sendable {
  /// One step down a body: into a stack's child, or an overlay's or background's view
  /// (the index of its modifier).
  enum Step: Sendable {
    case child(Int)
    case overlay(Int, Alignment)
    case background(Int, Alignment)

    /// The order ghosts go back in: by index, a stack's children before modifiers.
    var order: [Int] {
      switch self {
      case .child(let i): return [0, i]
      case .overlay(let i, _), .background(let i, _): return [1, i]
      }
    }

    var isBackground: Bool { if case .background = self { true } else { false } }

    /// The modifier that attaches `view` at this step (nil: a stack's child).
    func attaching(_ view: ViewNode) -> Modifier? {
      switch self {
      case .child: return nil
      case .overlay(_, let a): return .overlay(view, a)
      case .background(_, let a): return .background(view, a)
      }
    }
  }

  /// A node with an id and a transition, where the body put it.
  struct Entry: Sendable {
    var node: ViewNode
    /// The steps from the body's root to it (none: it is the root).
    var path: [Step]
    /// Its slot path (`Slot`), the key its frame is laid out under.
    var slot: String
    /// The slot of the stack holding it, if one does.
    var stack: String?
    var transition: ViewTransition
    /// The ids of tracked nodes around it: it leaves inside them when they leave too.
    var ancestors: [String]
  }

  enum Side: Sendable { case insertion, removal }

  /// The tracked nodes of the last body.
  private var present: [String: Entry] = [:]
  /// Removed nodes still drawing (their removal runs).
  private var leaving: [String: Entry] = [:]
  /// The leaving ids, oldest removal first, and the nodes each holds: what the
  /// budget's ghost limits count (`limitGhosts`).
  private var departures: [(id: String, nodes: Int)] = []
  /// Bounds the removed nodes kept drawing (`FrameBudget.maxLeavingNodes`, `maxItems`).
  public var budget = FrameBudget.standard
  /// Which side's effects each moving id shows: the one it set out with. A node
  /// re-inserted during its removal turns back under its removal effects (and one removed
  /// during its insertion under its insertion effects), so it never jumps.
  private var sides: [String: Side] = [:]
  /// Each moving id's presence.
  public private(set) var engine = AnimationEngine()
  private var started = false
  /// Matched geometry's frames, moved by the same transactions.
  public var geometry = MatchedGeometry()

  public init() {}

  /// Whether an insertion, a removal or a matched frame is moving.
  public var isAnimating: Bool { engine.isAnimating || geometry.isAnimating }
  /// Whether one will end by itself (a transition's curve never repeats, but an undamped
  /// spring never settles).
  public var hasFiniteAnimation: Bool {
    engine.hasFiniteAnimation || geometry.hasFiniteAnimation
  }
  /// The ids of removed nodes still drawing, sorted.
  public var leavingIDs: [String] { leaving.keys.sorted() }
  /// The ids of nodes being inserted or removed, sorted.
  public var movingIDs: [String] { sides.keys.sorted() }

  /// The earliest moment by `time` at which an insertion or removal ends (a removal's
  /// end is when its node's `onDisappear` falls due), if one does.
  public func nextEnd(through time: Double) -> Double? { engine.nextEnd(through: time) }

  /// Retires what ended by `time`: a node whose removal ended stops drawing.
  public mutating func advance(to time: Double) {
    _ = engine.advance(to: time)
    geometry.advance(to: time)
    retireFinished()
  }

  /// The tree to lay out at `time` for `body`: its tracked nodes compared with the last
  /// body's under `transaction` (nil: nothing changed state since), removed nodes put
  /// back where they were, and every moving node with its transition's effects at its
  /// presence. The first body only sets the baseline (SwiftUI runs no transition for the
  /// views a hierarchy starts with).
  public mutating func resolve(_ body: ViewNode, transaction: Transaction?, at time: Double)
    throws(SceneError) -> ViewNode
  {
    // The next layout moves matched frames under the latest change, but a plain one
    // (an `onAppear` assignment in the same update) does not stop an animated one's glide.
    if let transaction, transaction.animation != nil || geometry.pending?.animation == nil {
      geometry.pending = transaction
    }
    var found: [String: Entry] = [:]
    Self.collect(
      body, path: [], slot: Slot.path("", Slot.root(body)), stack: nil, ancestors: [], into: &found)
    if started { diff(found, transaction, at: time) }
    started = true
    present = found
    retireFinished()
    // Nothing moving (the usual frame): the body as it is, not copied.
    guard !sides.isEmpty else { return body }
    return try withRootGhost(decorated(withGhosts(body), at: time), at: time)
  }

  private mutating func diff(_ found: [String: Entry], _ transaction: Transaction?, at time: Double)
  {
    let start = transaction?.time ?? time
    // A side's own curve (`t:animation(curve)`) wins over the change's, and runs even
    // when the change had none (SwiftUI's `AnyTransition.animation`); it plays once, as
    // a transaction's does.
    func curve(_ own: AnimationCurve?) -> AnimationCurve? {
      own.flatMap { Transaction(animation: $0, time: start).animation } ?? transaction?.animation
    }
    let inserted = Set(found.keys).subtracting(present.keys)
    for id in inserted.sorted() {
      // Only the outermost inserted node transitions (SwiftUI): one inside it comes with it.
      guard let animation = curve(found[id]?.transition.insertionAnimation),
        found[id]?.ancestors.contains(where: inserted.contains) == false
      else {
        forget(id)
        continue
      }
      if leave(id, nil) == nil {
        if sides[id] == nil { engine.define(id, value: 0) }
        sides[id] = sides[id] ?? .insertion
      }
      makeRoom(around: found[id])
      _ = engine.animate([(id, 1)], with: animation, at: start)
    }
    let removed = Set(present.keys).subtracting(found.keys)
    for id in removed.sorted() {
      guard let entry = present[id], let animation = curve(entry.transition.removalAnimation),
        !entry.ancestors.contains(where: removed.contains)
      else {
        forget(id)
        continue
      }
      var ghost = entry
      ghost.node = Self.inert(entry.node)
      ghost.node.modifiers.append(.detached(MatchedGeometryKey(slot: entry.slot)))
      leave(id, ghost)
      makeRoom(around: entry)
      if sides[id] == nil {
        engine.define(id, value: 1)
        sides[id] = .removal
      }
      _ = engine.animate([(id, 0)], with: animation, at: start)
    }
    limitGhosts()
    engine.keep(only: Set(sides.keys))
  }

  /// Sets (or, with nil, ends) the ghost of `id`, keeping `departures` in step; returns
  /// the ghost there was.
  @discardableResult
  private mutating func leave(_ id: String, _ ghost: Entry?) -> Entry? {
    let old = leaving[id]
    leaving[id] = ghost
    if old != nil { departures.removeAll { $0.id == id } }
    if let ghost { departures.append((id, Self.nodeCount(ghost.node))) }
    return old
  }

  /// Ends the oldest removals at once while more nodes are leaving than the budget
  /// keeps (a completion that swaps the root's id every tick under an hour-long
  /// transition would otherwise pile up a ghost a tick, each redrawn and compared
  /// every frame after): a removed node stops drawing as if its removal had ended, and
  /// its `onDisappear` runs then.
  private mutating func limitGhosts() {
    var nodes = departures.reduce(0) { $0 + $1.nodes }
    while let oldest = departures.first,
      departures.count > budget.maxLeavingNodes || nodes > budget.maxItems
    {
      nodes -= oldest.nodes
      leave(oldest.id, nil)
      sides[oldest.id] = nil
    }
  }

  /// The nodes in `node`'s tree, those its modifiers attach included.
  static func nodeCount(_ node: ViewNode) -> Int {
    var count = 1
    for modifier in node.modifiers {
      switch modifier {
      case .overlay(let v, _), .background(let v, _), .mask(let v, _): count += nodeCount(v)
      default: break
      }
    }
    if case .stack(_, _, _, let children) = node.content {
      for child in children { count += nodeCount(child) }
    }
    return count
  }

  /// Lets the siblings of a node coming or going glide under the change.
  private mutating func makeRoom(around entry: Entry?) {
    if let stack = entry?.stack { geometry.moved.insert(stack) }
  }

  private mutating func forget(_ id: String) {
    leave(id, nil)
    sides[id] = nil
  }

  /// Drops what came to rest: a node in (identity) or out (gone).
  private mutating func retireFinished() {
    for id in sides.keys where engine.channels[id]?.isAnimating != true {
      if engine.target(id) == 0 { leave(id, nil) }
      sides[id] = nil
    }
    if engine.channels.count != sides.count { engine.keep(only: Set(sides.keys)) }
  }

  // MARK: Trees

  /// The tracked nodes in `node` (its slot `slot`, in the stack whose slot is `stack`),
  /// reached through stacks, overlays and backgrounds; the first of an id wins.
  static func collect(
    _ node: ViewNode, path: [Step], slot: String, stack: String?, ancestors: [String],
    into found: inout [String: Entry]
  ) {
    var ancestors = ancestors
    if let id = node.lastID, let transition = node.lastTransition, found[id] == nil {
      found[id] = Entry(
        node: node, path: path, slot: slot, stack: stack, transition: transition,
        ancestors: ancestors)
      ancestors.append(id)
    }
    let steps = Slot.attachedSteps(node.modifiers)
    for (i, (modifier, slotStep)) in zip(node.modifiers, steps).enumerated() {
      guard let (view, step) = attached(modifier, at: i), let slotStep else { continue }
      collect(
        view, path: path + [step], slot: Slot.path(slot, slotStep), stack: nil,
        ancestors: ancestors, into: &found)
    }
    guard case .stack(_, _, _, let children) = node.content else { return }
    for (i, (child, step)) in zip(children, Slot.steps(children)).enumerated() {
      collect(
        child, path: path + [.child(i)], slot: Slot.path(slot, step), stack: slot,
        ancestors: ancestors, into: &found)
    }
  }

  /// Whether a node in `node`, where `collect` looks, has a transition but no id: one that
  /// never runs (`check` warns of it).
  public static func hasTransitionWithoutID(_ node: ViewNode) -> Bool {
    if node.lastTransition != nil, node.lastID == nil { return true }
    var inside = node.modifiers.enumerated().compactMap { attached($1, at: $0)?.0 }
    if case .stack(_, _, _, let children) = node.content { inside += children }
    return inside.contains(where: hasTransitionWithoutID)
  }

  /// The view an overlay or background modifier at index `i` attaches, and the step to it.
  private static func attached(_ modifier: Modifier, at i: Int) -> (ViewNode, Step)? {
    switch modifier {
    case .overlay(let view, let a): return (view, .overlay(i, a))
    case .background(let view, let a): return (view, .background(i, a))
    default: return nil
    }
  }

  /// `node` with no handlers anywhere, so a leaving node is never hit, and no matched
  /// geometry, so it never takes a key's frame from the node that replaced it.
  static func inert(_ node: ViewNode) -> ViewNode {
    var copy = node
    copy.modifiers = node.modifiers.compactMap { modifier in
      switch modifier {
      case .handlers, .matchedGeometry: return nil
      case .overlay(let v, let a): return .overlay(inert(v), a)
      case .background(let v, let a): return .background(inert(v), a)
      case .mask(let v, let a): return .mask(inert(v), a)
      default: return modifier
      }
    }
    if case .stack(let axis, let spacing, let alignment, let children) = node.content {
      copy.content = .stack(
        axis, spacing: spacing, alignment: alignment, children: children.map(inert))
    }
    return copy
  }

  /// `body` with each leaving node (but a root) back where it was: at its old index in
  /// its stack, or its old overlay or background (in index order, so several in one
  /// place land where they were); one whose place is gone is dropped.
  private func withGhosts(_ body: ViewNode) -> ViewNode {
    var tree = body
    let ordered = leaving.values.filter { !$0.path.isEmpty }.sorted {
      $0.path.flatMap(\.order).lexicographicallyPrecedes($1.path.flatMap(\.order))
    }
    for ghost in ordered {
      tree = Self.inserting(ghost.node, at: ghost.path[...], into: tree) ?? tree
    }
    return tree
  }

  private static func inserting(_ ghost: ViewNode, at path: ArraySlice<Step>, into node: ViewNode)
    -> ViewNode?
  {
    guard let step = path.first else { return nil }
    let rest = path.dropFirst()
    var copy = node
    switch step {
    case .child(let i):
      guard case .stack(let axis, let spacing, let alignment, var children) = node.content else {
        return nil
      }
      if rest.isEmpty {
        children.insert(ghost, at: min(i, children.count))
      } else {
        guard i < children.count, let child = inserting(ghost, at: rest, into: children[i])
        else { return nil }
        children[i] = child
      }
      copy.content = .stack(axis, spacing: spacing, alignment: alignment, children: children)
    case .overlay(let i, _), .background(let i, _):
      if rest.isEmpty {
        guard let modifier = step.attaching(ghost) else { return nil }
        // Under the view now in its place: an overlay written before it, a background
        // after it (the outer background draws first).
        let overBackground =
          i < node.modifiers.count && attached(node.modifiers[i], at: i)?.1.isBackground == true
        let at = step.isBackground && overBackground ? i + 1 : min(i, copy.modifiers.count)
        copy.modifiers.insert(modifier, at: at)
      } else {
        guard i < node.modifiers.count, let (view, found) = attached(node.modifiers[i], at: i),
          let inner = inserting(ghost, at: rest, into: view),
          let modifier = found.attaching(inner)
        else { return nil }
        copy.modifiers[i] = modifier
      }
    }
    return copy
  }

  /// `tree` with a leaving root drawn under it (SwiftUI keeps a removed view below the
  /// one that replaced it): as its outermost background, which takes the new root's size
  /// and leaves every slot path in the new root as it is alone.
  private func withRootGhost(_ tree: ViewNode, at time: Double) throws(SceneError) -> ViewNode {
    // The newest: the root just replaced (older ones, still fading, are not drawn).
    guard
      let ghost = departures.reversed().lazy.compactMap({ self.leaving[$0.id] })
        .first(where: { $0.path.isEmpty })
    else { return tree }
    var swapping = tree
    swapping.modifiers.append(.background(try decorated(ghost.node, at: time), .center))
    return swapping
  }

  /// Each moving node with its side's effects at `1 − presence`, outermost (applied last).
  /// A custom effect's modifiers are the plugin's (`TransitionFunction`): they draw, but
  /// carry no handlers, as a leaving node's do not.
  private func decorated(_ node: ViewNode, at time: Double) throws(SceneError) -> ViewNode {
    var copy = node
    for (i, modifier) in node.modifiers.enumerated() {
      switch modifier {
      case .overlay(let v, let a): copy.modifiers[i] = .overlay(try decorated(v, at: time), a)
      case .background(let v, let a):
        copy.modifiers[i] = .background(try decorated(v, at: time), a)
      default: break
      }
    }
    if let id = node.lastID, let side = sides[id], let transition = node.lastTransition,
      let presence = engine.presented(id, at: time)
    {
      let effects = side == .insertion ? transition.insertion : transition.removal
      for effect in effects {
        let added = try effect.modifiers(amount: 1 - presence, removing: side == .removal)
        if case .custom = effect {
          copy.modifiers += Self.inert(ViewNode(.empty, modifiers: added)).modifiers
        } else {
          copy.modifiers += added
        }
      }
    }
    if case .stack(let axis, let spacing, let alignment, let children) = node.content {
      var decoratedChildren: [ViewNode] = []
      for child in children { decoratedChildren.append(try decorated(child, at: time)) }
      copy.content = .stack(
        axis, spacing: spacing, alignment: alignment, children: decoratedChildren)
    }
    return copy
  }
}

extension ViewNode {
  /// The id the node draws under: the last `id` written (the outermost).
  var lastID: String? {
    for case .id(let name) in modifiers.reversed() { return name }
    return nil
  }

  var lastTransition: ViewTransition? {
    for case .transition(let t) in modifiers.reversed() { return t }
    return nil
  }
}
