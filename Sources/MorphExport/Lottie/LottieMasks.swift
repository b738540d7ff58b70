import MorphCore

/// Erasers as one mask every player draws alike. lottie-web's canvas renderer reads no
/// mask mode: it clips to the union of all a layer's mask paths (an inverted one adding
/// the composition's rectangle), so subtracting masks leave only what they should cut.
/// One adding mask whose single outline runs round a rectangle beyond the canvas and,
/// by a bridge there and back along one line, round each eraser the other way, keeps
/// the canvas less the erasers under the nonzero rule in every player.
extension LayerContext {
  /// One closed outline: a rectangle beyond `canvas` and, by a bridge from its corner and
  /// back along one line, each hole the other way round, so the nonzero rule fills the
  /// canvas less the holes (a mask every player reads alike).
  static func keyhole(_ canvas: Size, holes: [BezierShape]) -> BezierShape {
    let (x0, y0) = (-1.0, -1.0)
    let (x1, y1) = (canvas.width + 1, canvas.height + 1)
    let corner = Point(x0, y0)
    var vertices: [Point] = [corner]
    var ins: [Point] = [corner]
    var outs: [Point] = [corner]
    func add(_ v: Point, _ i: Point, _ o: Point) {
      vertices.append(v)
      ins.append(i)
      outs.append(o)
    }
    for hole in holes where hole.vertices.count > 1 {
      // Against the rectangle's direction.
      let h = ShadowGeometry.reversed(ShadowGeometry.oriented(hole))
      add(h.vertices[0], h.vertices[0], h.outPoints[0])
      for k in 1..<h.vertices.count { add(h.vertices[k], h.inPoints[k], h.outPoints[k]) }
      add(h.vertices[0], h.inPoints[0], h.vertices[0])
      add(corner, corner, corner)
    }
    for p in [Point(x1, y0), Point(x1, y1), Point(x0, y1)] { add(p, p, p) }
    return BezierShape(closed: true, vertices: vertices, inPoints: ins, outPoints: outs)
  }

  /// The group's erasers (`blend("destinationOut")` groups in `inner`) as that one
  /// mask; nil when an eraser holds a nested group or its outline changes its points
  /// (then the subtracting masks of `eraserMasks`).
  mutating func eraserMask(_ inner: LottieTimeline.Composition, frames: [Int]) -> LottieJSON? {
    // Per eraser item, per frame: its closed subpaths in canvas space and whether it erases.
    var erasers: [(id: String, frames: [([BezierShape], Bool)])] = []
    for (eraserID, track) in inner.tracks.sorted(by: { $0.key < $1.key }) {
      guard case .group(let styles, let content) = track, Self.isEraser(styles) else { continue }
      if inner.segments.contains(where: { $0.order.last != eraserID }) { return nil }
      for (itemID, itemTrack) in content.tracks.sorted(by: { $0.key < $1.key }) {
        guard case .item(let samples) = itemTrack, var last = samples.values.first else {
          return nil
        }
        var perFrame: [([BezierShape], Bool)] = []
        for f in frames {
          let item = samples[f] ?? last
          last = item
          let shapes = BezierShape.subpaths(of: item.path, map: item.transform.apply)
          let opacity = item.opacity * (styles[f]?.opacity ?? 1)
          perFrame.append((shapes, samples[f] != nil && styles[f] != nil && opacity >= 0.5))
        }
        erasers.append((itemID, perFrame))
      }
    }
    guard !erasers.isEmpty else { return nil }
    for eraser in erasers {
      let topology = Set(eraser.frames.map { Self.topology($0.0) })
      guard topology.count == 1, eraser.frames[0].0.allSatisfy(\.closed) else { return nil }
    }
    var shape = SampledProperty()
    for (n, f) in frames.enumerated() {
      var holes: [BezierShape] = []
      for eraser in erasers {
        let (shapes, erases) = eraser.frames[n]
        for hole in shapes {
          // Collapsed to its first point where it does not erase.
          if erases {
            holes.append(hole)
          } else {
            let p = hole.vertices[0]
            let points = hole.vertices.map { _ in p }
            holes.append(
              BezierShape(closed: true, vertices: points, inPoints: points, outPoints: points))
          }
        }
      }
      shape.append(f, BezierShape.shapeNumbers(Self.keyhole(canvas, holes: holes)))
    }
    for eraser in erasers {
      report.note(eraser.id, .native, "erases as a hole in the group's one mask")
    }
    return [
      "mode": "a", "inv": false, "nm": "erasers",
      "pt": shape.lottie(.points, layout: .shape),
      "o": constant([100], .percentOpacity, layout: .scalar),
      "x": constant([0], .points, layout: .scalar),
    ]
  }
}
