/// SwiftUI's `Edge`: a side of a view.
public enum Edge: String, Hashable, Sendable, CaseIterable {
  case top, leading, bottom, trailing

  public var opposite: Edge {
    switch self {
    case .top: return .bottom
    case .bottom: return .top
    case .leading: return .trailing
    case .trailing: return .leading
    }
  }

  /// The way to this edge, in units of the view's own size (y down, leading on the left).
  var direction: Point {
    switch self {
    case .top: return Point(0, -1)
    case .bottom: return Point(0, 1)
    case .leading: return Point(-1, 0)
    case .trailing: return Point(1, 0)
    }
  }
}

/// A custom transition's body (SwiftUI's `Transition.body(content:phase:)`, or
/// `AnyTransition.modifier(active:identity:)`): the modifiers it puts on the view at a
/// phase value, SwiftUI's `TransitionPhase.value` as Apple documents it: −1 about to
/// appear (`willAppear`), 0 identity, 1 gone (`didDisappear`); an insertion runs it from
/// −1 to 0, a removal from 0 to 1.
/// Called from outside MorphCore (a plugin's Lua function) while a transition runs, at
/// most once per phase value and frame. Equal only to itself.
public final class TransitionFunction: Hashable, @unchecked Sendable {
  private let resolve: (Double) throws(SceneError) -> [Modifier]
  private var cache: (Double, [Modifier])?

  public init(_ resolve: @escaping (Double) throws(SceneError) -> [Modifier]) {
    self.resolve = resolve
  }

  public func modifiers(phase: Double) throws(SceneError) -> [Modifier] {
    if let (cachedPhase, modifiers) = cache, cachedPhase == phase { return modifiers }
    let modifiers = try resolve(phase)
    cache = (phase, modifiers)
    return modifiers
  }

  public static func == (a: TransitionFunction, b: TransitionFunction) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// One of SwiftUI's built-in transitions, as the view looks fully "out" (at the start of
/// its insertion, the end of its removal); identity is the view as its body says.
public enum TransitionEffect: Hashable, Sendable {
  /// `.opacity`: transparent.
  case opacity
  /// `.scale(s, anchor:)`: scaled by `s` about the anchor.
  case scale(Double, anchor: Alignment)
  /// `.offset(x:y:)`: moved by a fixed amount.
  case offset(Point)
  /// `.move(edge:)`: moved by its own size toward the edge.
  case move(Edge)
  /// A plugin's own transition (`TransitionFunction`).
  case custom(TransitionFunction)
  /// SwiftUI's `AnyTransition.animation(_:)`: the curve this side runs on, whatever the
  /// change's own (or its lack of one); it draws nothing.
  case animation(AnimationCurve)

  /// The effect `amount` of the way out (0 identity, 1 fully out; a spring may overshoot
  /// either end) on `side`, as the modifiers that show it; a custom effect's function
  /// may fail (its error names the plugin's line).
  public func modifiers(amount a: Double, removing: Bool) throws(SceneError) -> [Modifier] {
    switch self {
    case .opacity: return [.opacity(min(1, max(0, 1 - a)))]
    case .scale(let s, let anchor):
      let k = 1 + (s - 1) * a
      return [.scale(x: k, y: k, anchor: anchor)]
    case .offset(let p): return [.offset(p * a)]
    case .move(let edge): return [.relativeOffset(edge.direction * a)]
    case .custom(let function): return try function.modifiers(phase: removing ? a : -a)
    case .animation: return []
    }
  }
}

/// SwiftUI's `AnyTransition`: what a view with an id does as it enters (`insertion`)
/// and leaves (`removal`) the tree under an animation. The effects of each side apply
/// together, in order (`combined`).
public struct ViewTransition: Hashable, Sendable {
  public var insertion: [TransitionEffect]
  public var removal: [TransitionEffect]

  public init(insertion: [TransitionEffect], removal: [TransitionEffect]) {
    self.insertion = insertion
    self.removal = removal
  }

  /// The same effects both ways.
  public init(_ effects: [TransitionEffect]) { self.init(insertion: effects, removal: effects) }

  /// The curve each side's `animation` effect sets (the last one written), if any.
  public var insertionAnimation: AnimationCurve? { Self.animation(in: insertion) }
  public var removalAnimation: AnimationCurve? { Self.animation(in: removal) }

  private static func animation(in effects: [TransitionEffect]) -> AnimationCurve? {
    for case .animation(let curve) in effects.reversed() { return curve }
    return nil
  }

  public static let identity = ViewTransition([])
  public static let opacity = ViewTransition([.opacity])
  /// `.slide`: in from the leading edge, out toward the trailing one.
  public static let slide = ViewTransition(
    insertion: [.move(.leading)], removal: [.move(.trailing)])

  public static func scale(_ s: Double = 0, anchor: Alignment = .center) -> ViewTransition {
    ViewTransition([.scale(s, anchor: anchor)])
  }

  public static func move(_ edge: Edge) -> ViewTransition { ViewTransition([.move(edge)]) }

  public static func offset(_ p: Point) -> ViewTransition { ViewTransition([.offset(p)]) }

  /// `.push(from:)`: in from `edge` fading in, out toward the opposite edge fading out.
  public static func push(from edge: Edge) -> ViewTransition {
    ViewTransition(insertion: [.move(edge), .opacity], removal: [.move(edge.opposite), .opacity])
  }

  public static func asymmetric(insertion: ViewTransition, removal: ViewTransition)
    -> ViewTransition
  {
    ViewTransition(insertion: insertion.insertion, removal: removal.removal)
  }

  /// Both transitions at once (SwiftUI's `combined(with:)`).
  public func combined(with other: ViewTransition) -> ViewTransition {
    ViewTransition(insertion: insertion + other.insertion, removal: removal + other.removal)
  }
}
