/// A view as a plugin's `body` describes it: content plus modifiers in the
/// order written. The first modifier applies first (innermost), the last
/// applies last — SwiftUI's order.
public struct ViewNode: Hashable, Sendable {
  public var content: ViewContent
  public var modifiers: [Modifier]

  public init(_ content: ViewContent, modifiers: [Modifier] = []) {
    self.content = content
    self.modifiers = modifiers
  }
}

public indirect enum ViewContent: Hashable, Sendable {
  case shape(ShapeSpec)
  case text(TextRun)
  case image(ImageSpec)
  case stack(StackAxis, spacing: Double?, alignment: Alignment, children: [ViewNode])
  /// Takes no space and draws nothing (SwiftUI `EmptyView`).
  case empty
  /// Takes all the space it is offered and draws nothing (`Color.clear`, `Spacer`).
  case spacer(minLength: Double)
}

public enum StackAxis: String, Hashable, Sendable {
  case z, vertical, horizontal
}

/// A shape that fills whatever frame layout gives it.
public enum ShapeSpec: Hashable, Sendable {
  case rect
  case roundedRect(radius: Double, style: CornerStyle)
  case circle
  case ellipse
  case capsule
  /// A custom outline in the frame's coordinates (drawn as given).
  case path(Path)
  /// An outline made for the frame layout gives it (SwiftUI's `Shape.path(in:)`).
  case custom(ShapeFunction)

  public var kind: ShapeKind {
    switch self {
    case .rect: return .rect
    case .roundedRect: return .roundedRect
    case .circle: return .circle
    case .ellipse: return .ellipse
    case .capsule: return .capsule
    case .path, .custom: return .path
    }
  }

  /// The outline inside a frame of `size` at the origin; a custom shape's function may
  /// fail (its error names the plugin's line).
  public func resolvedPath(in size: Size) throws(SceneError) -> Path {
    if case .custom(let function) = self { return try function.path(in: size) }
    return path(in: size)
  }

  /// Whether the shape can be inset (SwiftUI's `InsettableShape`): the built-in ones; a
  /// path has no inset of its own.
  public var isInsettable: Bool {
    switch self {
    case .path, .custom: return false
    default: return true
    }
  }

  /// The outline of the shape inset by `amount` on every side (SwiftUI's
  /// `inset(by:)`, what `strokeBorder` strokes): the same shape in the smaller frame, a
  /// rounded rectangle's radius smaller by as much. A shape that cannot be inset is as
  /// it is.
  public func insetPath(in size: Size, by amount: Double) throws(SceneError) -> Path {
    guard amount != 0, isInsettable else { return try resolvedPath(in: size) }
    let r = Rect(x: 0, y: 0, width: size.width, height: size.height).insetBy(dx: amount, dy: amount)
    switch self {
    case .roundedRect(let radius, let style):
      return .roundedRect(r, radius: max(0, radius - amount), style: style)
    case .circle: return .circle(in: r)
    case .ellipse: return .ellipse(in: r)
    case .capsule: return .capsule(in: r)
    default: return .rect(r)
    }
  }

  /// The outline inside a frame of `size` at the origin (a custom shape that fails: none).
  public func path(in size: Size) -> Path {
    let r = Rect(x: 0, y: 0, width: size.width, height: size.height)
    switch self {
    case .rect: return .rect(r)
    case .roundedRect(let radius, let style): return .roundedRect(r, radius: radius, style: style)
    case .circle: return .circle(in: r)
    case .ellipse: return .ellipse(in: r)
    case .capsule: return .capsule(in: r)
    case .path(let p): return p
    case .custom(let function): return (try? function.path(in: size)) ?? Path()
    }
  }
}

/// A shape's `path(in:)` from outside MorphCore (a plugin's Lua function): called with
/// the size layout gives the shape, at most once per size and frame. Equal only to
/// itself.
public final class ShapeFunction: Hashable, @unchecked Sendable {
  private let resolve: (Size) throws(SceneError) -> Path
  private var cache: (Size, Path)?

  public init(_ resolve: @escaping (Size) throws(SceneError) -> Path) {
    self.resolve = resolve
  }

  public func path(in size: Size) throws(SceneError) -> Path {
    if let (cachedSize, path) = cache, cachedSize == size { return path }
    let path = try resolve(size)
    cache = (size, path)
    return path
  }

  public static func == (a: ShapeFunction, b: ShapeFunction) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// SwiftUI's `RedactionReasons` a placeholder draws for.
public enum RedactionReason: String, Hashable, Sendable, CaseIterable { case placeholder }

/// SwiftUI's `ContentMode` for `aspectRatio(contentMode:)`.
public enum ContentMode: String, Hashable, Sendable, CaseIterable { case fit, fill }

/// SwiftUI's `Image`: a bitmap at its own size (a pixel a point), or, `resizable`, taking
/// the size offered — keeping its aspect ratio inside it (`fit`) or around it (`fill`)
/// when a content mode is given.
public struct ImageSpec: Hashable, Sendable {
  public var source: ImageSource
  public var resizable: Bool
  public var contentMode: ContentMode?
  public var interpolation: ImageInterpolation

  /// SwiftUI's default interpolation for a scaled image.
  public static let defaultInterpolation = ImageInterpolation.high

  public init(
    source: ImageSource, resizable: Bool = false, contentMode: ContentMode? = nil,
    interpolation: ImageInterpolation = ImageSpec.defaultInterpolation
  ) {
    self.source = source
    self.resizable = resizable
    self.contentMode = contentMode
    self.interpolation = interpolation
  }

  /// The size it takes for `proposal`.
  public func size(for proposal: ProposedSize) -> Size {
    let natural = Size(Double(source.pixelWidth), Double(source.pixelHeight))
    guard resizable else { return natural }
    guard let mode = contentMode, natural.width > 0, natural.height > 0 else {
      return Size(proposal.width ?? natural.width, proposal.height ?? natural.height)
    }
    let ratios = [
      proposal.width.map { $0 / natural.width }, proposal.height.map { $0 / natural.height },
    ]
    .compactMap { $0 }
    guard !ratios.isEmpty else { return natural }
    let k = mode == .fit ? ratios.min()! : ratios.max()!
    return Size(natural.width * k, natural.height * k)
  }
}

/// A unit point of a frame: SwiftUI's `UnitPoint` / `Alignment`.
public struct Alignment: Hashable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public static let center = Alignment(x: 0.5, y: 0.5)
  public static let top = Alignment(x: 0.5, y: 0)
  public static let bottom = Alignment(x: 0.5, y: 1)
  public static let leading = Alignment(x: 0, y: 0.5)
  public static let trailing = Alignment(x: 1, y: 0.5)
  public static let topLeading = Alignment(x: 0, y: 0)
  public static let topTrailing = Alignment(x: 1, y: 0)
  public static let bottomLeading = Alignment(x: 0, y: 1)
  public static let bottomTrailing = Alignment(x: 1, y: 1)

  /// SwiftUI's names for unit points.
  public static let named: [(String, Alignment)] = [
    ("center", .center), ("top", .top), ("bottom", .bottom), ("leading", .leading),
    ("trailing", .trailing), ("topLeading", .topLeading), ("topTrailing", .topTrailing),
    ("bottomLeading", .bottomLeading), ("bottomTrailing", .bottomTrailing),
  ]
}

public struct EdgeInsets: Hashable, Sendable {
  public var top, leading, bottom, trailing: Double

  public init(top: Double, leading: Double, bottom: Double, trailing: Double) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }
}

/// A frame modifier: fixed sides, or SwiftUI's flexible min/ideal/max frame.
public struct FrameSpec: Hashable, Sendable {
  public var width, height: Double?
  public var minWidth, maxWidth, minHeight, maxHeight: Double?
  public var alignment: Alignment

  public init(
    width: Double? = nil, height: Double? = nil, minWidth: Double? = nil,
    maxWidth: Double? = nil, minHeight: Double? = nil, maxHeight: Double? = nil,
    alignment: Alignment = .center
  ) {
    self.width = width
    self.height = height
    self.minWidth = minWidth
    self.maxWidth = maxWidth
    self.minHeight = minHeight
    self.maxHeight = maxHeight
    self.alignment = alignment
  }

  public var isFlexible: Bool {
    minWidth != nil || maxWidth != nil || minHeight != nil || maxHeight != nil
  }
}

/// Which handlers a node carries; the numbers are the host's handler ids.
public struct Handlers: Hashable, Sendable {
  public var tap: Int?
  public var drag: Int?
  public var longPress: Int?
  public var doubleTap: Int?

  public init(tap: Int? = nil, drag: Int? = nil, longPress: Int? = nil, doubleTap: Int? = nil) {
    self.tap = tap
    self.drag = drag
    self.longPress = longPress
    self.doubleTap = doubleTap
  }
}

public enum Modifier: Hashable, Sendable {
  // Layout: these change the frame the modifiers after them see.
  case frame(FrameSpec)
  case padding(EdgeInsets)
  case overlay(ViewNode, Alignment)
  case background(ViewNode, Alignment)
  /// Centres the view at a point of its parent's space and takes the offer.
  case position(Point)
  // Effects: these never change layout.
  case offset(Point)
  case scale(x: Double, y: Double, anchor: Alignment)
  case rotate(degrees: Double, anchor: Alignment)
  case rotate3D(
    degrees: Double, axis: Vector3, anchor: Alignment, perspective: Double)
  /// SwiftUI's `transformEffect(_:)` (an affine transform) and `projectionEffect(_:)`
  /// (a projective one), applied about the view's origin, the top-leading corner of its
  /// frame: the view's own points go through it before the transforms around it.
  case transform(ProjectiveTransform)
  case opacity(Double)
  case fill(Paint)
  case stroke(Stroke)
  /// SwiftUI's `strokeBorder`: the stroke inside the shape's frame (the outline inset by
  /// half the width, then stroked).
  case strokeBorder(Stroke)
  /// SwiftUI's `redacted(reason: .placeholder)`: the texts and images inside draw as
  /// placeholder bars and boxes in their colour.
  case redacted
  case shadow(Shadow)
  case clip(ShapeSpec)
  /// SwiftUI's `Shape.trim(from:to:)`: a shape draws only this part of its outline.
  case trim(Trim)
  /// SwiftUI's `.blur(radius:)`: a Gaussian with σ = radius points.
  case blur(Double)
  /// SwiftUI's `.mask(alignment:_:)`: the view keeps only where the mask is opaque.
  case mask(ViewNode, Alignment)
  case blend(BlendMode)
  case compositingGroup
  case zIndex(Double)
  case id(String)
  case handlers(Handlers)
  /// An offset in units of the view's own size (what a `move` transition shows).
  case relativeOffset(Point)
  /// SwiftUI's `.transition(_:)`: how the node enters and leaves the tree under an
  /// animation (`TransitionTracker`); it draws nothing itself.
  case transition(ViewTransition)
  /// SwiftUI's `.matchedGeometryEffect(id:in:)` (`.frame`, source): the node draws at the
  /// frame `MatchedGeometry` presents for its key, which glides when the key's laid-out
  /// frame changes under an animation.
  case matchedGeometry(MatchedGeometryKey)
  /// SwiftUI's `.onAppear`/`.onDisappear`: host handler ids run when the node enters or
  /// leaves the tree (`NodeLifecycle`); it draws nothing.
  case lifecycle(LifecycleHooks)
  /// A removed node still playing its removal (`TransitionTracker` adds it; bodies never
  /// write it): it takes no space among its siblings and draws at the frame
  /// `MatchedGeometry` holds for its key, where it was last laid out.
  case detached(MatchedGeometryKey)
}

/// A node's `onAppear` or `onDisappear` handler; the numbers are the host's handler ids.
public struct LifecycleHooks: Hashable, Sendable {
  public var appear: Int?
  public var disappear: Int?

  public init(appear: Int? = nil, disappear: Int? = nil) {
    self.appear = appear
    self.disappear = disappear
  }
}

/// The part of a shape's outline drawn (SwiftUI's `trim(from:to:)`): fractions of its arc
/// length from the shape's start point (docs/design.md, Trim), clamped to 0…1 as SwiftUI
/// clamps them; `from >= to` draws nothing.
public struct Trim: Hashable, Sendable {
  public let from: Double
  public let to: Double

  public init(from: Double, to: Double) {
    func clamped(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
    self.from = clamped(from)
    self.to = clamped(to)
  }

  /// This trim applied to an outline already trimmed by `inner`: a trimmed outline's
  /// length runs linearly along the original's, so two trims are one.
  public func applied(after inner: Trim) -> Trim {
    let span = max(0, inner.to - inner.from)
    return Trim(from: inner.from + span * from, to: inner.from + span * to)
  }

  /// `path` trimmed.
  public func apply(to path: Path) -> Path { path.trimmed(from: from, to: to) }
}

/// A direction in 3D, for rotation axes.
public struct Vector3: Hashable, Sendable {
  public var x, y, z: Double

  public init(_ x: Double, _ y: Double, _ z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }
}
