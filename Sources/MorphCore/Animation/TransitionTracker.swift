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
      once.modifiers = AnimationModifiers.none.delayed(by: curve.modifiers.delay)
        .speed(curve.modifiers.speed)
      return once
    }
    self.time = time
  }
}

/// SwiftUI's insertion and removal transitions (docs/design.md, Transitions): compares
/// each body's nodes that have an `id` and a `transition` with the last body's, and
/// when one appears or disappears under an animation, animates its presence — 0 is the
/// transition's state, 1 the node as its body says — on an engine channel named by the
/// id. A removed node keeps drawing at its old place in the tree (with no handlers, so
/// hit testing passes through it) until its removal ends. No Lua runs per frame.
public struct TransitionTracker: Sendable {
  /// A node with an id and a transition, where the body put it.
  struct Entry: Sendable {
    var node: ViewNode
    /// Child indices from the body's root to the stack holding it.
    var parent: [Int]
    var index: Int
    var transition: ViewTransition
    /// The ids of tracked nodes around it: it leaves inside them when they leave too.
    var ancestors: [String]
  }

  enum Side: Sendable { case insertion, removal }

  /// The tracked nodes of the last body.
  private var present: [String: Entry] = [:]
  /// Removed nodes still drawing (their removal runs).
  private var leaving: [String: Entry] = [:]
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
    -> ViewNode
  {
    // The next layout moves matched frames under the latest change.
    if let transaction { geometry.pending = transaction }
    var found: [String: Entry] = [:]
    Self.collect(body, path: [], ancestors: [], into: &found)
    if started { diff(found, transaction, at: time) }
    started = true
    present = found
    retireFinished()
    // Nothing moving (the usual frame): the body as it is, not copied.
    guard !sides.isEmpty else { return body }
    return decorated(withGhosts(body), at: time)
  }

  private mutating func diff(_ found: [String: Entry], _ transaction: Transaction?, at time: Double)
  {
    let animation = transaction?.animation
    let start = transaction?.time ?? time
    for id in found.keys.sorted() where present[id] == nil {
      guard let animation else {
        forget(id)
        continue
      }
      if leaving.removeValue(forKey: id) == nil {
        if sides[id] == nil { engine.define(id, value: 0) }
        sides[id] = sides[id] ?? .insertion
      }
      _ = engine.animate([(id, 1)], with: animation, at: start)
    }
    let removed = Set(present.keys).subtracting(found.keys)
    for id in removed.sorted() {
      guard let animation, let entry = present[id],
        !entry.ancestors.contains(where: removed.contains)
      else {
        forget(id)
        continue
      }
      leaving[id] = Entry(
        node: Self.inert(entry.node), parent: entry.parent, index: entry.index,
        transition: entry.transition, ancestors: entry.ancestors)
      if sides[id] == nil {
        engine.define(id, value: 1)
        sides[id] = .removal
      }
      _ = engine.animate([(id, 0)], with: animation, at: start)
    }
    engine.keep(only: Set(sides.keys))
  }

  private mutating func forget(_ id: String) {
    leaving[id] = nil
    sides[id] = nil
  }

  /// Drops what came to rest: a node in (identity) or out (gone).
  private mutating func retireFinished() {
    for id in sides.keys where engine.channels[id]?.isAnimating != true {
      if engine.target(id) == 0 { leaving[id] = nil }
      sides[id] = nil
    }
    if engine.channels.count != sides.count { engine.keep(only: Set(sides.keys)) }
  }

  // MARK: Trees

  /// The tracked nodes under `node`, reached through stacks (the root itself has no
  /// place to stay in, so it never transitions); the first of an id wins.
  static func collect(
    _ node: ViewNode, path: [Int], ancestors: [String], into found: inout [String: Entry]
  ) {
    var ancestors = ancestors
    if let index = path.last, let id = node.lastID, let transition = node.lastTransition,
      found[id] == nil
    {
      found[id] = Entry(
        node: node, parent: Array(path.dropLast()), index: index, transition: transition,
        ancestors: ancestors)
      ancestors.append(id)
    }
    guard case .stack(_, _, _, let children) = node.content else { return }
    for (i, child) in children.enumerated() {
      collect(child, path: path + [i], ancestors: ancestors, into: &found)
    }
  }

  /// `node` with no handlers anywhere: a leaving node is never hit.
  static func inert(_ node: ViewNode) -> ViewNode {
    var copy = node
    copy.modifiers = node.modifiers.compactMap { modifier in
      switch modifier {
      case .handlers: return nil
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

  /// `body` with each leaving node back in its stack at its old index (in index order,
  /// so several in one stack land where they were); one whose stack is gone is dropped.
  private func withGhosts(_ body: ViewNode) -> ViewNode {
    var tree = body
    let ordered = leaving.values.sorted {
      ($0.parent + [$0.index]).lexicographicallyPrecedes($1.parent + [$1.index])
    }
    for ghost in ordered {
      tree =
        Self.inserting(ghost.node, at: ghost.parent[...], index: ghost.index, into: tree) ?? tree
    }
    return tree
  }

  private static func inserting(
    _ ghost: ViewNode, at parent: ArraySlice<Int>, index: Int, into node: ViewNode
  ) -> ViewNode? {
    guard case .stack(let axis, let spacing, let alignment, var children) = node.content else {
      return nil
    }
    if let first = parent.first {
      guard first < children.count,
        let child = inserting(ghost, at: parent.dropFirst(), index: index, into: children[first])
      else { return nil }
      children[first] = child
    } else {
      children.insert(ghost, at: min(index, children.count))
    }
    var copy = node
    copy.content = .stack(axis, spacing: spacing, alignment: alignment, children: children)
    return copy
  }

  /// Each moving node with its side's effects at `1 − presence`, outermost (applied last).
  private func decorated(_ node: ViewNode, at time: Double, isRoot: Bool = true) -> ViewNode {
    var copy = node
    if !isRoot, let id = node.lastID, let side = sides[id], let transition = node.lastTransition,
      let presence = engine.presented(id, at: time)
    {
      let effects = side == .insertion ? transition.insertion : transition.removal
      copy.modifiers += effects.map { $0.modifier(amount: 1 - presence) }
    }
    if case .stack(let axis, let spacing, let alignment, let children) = node.content {
      copy.content = .stack(
        axis, spacing: spacing, alignment: alignment,
        children: children.map { decorated($0, at: time, isRoot: false) })
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
