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
  /// SwiftUI's `.blur(radius:)` of the group's content: a Gaussian with σ = this, in
  /// canvas points (0: none).
  public var blur: Double
  /// Alpha masks (SwiftUI's `.mask`), each drawn from its own commands in canvas space;
  /// the group's content keeps only where every mask is opaque.
  public var masks: [[DisplayCommand]]

  public init(
    opacity: Double = 1, blend: BlendMode = .normal, shadow: Shadow? = nil, clips: [Clip] = [],
    blur: Double = 0, masks: [[DisplayCommand]] = []
  ) {
    self.opacity = opacity
    self.blend = blend
    self.shadow = shadow
    self.clips = clips
    self.blur = blur
    self.masks = masks
  }
}

/// The kind of shape an item draws; the JSON dump prints the raw value.
public enum ShapeKind: String, Hashable, Sendable {
  case rect, roundedRect, circle, ellipse, capsule, path, text, image
  /// Not drawn: a node that has an `id` or handlers, recorded for tools and hit testing.
  case node
}

/// One drawn shape.
public struct DisplayItem: Hashable, Sendable {
  public var id: String?
  /// Where the item sits in the view tree (child indices from the root, plus its `id`):
  /// the same view keeps it from frame to frame, so exporters can follow it.
  public var identity: String
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
  /// The trim that made `path` from the shape's outline (for tools; `path` is trimmed).
  public var trim: Trim?
  /// The shape's whole outline when `trim` cut `path` from it (exporters that trim
  /// natively, as Lottie does, draw this and the trim).
  public var untrimmedPath: Path?
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
    stroke: Stroke? = nil, trim: Trim? = nil, shadow: Shadow? = nil, clips: [Clip] = [],
    blend: BlendMode = .normal, z: Double = 0, text: TextRun? = nil, handlers: Handlers? = nil,
    identity: String = "", untrimmedPath: Path? = nil
  ) {
    self.id = id
    self.identity = identity
    self.kind = kind
    self.path = path
    self.frame = frame
    self.transform = transform
    self.opacity = opacity
    self.fill = fill
    self.stroke = stroke
    self.trim = trim
    self.untrimmedPath = untrimmedPath
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
  case radialGradient(RadialGradient)
  case angularGradient(AngularGradient)
  /// A bitmap stretched over the item's layout frame (image nodes only).
  case image(ImagePaint)

  /// The colour a flat fill has, or a gradient's first stop (for the JSON dump).
  public var representativeColor: Color {
    switch self {
    case .color(let c): return c
    case .linearGradient(let g): return g.stops.first?.color ?? .clear
    case .radialGradient(let g): return g.stops.first?.color ?? .clear
    case .angularGradient(let g): return g.stops.first?.color ?? .clear
    case .image: return .clear
    }
  }
}

/// One colour of a gradient at a location in 0…1 (SwiftUI's `Gradient.Stop`).
public struct GradientStop: Hashable, Sendable {
  public var color: Color
  public var location: Double

  public init(color: Color, location: Double) {
    self.color = color
    self.location = location
  }
}

/// A gradient's stops prepared for lookups: in location order (ties keep their written
/// order), locations clamped to 0…1, as Cairo's gradients take them, so every gradient
/// kind mixes alike.
public struct GradientRamp: Sendable {
  private let locations: [Double]
  private let colors: [Color]

  public init(_ stops: [GradientStop]) {
    let sorted = stops.enumerated()
      .map { (min(max($0.element.location, 0), 1), $0.offset, $0.element.color) }
      .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    locations = sorted.map(\.0)
    colors = sorted.map(\.2)
  }

  /// The colour at `t`, as SwiftUI's default `Gradient.ColorSpace.device` mixes it:
  /// straight (not premultiplied) sRGB components and alpha, each linear between the
  /// stops around `t`, padded with the end colours outside them.
  /// docs/design.md, Gradients.
  public func color(at t: Double) -> Color {
    guard let first = locations.first, let last = locations.last else { return .clear }
    guard t.isFinite, t > first else { return colors[0] }
    guard t < last else { return colors[colors.count - 1] }
    var i = 1
    while t >= locations[i] { i += 1 }
    let (l0, l1) = (locations[i - 1], locations[i])
    let f = l1 > l0 ? (t - l0) / (l1 - l0) : 1
    let (a, b) = (colors[i - 1], colors[i])
    return Color(
      red: a.red + (b.red - a.red) * f, green: a.green + (b.green - a.green) * f,
      blue: a.blue + (b.blue - a.blue) * f, alpha: a.alpha + (b.alpha - a.alpha) * f)
  }
}

/// SwiftUI's `RadialGradient`: circles about a unit point of the layout frame, the first
/// stop at `startRadius` and the last at `endRadius` (points), padded beyond.
public struct RadialGradient: Hashable, Sendable {
  public var stops: [GradientStop]
  public var center: Point
  public var startRadius: Double
  public var endRadius: Double

  public init(stops: [GradientStop], center: Point, startRadius: Double, endRadius: Double) {
    self.stops = stops
    self.center = center
    self.startRadius = startRadius
    self.endRadius = endRadius
  }

  /// The gradient location at `distance` points from the centre.
  public func location(atDistance distance: Double) -> Double {
    let span = endRadius - startRadius
    guard span != 0 else { return distance < startRadius ? 0 : 1 }
    return (distance - startRadius) / span
  }
}

/// SwiftUI's `AngularGradient` (a conic gradient) about a unit point of the layout frame.
/// Angles are in degrees, 0 pointing along +x (trailing) and growing clockwise on screen.
public struct AngularGradient: Hashable, Sendable {
  public var stops: [GradientStop]
  public var center: Point
  public var startAngle: Double
  public var endAngle: Double

  public init(stops: [GradientStop], center: Point, startAngle: Double, endAngle: Double) {
    self.stops = stops
    self.center = center
    self.startAngle = startAngle
    self.endAngle = endAngle
  }

  /// The gradient location at `angle` degrees, by SwiftUI's documented rule: a span over
  /// 360° draws only its last complete turn; a shorter span fills the missing sector with
  /// the colours at locations 1 and 0, switching halfway across it. Returns the location
  /// into `stops` (a sector's half gives exactly 1 or 0).
  public func location(atAngle angle: Double) -> Double {
    var (start, span) = (startAngle, endAngle - startAngle)
    guard span.isFinite, angle.isFinite, start.isFinite else { return 0 }
    if span < 0 { return 0 }
    if span > 360 {
      start = endAngle - 360
      span = 360
    }
    // How far past the start, in 0 ..< 360.
    var past = (angle - start).truncatingRemainder(dividingBy: 360)
    if past < 0 { past += 360 }
    if span == 360 || past <= span { return span > 0 ? past / span : 0 }
    return past - span < (360 - span) / 2 ? 1 : 0
  }
}

/// A decoded PNG file beside the plugin: the render layer decodes `path` (a real path the
/// script layer confined to the plugin's folder) once per `stamp`.
public struct ImageSource: Hashable, Sendable {
  public var path: String
  public var pixelWidth: Int
  public var pixelHeight: Int
  /// Changes whenever the file does (modification time and size), so a saved file is
  /// decoded again.
  public var stamp: String

  public init(path: String, pixelWidth: Int, pixelHeight: Int, stamp: String) {
    self.path = path
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.stamp = stamp
  }
}

/// SwiftUI's `Image.Interpolation`: how pixels are sampled when the image is scaled.
public enum ImageInterpolation: String, Hashable, Sendable, CaseIterable {
  case none, low, medium, high
}

/// An image drawn over an item's layout frame.
public struct ImagePaint: Hashable, Sendable {
  public var source: ImageSource
  public var interpolation: ImageInterpolation

  public init(source: ImageSource, interpolation: ImageInterpolation) {
    self.source = source
    self.interpolation = interpolation
  }
}

/// A gradient between unit points of the shape's layout frame.
public struct LinearGradient: Hashable, Sendable {
  public typealias Stop = GradientStop

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

  /// SwiftUI's default shadow colour (black at a third opacity).
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
