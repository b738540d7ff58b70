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

  public var kind: ShapeKind {
    switch self {
    case .rect: return .rect
    case .roundedRect: return .roundedRect
    case .circle: return .circle
    case .ellipse: return .ellipse
    case .capsule: return .capsule
    case .path: return .path
    }
  }

  /// The outline inside a frame of `size` at the origin.
  public func path(in size: Size) -> Path {
    let r = Rect(x: 0, y: 0, width: size.width, height: size.height)
    switch self {
    case .rect: return .rect(r)
    case .roundedRect(let radius, let style): return .roundedRect(r, radius: radius, style: style)
    case .circle: return .circle(in: r)
    case .ellipse: return .ellipse(in: r)
    case .capsule: return .capsule(in: r)
    case .path(let p): return p
    }
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
  case opacity(Double)
  case fill(Paint)
  case stroke(Stroke)
  case shadow(Shadow)
  case clip(ShapeSpec)
  case blend(BlendMode)
  case compositingGroup
  case zIndex(Double)
  case id(String)
  case handlers(Handlers)
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
