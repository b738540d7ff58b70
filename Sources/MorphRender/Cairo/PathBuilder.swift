import CCairo
import MorphCore

/// Whether an outline is about to be filled (or clipped to) or stroked; it decides how a
/// projected outline is cut where it passes behind the eye.
enum OutlineUse {
  case fill
  case stroke
}

/// Adds paths to a Cairo context: directly through Cairo's matrix when the transform is
/// affine, as projected polylines otherwise. Keeps its point buffers between frames.
struct PathBuilder {
  /// Largest distance, in device pixels, between a projected curve and its polyline.
  static let screenTolerance = 0.1
  /// Most line segments one curve is split into.
  static let maxCurveSteps = 1024

  private var local: [Point] = []
  private var cut: [Point] = []

  /// Replaces the current path of `cr` with `path` in `space`, leaving `space`'s matrix set.
  mutating func set(_ path: Path, in space: ItemSpace, use: OutlineUse, on cr: OpaquePointer) {
    cairo_new_path(cr)
    space.apply(to: cr)
    switch space {
    case .affine: Self.addDirect(path, to: cr)
    case .projective(let t, let scale): addProjected(path, t, scale: scale, use: use, to: cr)
    }
  }

  private static func addDirect(_ path: Path, to cr: OpaquePointer) {
    var start = Point.zero
    var current = Point.zero
    for element in path.elements {
      switch element {
      case .move(let p):
        cairo_move_to(cr, p.x, p.y)
        start = p
      case .line(let p): cairo_line_to(cr, p.x, p.y)
      case .quad(let p, let c):
        let (c1, c2) = quadControls(current, c, p)
        cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
      case .cubic(let p, let c1, let c2): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
      case .close: cairo_close_path(cr)
      }
      current = element.endPoint ?? start
    }
  }

  /// The cubic control points of a quadratic Bézier (degree elevation).
  static func quadControls(_ p0: Point, _ c: Point, _ p1: Point) -> (Point, Point) {
    (p0 + (c - p0) * (2.0 / 3.0), p1 + (c - p1) * (2.0 / 3.0))
  }
}

// MARK: - Projection

extension PathBuilder {
  /// The part of the plane drawn: weights at least `epsilon` (a thousandth of the path's
  /// largest weight, so projected points stay within Cairo's fixed-point range).
  private struct Front {
    var transform: ProjectiveTransform
    var epsilon: Double

    func contains(_ p: Point) -> Bool { transform.weight(p) >= epsilon }

    /// Where the segment a→b crosses the near plane (weight is affine in the point).
    func crossing(_ a: Point, _ b: Point) -> Point {
      let wa = transform.weight(a)
      let wb = transform.weight(b)
      return a + (b - a) * ((epsilon - wa) / (wb - wa))
    }
  }

  private mutating func addProjected(
    _ path: Path, _ t: ProjectiveTransform, scale: Double, use: OutlineUse, to cr: OpaquePointer
  ) {
    guard let (front, tolerance) = Self.plan(path, t, scale: scale) else { return }
    var start = Point.zero
    local.removeAll(keepingCapacity: true)
    for element in path.elements {
      switch element {
      case .move(let p):
        emit(front, closed: false, use: use, to: cr)
        local.append(p)
        start = p
      case .line(let p): local.append(p)
      case .quad(let p, let c):
        guard let p0 = local.last else { continue }
        let (c1, c2) = Self.quadControls(p0, c, p)
        Self.flatten(p0, c1, c2, p, tolerance, into: &local)
      case .cubic(let p, let c1, let c2):
        guard let p0 = local.last else { continue }
        Self.flatten(p0, c1, c2, p, tolerance, into: &local)
      case .close:
        if local.count > 1, local.last == start { local.removeLast() }
        emit(front, closed: true, use: use, to: cr)
      }
    }
    emit(front, closed: false, use: use, to: cr)
  }

  /// The near plane and the local flattening tolerance for `path`, or nil when all of it is
  /// behind the eye. The tolerance divides the screen tolerance by the largest stretch of
  /// the projection over the path's control box.
  private static func plan(_ path: Path, _ t: ProjectiveTransform, scale: Double)
    -> (Front, Double)?
  {
    var maxWeight = -Double.infinity
    var (x0, y0, x1, y1) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
    func visit(_ p: Point) {
      maxWeight = max(maxWeight, t.weight(p))
      (x0, y0, x1, y1) = (min(x0, p.x), min(y0, p.y), max(x1, p.x), max(y1, p.y))
    }
    for element in path.elements {
      switch element {
      case .move(let p), .line(let p): visit(p)
      case .quad(let p, let c):
        visit(p)
        visit(c)
      case .cubic(let p, let c1, let c2):
        visit(p)
        visit(c1)
        visit(c2)
      case .close: break
      }
    }
    guard maxWeight > 0, maxWeight.isFinite else { return nil }
    let front = Front(transform: t, epsilon: maxWeight * 1e-3)
    var stretch = 0.0
    for corner in [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
    where front.contains(corner) {
      guard let j = t.jacobian(at: corner) else { continue }
      stretch = max(stretch, (j.a * j.a + j.b * j.b + j.c * j.c + j.d * j.d).squareRoot())
    }
    let tolerance = screenTolerance / (scale * max(stretch, 1e-9))
    return (front, tolerance)
  }

  /// Appends the cubic's points after `p0`, in equal parameter steps chosen from the
  /// second-difference bound of its control polygon (like `Path.flattened`).
  private static func flatten(
    _ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, _ tolerance: Double,
    into points: inout [Point]
  ) {
    let d0 = p0 - c1 * 2 + c2
    let d1 = c1 - c2 * 2 + p1
    let m = max((d0.x * d0.x + d0.y * d0.y).squareRoot(), (d1.x * d1.x + d1.y * d1.y).squareRoot())
    let wanted = (3 * m / (4 * tolerance)).squareRoot().rounded(.up)
    let n = wanted.isFinite ? Int(min(max(wanted, 1), Double(maxCurveSteps))) : maxCurveSteps
    for i in 1..<max(n, 1) {
      let t = Double(i) / Double(n)
      let u = 1 - t
      points.append(
        p0 * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p1 * (t * t * t))
    }
    points.append(p1)
  }

  /// Adds the subpath collected in `local` (a closed one without its repeated start) and
  /// empties the buffer.
  private mutating func emit(_ front: Front, closed: Bool, use: OutlineUse, to cr: OpaquePointer) {
    defer { local.removeAll(keepingCapacity: true) }
    guard local.count > 1 else { return }
    if local.allSatisfy(front.contains) {
      addPolyline(local, front.transform, closed: closed, to: cr)
    } else if use == .fill {
      clipPolygon(front)
      if cut.count > 2 { addPolyline(cut, front.transform, closed: true, to: cr) }
    } else {
      addVisibleRuns(front, closed: closed, to: cr)
    }
  }

  /// Sutherland–Hodgman against the near plane: `cut` gets the visible part of the
  /// polygon `local`. Filling it with the winding rule gives the visible part of the fill.
  private mutating func clipPolygon(_ front: Front) {
    cut.removeAll(keepingCapacity: true)
    var previous = local[local.count - 1]
    for point in local {
      let inside = front.contains(point)
      if inside != front.contains(previous) { cut.append(front.crossing(previous, point)) }
      if inside { cut.append(point) }
      previous = point
    }
  }

  /// Strokes only the pieces in front of the eye, as open runs. A closed ring is first
  /// turned to start at a hidden point so no visible run is split at the seam.
  private mutating func addVisibleRuns(_ front: Front, closed: Bool, to cr: OpaquePointer) {
    cut.removeAll(keepingCapacity: true)
    if closed, let hidden = local.firstIndex(where: { !front.contains($0) }) {
      cut.append(contentsOf: local[hidden...])
      cut.append(contentsOf: local[...hidden])
    } else {
      cut.append(contentsOf: local)
    }
    var drawing = false
    var previous = cut[0]
    for point in cut {
      let inside = front.contains(point)
      if inside && !drawing {
        let entry = front.contains(previous) ? point : front.crossing(previous, point)
        move(to: entry, front.transform, cr)
        if entry != point { line(to: point, front.transform, cr) }
        drawing = true
      } else if inside {
        line(to: point, front.transform, cr)
      } else if drawing {
        line(to: front.crossing(previous, point), front.transform, cr)
        drawing = false
      }
      previous = point
    }
  }

  private func addPolyline(
    _ points: [Point], _ t: ProjectiveTransform, closed: Bool, to cr: OpaquePointer
  ) {
    move(to: points[0], t, cr)
    for p in points.dropFirst() { line(to: p, t, cr) }
    if closed { cairo_close_path(cr) }
  }

  private func move(to p: Point, _ t: ProjectiveTransform, _ cr: OpaquePointer) {
    let q = t.apply(p)
    cairo_move_to(cr, q.x, q.y)
  }

  private func line(to p: Point, _ t: ProjectiveTransform, _ cr: OpaquePointer) {
    let q = t.apply(p)
    cairo_line_to(cr, q.x, q.y)
  }
}
