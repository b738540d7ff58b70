import Foundation
import MorphCore

/// One item's shapes, paints and clips across its frames, as Lottie shape items.
struct LottieStyle {
  let identity: String
  /// Every frame of the layer's span with the item drawn there (held where missing).
  let frames: [(Int, DisplayItem)]
  /// What did not map natively, for the report.
  private(set) var notes: [(LottieMapping, String)] = []

  init(identity: String, frames: [(Int, DisplayItem)]) {
    self.identity = identity
    self.frames = frames
  }

  /// ThorVG (and After Effects) turn a blur's "softness" into σ by this factor.
  static let sigmaPerSoftness = 0.3

  /// Lottie's `bm` for a blend mode, or nil when Lottie has none.
  static func blendMode(_ mode: BlendMode) -> Int? {
    switch mode {
    case .normal: 0
    case .multiply: 1
    case .screen: 2
    case .overlay: 3
    case .darken: 4
    case .lighten: 5
    case .colorDodge: 6
    case .colorBurn: 7
    case .hardLight: 8
    case .softLight: 9
    case .difference: 10
    case .exclusion: 11
    case .plusLighter: 16
    case .destinationOut, .destinationOver, .sourceAtop: nil
    }
  }

  struct Decomposition {
    var tx, ty, sx, sy, rotation: Double
  }

  /// `transform` as Lottie's position · rotation · scale (anchor at the origin), or nil
  /// when it has perspective or skew.
  static func decompose(_ transform: ProjectiveTransform) -> Decomposition? {
    guard transform.isAffine, transform.isFinite else { return nil }
    let (a, b, c, d) = (transform.m11, transform.m12, transform.m21, transform.m22)
    let sx = (a * a + b * b).squareRoot()
    guard sx > 1e-12 else { return nil }
    let theta = atan2(b, a)
    let sy = (a * d - b * c) / sx
    let skew =
      ((c + sy * sin(theta)) * (c + sy * sin(theta))
      + (d - sy * cos(theta)) * (d - sy * cos(theta))).squareRoot()
    guard skew <= 1e-9 * max(1, abs(sy)) else { return nil }
    return Decomposition(
      tx: transform.m31, ty: transform.m32, sx: sx, sy: sy, rotation: theta * 180 / .pi)
  }

  /// The outline's subpaths for one frame: local coordinates when the layer carries the
  /// transform, else projected to the canvas.
  private func subpaths(_ item: DisplayItem, affine: Bool) -> [BezierShape] {
    affine
      ? BezierShape.subpaths(of: item.path)
      : BezierShape.subpaths(of: item.path, map: item.transform.apply)
  }

  /// One group: the outline's paths (and their trim), then the stroke above the fill.
  mutating func content(affine: Bool) -> [LottieJSON] {
    let trim = nativeTrim(affine: affine)
    var items = paths(affine: affine, untrimmed: trim != nil)
    if let trim { items.append(trim) }
    if let stroke = stroke(affine: affine) { items.append(stroke) }
    if let fill = fill(affine: affine) { items.append(fill) }
    return [LayerContext.group(items)]
  }

  /// Lottie's trim-paths modifier for a trimmed shape whose whole outline is one
  /// subpath in every frame, in the layer's own space: Lottie then trims it as SwiftUI
  /// does, by arc length from the outline's first vertex along its points' order (the
  /// closing segment included). Anything else (several subpaths, whose order Lottie's
  /// modes do not follow; perspective, which changes arc lengths) keeps the trim baked
  /// into the vertices. Nil when no frame is trimmed or the trim is baked.
  private mutating func nativeTrim(affine: Bool) -> LottieJSON? {
    guard frames.contains(where: { $0.1.trim != nil }) else { return nil }
    let single = frames.allSatisfy {
      BezierShape.subpaths(of: $0.1.untrimmedPath ?? $0.1.path).count == 1
    }
    guard affine, single else {
      notes.append(
        (
          .baked,
          affine
            ? "trim of several subpaths: baked into the vertices"
            : "trim under perspective: baked into the vertices"
        ))
      return nil
    }
    var start = SampledProperty()
    var end = SampledProperty()
    for (f, item) in frames {
      let trim = item.trim ?? Trim(from: 0, to: 1)
      // SwiftUI draws nothing when from ≥ to; Lottie would swap the ends.
      start.append(f, [trim.from * 100])
      end.append(f, [max(trim.from, trim.to) * 100])
    }
    // An end moved by the tolerance moves the drawn end by at most 0.05 pt.
    let length = frames.map { ($0.1.untrimmedPath ?? $0.1.path).arcLength }.max() ?? 1
    let percent = PropertyPrecision(
      tolerance: 100 * PropertyPrecision.points.tolerance / max(length, 1), decimals: 4)
    return [
      "ty": "tm", "nm": "trim", "s": start.lottie(percent, layout: .scalar),
      "e": end.lottie(percent, layout: .scalar), "o": constant([0], .degrees, layout: .scalar),
      "m": 1,
    ]
  }

  private mutating func paths(affine: Bool, untrimmed: Bool) -> [LottieJSON] {
    let perFrame = frames.map {
      var item = $0.1
      if untrimmed, let whole = item.untrimmedPath { item.path = whole }
      return subpaths(item, affine: affine)
    }
    let count = perFrame.map(\.count).max() ?? 0
    let topology = perFrame.map { $0.map { [$0.closed ? 1 : 0, $0.vertices.count] } }
    let hold = Set(topology).count > 1
    if hold { notes.append((.baked, "outline changes its points: held per frame")) }
    return (0..<count).map { k in
      var property = SampledProperty()
      for (n, (f, _)) in frames.enumerated() {
        let shape =
          k < perFrame[n].count
          ? perFrame[n][k] : BezierShape(closed: false, vertices: [], inPoints: [], outPoints: [])
        property.append(f, BezierShape.shapeNumbers(shape))
      }
      return ["ty": "sh", "ks": property.lottie(.points, layout: .shape, hold: hold)]
    }
  }

  // MARK: Paint

  private enum PaintKind: Equatable { case color, linear, radial }

  private mutating func kind(of paint: Paint) -> PaintKind {
    switch paint {
    case .color: return .color
    case .linearGradient: return .linear
    case .radialGradient: return .radial
    case .angularGradient:
      notes.append((.approximated, "angular gradient drawn as its mean colour"))
      return .color
    case .image:
      notes.append((.approximated, "image paint drawn as clear"))
      return .color
    }
  }

  /// A solid colour for any paint: its own, or the mean of a gradient's stops.
  private static func flatColor(_ paint: Paint) -> Color {
    let stops: [GradientStop]
    switch paint {
    case .color(let c): return c
    case .linearGradient(let g): stops = g.stops
    case .radialGradient(let g): stops = g.stops
    case .angularGradient(let g): stops = g.stops
    case .image: return .clear
    }
    guard !stops.isEmpty else { return .clear }
    let n = Double(stops.count)
    return Color(
      red: stops.map(\.color.red).reduce(0, +) / n,
      green: stops.map(\.color.green).reduce(0, +) / n,
      blue: stops.map(\.color.blue).reduce(0, +) / n,
      alpha: stops.map(\.color.alpha).reduce(0, +) / n)
  }

  private mutating func fill(affine: Bool) -> LottieJSON? {
    let paints = frames.map { $0.1.fill }
    guard let first = paints.compactMap({ $0 }).first else { return nil }
    var fields = paintFields(paints, first: first, affine: affine, gradientType: "gf", solid: "fl")
    fields["r"] = 1
    return .object(fields)
  }

  private mutating func stroke(affine: Bool) -> LottieJSON? {
    let strokes = frames.map { $0.1.stroke }
    guard let first = strokes.compactMap({ $0 }).first else { return nil }
    var fields = paintFields(
      strokes.map { $0?.paint }, first: first.paint, affine: affine, gradientType: "gs",
      solid: "st")
    var width = SampledProperty()
    for ((f, _), s) in zip(frames, strokes) { width.append(f, [s?.width ?? 0]) }
    fields["w"] = width.lottie(.points, layout: .scalar)
    fields["lc"] = .number(Double([LineCap.butt, .round, .square].firstIndex(of: first.cap)! + 1))
    fields["lj"] = .number(
      Double([LineJoin.miter, .round, .bevel].firstIndex(of: first.join)! + 1))
    // Cairo's miter limit.
    fields["ml"] = 10
    if !first.dash.isEmpty {
      // An odd dash list repeats to an even one, as Cairo reads it.
      let dashes = first.dash.count % 2 == 1 ? first.dash + first.dash : first.dash
      var entries: [LottieJSON] = dashes.enumerated().map { i, v in
        [
          "n": i % 2 == 0 ? "d" : "g", "nm": i % 2 == 0 ? "dash" : "gap",
          "v": constant([v], .points, layout: .scalar),
        ]
      }
      entries.append(
        ["n": "o", "nm": "offset", "v": constant([first.dashPhase], .points, layout: .scalar)])
      fields["d"] = .array(entries)
    }
    if strokes.contains(where: { ($0?.dash ?? first.dash) != first.dash }) {
      notes.append((.approximated, "dash pattern changes between frames: the first kept"))
    }
    return .object(fields)
  }

  /// A fill's or stroke's paint fields: a solid colour, or a gradient whose points and
  /// stops are sampled per frame.
  private mutating func paintFields(
    _ paints: [Paint?], first: Paint, affine: Bool, gradientType: String, solid: String
  ) -> [String: LottieJSON] {
    let kind = kind(of: first)
    let gradients = paints.map { $0.flatMap(Self.gradient) }
    let stopCounts = Set(gradients.compactMap { $0?.stops.count })
    let uniform =
      kind != .color && stopCounts.count == 1
      && paints.allSatisfy { $0 == nil || Self.gradient($0!) != nil }
    if kind != .color && !uniform {
      notes.append((.approximated, "gradient changes its kind or stops: drawn as its mean colour"))
    }
    var opacity = SampledProperty()
    if kind == .color || !uniform {
      var color = SampledProperty()
      for ((f, _), paint) in zip(frames, paints) {
        let c = paint.map(Self.flatColor) ?? .clear
        color.append(f, [c.red, c.green, c.blue])
        opacity.append(f, [c.alpha * 100])
      }
      return [
        "ty": .string(solid), "c": color.lottie(.unitColor),
        "o": opacity.lottie(.percentOpacity, layout: .scalar),
      ]
    }
    if !affine {
      notes.append((.approximated, "gradient under perspective: its end points projected"))
    }
    var start = SampledProperty()
    var end = SampledProperty()
    var stops = SampledProperty()
    let count = stopCounts.first!
    let withAlpha = gradients.contains { $0?.stops.contains { $0.color.alpha < 1 } ?? false }
    var last = gradients.compactMap { $0 }.first!
    for ((f, item), g) in zip(frames, gradients) {
      let g = g ?? last
      last = g
      let transform = item.transform
      func map(_ p: Point) -> Point { affine ? p : transform.apply(p) }
      let (w, h) = (item.frame.size.width, item.frame.size.height)
      let s = map(Point(w * g.start.x, h * g.start.y))
      let e: Point
      if let r = g.radius {
        e = map(Point(w * g.start.x + r, h * g.start.y))
      } else {
        e = map(Point(w * g.end.x, h * g.end.y))
      }
      start.append(f, [s.x, s.y])
      end.append(f, [e.x, e.y])
      var numbers: [Double] = []
      for stop in g.stops {
        numbers += [stop.location, stop.color.red, stop.color.green, stop.color.blue]
      }
      if withAlpha { for stop in g.stops { numbers += [stop.location, stop.color.alpha] } }
      stops.append(f, numbers)
      opacity.append(f, [100])
    }
    return [
      "ty": .string(gradientType), "t": kind == .linear ? 1 : 2, "s": start.lottie(.points),
      "e": end.lottie(.points), "o": opacity.lottie(.percentOpacity, layout: .scalar),
      "g": ["p": .number(Double(count)), "k": stops.lottie(.unitColor)],
    ]
  }

  /// A gradient in the shape's unit square: stops in location order, radial stops moved
  /// so a start radius becomes a location along the end radius (exact: Lottie pads the
  /// first colour inside the first stop, as the host does inside the start circle).
  private struct Gradient {
    var stops: [GradientStop]
    var start: Point
    var end: Point
    var radius: Double?
  }

  private static func gradient(_ paint: Paint) -> Gradient? {
    func sorted(_ stops: [GradientStop]) -> [GradientStop] {
      stops.enumerated().sorted {
        ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
      }
      .map { GradientStop(color: $0.element.color, location: min(max($0.element.location, 0), 1)) }
    }
    switch paint {
    case .linearGradient(let g):
      return Gradient(stops: sorted(g.stops), start: g.start, end: g.end)
    case .radialGradient(let g):
      guard g.endRadius > 0, g.startRadius >= 0, g.startRadius <= g.endRadius else { return nil }
      let stops = sorted(g.stops).map {
        GradientStop(
          color: $0.color,
          location: (g.startRadius + $0.location * (g.endRadius - g.startRadius)) / g.endRadius)
      }
      return Gradient(stops: stops, start: g.center, end: g.center, radius: g.endRadius)
    default:
      return nil
    }
  }

  // MARK: Effects and masks

  /// Lottie's drop-shadow effect over the frames, hidden where a frame has no shadow.
  static func shadowEffect(_ shadows: [(Int, Shadow?)]) -> LottieJSON? {
    guard let first = shadows.compactMap({ $0.1 }).first else { return nil }
    var color = SampledProperty()
    var opacity = SampledProperty()
    var direction = SampledProperty()
    var distance = SampledProperty()
    var softness = SampledProperty()
    var previous: Double?
    for (f, shadow) in shadows {
      let s = shadow ?? Shadow(color: first.color.opacity(0), radius: first.radius)
      color.append(f, [s.color.red, s.color.green, s.color.blue, 1])
      // The effect's opacity is 0…255.
      opacity.append(f, [s.color.alpha * 255])
      var angle = atan2(s.offset.x, -s.offset.y) * 180 / .pi
      if s.offset.x == 0 && s.offset.y == 0 { angle = previous ?? 180 }
      if let p = previous { angle += 360 * ((p - angle) / 360).rounded() }
      previous = angle
      direction.append(f, [angle])
      distance.append(f, [(s.offset.x * s.offset.x + s.offset.y * s.offset.y).squareRoot()])
      softness.append(f, [max(s.radius, 0) / sigmaPerSoftness])
    }
    func value(_ n: Int, _ type: Int, _ name: String, _ v: LottieJSON) -> LottieJSON {
      ["ty": .number(Double(type)), "nm": .string(name), "ix": .number(Double(n)), "v": v]
    }
    return [
      "ty": 25, "nm": "Drop Shadow", "en": 1, "ix": 1, "np": 8,
      "ef": [
        value(1, 2, "Shadow Color", color.lottie(.unitColor)),
        value(
          2, 0, "Opacity",
          opacity.lottie(PropertyPrecision(tolerance: 0.5, decimals: 1), layout: .scalar)),
        value(3, 1, "Direction", direction.lottie(.degrees, layout: .scalar)),
        value(4, 0, "Distance", distance.lottie(.points, layout: .scalar)),
        value(5, 0, "Softness", softness.lottie(.points, layout: .scalar)),
        value(6, 7, "Shadow Only", constant([0], .points, layout: .scalar)),
      ],
    ]
  }

  /// Lottie's Gaussian-blur effect for a group's σ per frame.
  static func blurEffect(_ sigmas: [(Int, Double)]) -> LottieJSON {
    var blurriness = SampledProperty()
    for (f, sigma) in sigmas { blurriness.append(f, [sigma / sigmaPerSoftness]) }
    return [
      "ty": 29, "nm": "Gaussian Blur", "en": 1, "ix": 2, "np": 5,
      "ef": [
        ["ty": 0, "nm": "Blurriness", "ix": 1, "v": blurriness.lottie(.points, layout: .scalar)],
        ["ty": 7, "nm": "Blur Dimensions", "ix": 2, "v": constant([1], .points, layout: .scalar)],
        [
          "ty": 7, "nm": "Repeat Edge Pixels", "ix": 3,
          "v": constant([0], .points, layout: .scalar),
        ],
      ],
    ]
  }

  /// The item's clips as layer masks (intersected), each in the layer's space.
  func masks(affine: Bool) -> LottieJSON? {
    Self.clipMasks(frames.map { ($0.0, $0.1.clips, $0.1.transform) }, affine: affine)
  }

  /// Masks from clips per frame: in a layer that carries `layerTransform` (affine), the
  /// clip is mapped back through it; otherwise the layer is in canvas space.
  static func clipMasks(_ frames: [(Int, [Clip], ProjectiveTransform)], affine: Bool) -> LottieJSON?
  {
    let count = frames.map(\.1.count).max() ?? 0
    guard count > 0, Set(frames.map(\.1.count)).count == 1 else { return nil }
    var masks: [LottieJSON] = []
    for k in 0..<count {
      var shape = SampledProperty()
      var topology = Set<[Int]>()
      for (f, clips, layer) in frames {
        let clip = clips[k]
        let back = affine ? layer.inverted : nil
        let map: (Point) -> Point = { p in
          let canvas = clip.transform.apply(p)
          return back?.apply(canvas) ?? canvas
        }
        let s =
          BezierShape.subpaths(of: clip.path, map: map).first
          ?? BezierShape(closed: true, vertices: [], inPoints: [], outPoints: [])
        topology.insert([s.closed ? 1 : 0, s.vertices.count])
        shape.append(f, BezierShape.shapeNumbers(s))
      }
      masks.append([
        "mode": k == 0 ? "a" : "i", "inv": false, "nm": .string("clip \(k + 1)"),
        "pt": shape.lottie(.points, layout: .shape, hold: topology.count > 1),
        "o": constant([100], .percentOpacity, layout: .scalar),
        "x": constant([0], .points, layout: .scalar),
      ])
    }
    return .array(masks)
  }
}
