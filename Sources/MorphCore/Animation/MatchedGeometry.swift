/// What a `matchedGeometry` node is matched by: its id within its namespace.
public struct MatchedGeometryKey: Hashable, Sendable {
  public var id: String
  public var namespace: String
  /// Whether it is a slot's key: apart from every key a body can name, whatever the
  /// body's strings hold.
  public private(set) var isSlot = false

  public init(id: String, namespace: String = "") {
    self.id = id
    self.namespace = namespace
  }

  /// The key a view's slot (`Slot`) records its frame under.
  public init(slot path: String) {
    self.init(id: path)
    isSlot = true
  }
}

/// SwiftUI's `matchedGeometryEffect(id:in:)` with `properties: .frame` and `isSource`
/// (docs/design.md, Matched geometry): each key's laid-out canvas frame is compared with
/// the last layout's, and when it changes under the transaction that changed state, the
/// frame the node draws at animates from where it is shown to the new one on four engine
/// channels (no Lua per frame); without an animation it jumps. The transaction comes from
/// `TransitionTracker`, which owns this.
public struct MatchedGeometry: Sendable {
  /// Each key's last laid-out frame.
  private var laidOut: [MatchedGeometryKey: Rect] = [:]
  /// The keys the layout in progress met.
  private var met: Set<MatchedGeometryKey> = []
  /// The change the next layout shows (nil: nothing changed state since the last layout).
  var pending: Transaction?
  /// The slots of the stacks whose children `pending` inserted or removed: their other
  /// children glide to their new frames under it (SwiftUI's siblings making room).
  var moved: Set<String> = []
  /// Each moving key's frame, one channel per coordinate.
  public private(set) var engine = AnimationEngine()

  public init() {}

  public var isAnimating: Bool { engine.isAnimating }
  public var hasFiniteAnimation: Bool { engine.hasFiniteAnimation }

  mutating func advance(to time: Double) {
    _ = engine.advance(to: time)
  }

  /// The frame to draw `key` at, whose layout put it at `frame`, at `time`; a change of
  /// frame glides under the pending animation only if `animates`.
  public mutating func frame(
    for key: MatchedGeometryKey, laidOut frame: Rect, at time: Double, animates: Bool = true
  ) -> Rect {
    guard met.insert(key).inserted else { return frame }  // the first of a key is the source
    let names = Self.channels(key)
    let values = Self.coordinates(frame)
    let previous = laidOut.updateValue(frame, forKey: key)
    if let previous, previous != frame {
      if animates, let animation = pending?.animation {
        for (name, value) in zip(names, Self.coordinates(previous))
        where engine.channels[name] == nil {
          engine.define(name, value: value)
        }
        _ = engine.animate(
          Array(zip(names, values)), with: animation, at: pending?.time ?? time)
      } else {
        engine.keep(only: Set(engine.channels.keys).subtracting(names))
      }
    }
    return presented(key, at: time, resting: frame)
  }

  /// The frame a detached key (a removed view) draws at, at `time`: where it was shown
  /// last, still gliding if it was; nil for a key no layout met.
  public mutating func held(_ key: MatchedGeometryKey, at time: Double) -> Rect? {
    guard let last = laidOut[key] else { return nil }
    met.insert(key)
    return presented(key, at: time, resting: last)
  }

  /// Whether a layout met `key`: a detached one has a frame to be held at.
  func holds(_ key: MatchedGeometryKey) -> Bool { laidOut[key] != nil }

  /// Where `key` is shown at `time`: each coordinate still gliding from its channel, the
  /// others where `resting` (its layout) puts them. `finishLayout` drops a coordinate's
  /// channel once it comes to rest — at its target, the laid-out value — so a glide whose
  /// x moves on after its y has stopped keeps its x, however many frames were drawn.
  private func presented(_ key: MatchedGeometryKey, at time: Double, resting: Rect) -> Rect {
    let shown = zip(Self.channels(key), Self.coordinates(resting)).map { name, laid in
      engine.presented(name, at: time) ?? laid
    }
    return Rect(x: shown[0], y: shown[1], width: max(0, shown[2]), height: max(0, shown[3]))
  }

  /// Ends a layout: its transaction is spent, and keys it did not meet are forgotten
  /// (a matched node with no place in the tree has nothing to glide from).
  public mutating func finishLayout() {
    pending = nil
    moved = []
    if laidOut.count != met.count { laidOut = laidOut.filter { met.contains($0.key) } }
    // Every view's slot is met each layout: no channels (the usual frame), nothing to drop.
    if !engine.channels.isEmpty {
      let kept = Set(met.flatMap(Self.channels))
      let resting = engine.channels.filter { !$0.value.isAnimating }.map(\.key)
      engine.keep(only: kept.subtracting(resting))
    }
    met = []
  }

  /// Four channel names per key, distinct for distinct keys: the kind, then the
  /// namespace's length ends where the namespace does.
  static func channels(_ key: MatchedGeometryKey) -> [String] {
    let base =
      key.isSlot
      ? "slot:" + key.id + "."
      : "key:\(key.namespace.utf8.count):" + key.namespace + key.id + "."
    return ["x", "y", "width", "height"].map { base + $0 }
  }

  private static func coordinates(_ r: Rect) -> [Double] {
    [r.origin.x, r.origin.y, r.size.width, r.size.height]
  }
}
