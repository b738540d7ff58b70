/// The flat, paint-ordered output of layout: what every backend draws.
///
/// Shapes are in their own local coordinates (their layout frame's top-left
/// corner at the origin) and carry the full transform to canvas points.
/// Compositing groups bracket the items they isolate.
public struct DisplayList: Hashable, Sendable {
  public var canvas: Size
  public var commands: [DisplayCommand]

  public init(canvas: Size, commands: [DisplayCommand] = []) {
    self.canvas = canvas
    self.commands = commands
  }

  /// The items alone, in paint order.
  public var items: [DisplayItem] {
    commands.compactMap { if case .item(let item) = $0 { return item } else { return nil } }
  }
}

public enum DisplayCommand: Hashable, Sendable {
  case item(DisplayItem)
  /// Starts an offscreen group: items until the matching `endGroup` are drawn
  /// into it, then it is composited with `GroupStyle`.
  case beginGroup(GroupStyle)
  case endGroup
}

/// How a finished group is composited onto what lies below it.
public struct GroupStyle: Hashable, Sendable {
  public var opacity: Double
  public var blend: BlendMode
  /// A shadow of the group's composited content (SwiftUI `.shadow` on a container).
  public var shadow: Shadow?
  public var clips: [Clip]

  public init(
    opacity: Double = 1, blend: BlendMode = .normal, shadow: Shadow? = nil, clips: [Clip] = []
  ) {
    self.opacity = opacity
    self.blend = blend
    self.shadow = shadow
    self.clips = clips
  }
}

/// The kind of shape an item draws; the JSON dump prints the raw value.
public enum ShapeKind: String, Hashable, Sendable {
  case rect, roundedRect, circle, ellipse, capsule, path, text
  /// Not drawn: a node that has an `id` or handlers, recorded for tools and hit testing.
  case node
}

/// One drawn shape.
public struct DisplayItem: Hashable, Sendable {
  public var id: String?
  public var kind: ShapeKind
  /// The outline in local coordinates.
  public var path: Path
  /// The layout frame in local coordinates (origin at 0, 0).
  public var frame: Rect
  /// Local coordinates → canvas points.
  public var transform: ProjectiveTransform
  /// Effective opacity: the product of every `opacity` above it up to the
  /// nearest compositing group.
  public var opacity: Double
  public var fill: Paint?
  public var stroke: Stroke?
  public var shadow: Shadow?
  /// Clip outlines, each with its own transform to canvas points; all apply.
  public var clips: [Clip]
  public var blend: BlendMode
  public var z: Double
  public var text: TextRun?
  public var handlers: Handlers?

  public init(
    id: String? = nil, kind: ShapeKind, path: Path, frame: Rect,
    transform: ProjectiveTransform = .identity, opacity: Double = 1, fill: Paint? = nil,
    stroke: Stroke? = nil, shadow: Shadow? = nil, clips: [Clip] = [], blend: BlendMode = .normal,
    z: Double = 0, text: TextRun? = nil, handlers: Handlers? = nil
  ) {
    self.id = id
    self.kind = kind
    self.path = path
    self.frame = frame
    self.transform = transform
    self.opacity = opacity
    self.fill = fill
    self.stroke = stroke
    self.shadow = shadow
    self.clips = clips
    self.blend = blend
    self.z = z
    self.text = text
    self.handlers = handlers
  }

  /// The layout frame's corners (top-left, top-right, bottom-right,
  /// bottom-left) in canvas points.
  public var quad: [Point] { frame.corners.map(transform.apply) }
}

/// A clip outline with its own transform to canvas points.
public struct Clip: Hashable, Sendable {
  public var path: Path
  public var transform: ProjectiveTransform

  public init(path: Path, transform: ProjectiveTransform) {
    self.path = path
    self.transform = transform
  }
}

public enum Paint: Hashable, Sendable {
  case color(Color)
  case linearGradient(LinearGradient)

  /// The colour a flat fill has, or a gradient's first stop (for the JSON dump).
  public var representativeColor: Color {
    switch self {
    case .color(let c): return c
    case .linearGradient(let g): return g.stops.first?.color ?? .clear
    }
  }
}

/// A gradient between unit points of the shape's layout frame.
public struct LinearGradient: Hashable, Sendable {
  public struct Stop: Hashable, Sendable {
    public var color: Color
    public var location: Double

    public init(color: Color, location: Double) {
      self.color = color
      self.location = location
    }
  }

  public var stops: [Stop]
  public var start: Point
  public var end: Point

  public init(stops: [Stop], start: Point, end: Point) {
    self.stops = stops
    self.start = start
    self.end = end
  }
}

public enum LineCap: String, Hashable, Sendable, CaseIterable { case butt, round, square }
public enum LineJoin: String, Hashable, Sendable, CaseIterable { case miter, round, bevel }

public struct Stroke: Hashable, Sendable {
  public var paint: Paint
  public var width: Double
  public var dash: [Double]
  public var dashPhase: Double
  public var cap: LineCap
  public var join: LineJoin

  public init(
    paint: Paint, width: Double = 1, dash: [Double] = [], dashPhase: Double = 0,
    cap: LineCap = .butt, join: LineJoin = .miter
  ) {
    self.paint = paint
    self.width = width
    self.dash = dash
    self.dashPhase = dashPhase
    self.cap = cap
    self.join = join
  }
}

/// SwiftUI's `.shadow`: a Gaussian blur with σ ≈ `radius`, offset in canvas points.
public struct Shadow: Hashable, Sendable {
  public var color: Color
  public var radius: Double
  public var offset: Point

  /// SwiftUI's default shadow colour: black at 0.33.
  public static let defaultColor = Color(white: 0, alpha: 0.33)

  public init(color: Color = Shadow.defaultColor, radius: Double, offset: Point = .zero) {
    self.color = color
    self.radius = radius
    self.offset = offset
  }
}

/// Porter-Duff and separable blend modes a view may use.
public enum BlendMode: String, Hashable, Sendable, CaseIterable {
  case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn
  case softLight, hardLight, difference, exclusion, plusLighter
  case destinationOut, destinationOver, sourceAtop
}
