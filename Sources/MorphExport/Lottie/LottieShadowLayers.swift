import MorphCore

/// Shadows as their own shape layers, just behind what casts them (`ShadowGeometry`), and
/// the split of a layer into runs of frames whose outlines keep their points.
extension LayerContext {
  /// One frame of a shadow: the caster's closed outlines in the composition's (canvas)
  /// space, its shadow, the opacity it is drawn at, and whether opaque content covers the
  /// inside of its outline (so only the shadow's offset shows of its inside).
  struct ShadowFrame {
    var outline: [BezierShape]
    var shadow: Shadow
    var opacity: Double
    var covered: Bool
  }

  /// The frames of `samples` cut into runs of consecutive frames with one `key` each:
  /// a Lottie shape interpolates between keyframes of one vertex count only (lottie-web
  /// garbles any other, held or not; rlottie between keyframes), so an outline that
  /// changes its points is a layer per run, switched by in and out points.
  static func runs<T>(_ samples: [Int: T], key: (T) -> [[Int]]) -> [[Int: T]] {
    var runs: [[Int: T]] = []
    var previous: [[Int]]?
    for f in samples.keys.sorted() {
      let k = key(samples[f]!)
      if k != previous || runs.isEmpty { runs.append([:]) }
      runs[runs.count - 1][f] = samples[f]!
      previous = k
    }
    return runs
  }

  /// An item's frames as runs whose outline (the whole one, where Lottie trims it) and
  /// clips keep their points.
  mutating func itemRuns(_ identity: String, _ samples: [Int: DisplayItem]) -> [[Int: DisplayItem]]
  {
    let items = samples.values
    let affine = items.allSatisfy { LottieStyle.decompose($0.transform) != nil }
    let untrimmed =
      affine && items.contains { $0.trim != nil }
      && items.allSatisfy { BezierShape.subpaths(of: $0.untrimmedPath ?? $0.path).count == 1 }
    let runs = Self.runs(samples) { item in
      let outline = untrimmed ? (item.untrimmedPath ?? item.path) : item.path
      return Self.topology(BezierShape.subpaths(of: outline)) + [[-1]]
        + item.clips.flatMap { Self.topology(Array(BezierShape.subpaths(of: $0.path).prefix(1))) }
    }
    if items.contains(where: { $0.clips.count > 1 }) {
      report.note(
        identity, .approximated,
        "several clips: lottie-web's canvas renderer clips to their union, not their intersection")
    }
    if runs.count > 1 {
      report.note(
        identity, .native,
        "outline changes its points: a layer per run of frames that keep them (\(runs.count))")
    }
    return runs
  }

  /// Each subpath's closing and vertex count.
  static func topology(_ shapes: [BezierShape]) -> [[Int]] {
    shapes.map { [$0.closed ? 1 : 0, $0.vertices.count] }
  }

  /// An item's shadow per frame it is drawn in.
  static func shadowFrames(_ samples: [Int: DisplayItem]) -> [Int: ShadowFrame] {
    samples.compactMapValues { item in
      guard let shadow = item.shadow, shadow.color.alpha > 0 else { return nil }
      let outline = ShadowGeometry.silhouette([
        BezierShape.subpaths(of: item.path, map: item.transform.apply)
      ])
      let opaque: Bool
      switch item.fill {
      case .color(let c)?: opaque = c.alpha >= 0.99
      case .linearGradient(let g)?: opaque = g.stops.allSatisfy { $0.color.alpha >= 0.99 }
      case .radialGradient(let g)?: opaque = g.stops.allSatisfy { $0.color.alpha >= 0.99 }
      default: opaque = false
      }
      return ShadowFrame(
        outline: outline, shadow: shadow, opacity: item.opacity,
        covered: opaque && item.opacity >= 0.99)
    }
  }

  /// A group's shadow per frame: the silhouette of what it draws there (items at least
  /// half opaque, erasers left out), in canvas space.
  static func shadowFrames(_ styles: [Int: GroupStyle], _ inner: LottieTimeline.Composition)
    -> [Int: ShadowFrame]
  {
    var frames: [Int: ShadowFrame] = [:]
    for (f, style) in styles {
      guard let shadow = style.shadow, shadow.color.alpha > 0 else { continue }
      var outlines: [[BezierShape]] = []
      collectOutlines(inner, frame: f, opacity: 1, into: &outlines)
      frames[f] = ShadowFrame(
        outline: ShadowGeometry.silhouette(outlines), shadow: shadow, opacity: style.opacity,
        covered: true)
    }
    return frames
  }

  private static func collectOutlines(
    _ composition: LottieTimeline.Composition, frame f: Int, opacity: Double,
    into outlines: inout [[BezierShape]]
  ) {
    for (_, track) in composition.tracks.sorted(by: { $0.key < $1.key }) {
      switch track {
      case .item(let samples):
        guard let item = samples[f], item.opacity * opacity >= 0.5 else { continue }
        let paint: Double
        switch item.fill {
        case .color(let c)?: paint = c.alpha
        case nil: paint = item.stroke == nil ? 0 : 1
        default: paint = 1
        }
        if paint >= 0.5 {
          outlines.append(BezierShape.subpaths(of: item.path, map: item.transform.apply))
        }
      case .group(let styles, let content):
        guard let style = styles[f], style.blend != .destinationOut else { continue }
        collectOutlines(content, frame: f, opacity: opacity * style.opacity, into: &outlines)
      }
    }
  }

  /// The shadow layers of a caster (one per run of frames whose silhouette keeps its
  /// points), in canvas space, to go just behind it; empty when it casts none.
  mutating func shadowLayers(_ identity: String, _ frames: [Int: ShadowFrame]) -> [LottieJSON] {
    guard !frames.isEmpty else { return [] }
    var layers: [LottieJSON] = []
    for run in Self.runs(frames, key: { Self.topology($0.outline) }) {
      let span = Self.span(run, frameCount: frameCount)
      let first = span.at[0].1
      guard !first.outline.isEmpty else { continue }
      func depth(_ s: ShadowFrame) -> Double {
        let offset = (s.shadow.offset.x * s.shadow.offset.x + s.shadow.offset.y * s.shadow.offset.y)
          .squareRoot()
        return s.covered ? offset : offset + 3 * s.shadow.radius
      }
      let count = span.at.map { _, s, _ in
        ShadowGeometry.levelCount(
          alpha: s.shadow.color.alpha * s.opacity, sigma: s.shadow.radius, depth: depth(s))
      }.max()!
      var groups: [LottieJSON] = []
      for j in 0..<count {
        var shapes = Array(repeating: SampledProperty(), count: first.outline.count)
        var color = SampledProperty()
        var opacity = SampledProperty()
        for (f, s, present) in span.at {
          let levels = ShadowGeometry.levels(
            alpha: s.shadow.color.alpha * s.opacity, sigma: s.shadow.radius, depth: depth(s),
            count: count)
          for (k, outline) in s.outline.enumerated() {
            let moved = ShadowGeometry.offset(
              outline, by: levels[j].distance, moved: s.shadow.offset)
            shapes[k].append(f, BezierShape.shapeNumbers(moved))
          }
          let c = s.shadow.color
          color.append(f, [c.red, c.green, c.blue])
          opacity.append(f, [present ? levels[j].opacity * 100 : 0])
        }
        var items: [LottieJSON] = shapes.map {
          ["ty": "sh", "ks": $0.lottie(.points, layout: .shape)]
        }
        items.append(
          Self.solidFill(
            color: color.lottie(.unitColor),
            opacity: opacity.lottie(.percentOpacity, layout: .scalar)))
        groups.append(Self.group(items))
      }
      report.note(
        identity, .native,
        "shadow as \(count) nested filled outlines (a step of at most \(Int(ShadowGeometry.maxStep)) levels)"
      )
      var layer = Self.shapeLayer(
        name: identity + " shadow", ip: span.ip, op: span.op,
        transform: Self.identityTransform(), shapes: groups, ind: 0)
      // Opaque content hides its shadow under it: the caster's silhouette is cut out of
      // the shadow (one keyhole mask), so a caster that fades, or a player that fades
      // a group's layers one by one (lottie-web's canvas), shows no shadow through it.
      if span.at.allSatisfy({ $0.1.covered }), case .object(var fields) = layer {
        var cut = SampledProperty()
        for (f, s, _) in span.at {
          cut.append(f, BezierShape.shapeNumbers(Self.keyhole(canvas, holes: s.outline)))
        }
        fields["masksProperties"] = [
          [
            "mode": "a", "inv": false, "nm": "caster",
            "pt": cut.lottie(.points, layout: .shape),
            "o": constant([100], .percentOpacity, layout: .scalar),
            "x": constant([0], .points, layout: .scalar),
          ]
        ]
        fields["hasMask"] = true
        layer = .object(fields)
      }
      layers.append(layer)
    }
    return layers
  }
}
