import Foundation
import MorphCore

/// A soft shadow as geometry every player draws. Lottie's drop-shadow effect is not
/// portable: rlottie and lottie-web's canvas renderer draw none, lottie-web's svg renderer
/// cuts it to the layer's box. So a shadow is written as nested copies of the outline,
/// each grown (or shrunk) by a distance and filled with the shadow's colour at an
/// opacity, so their stack reproduces the blurred edge in steps of a few levels.
///
/// Near a straight edge a Gaussian blur of σ makes the shape's alpha α·Φ(−d/σ) at signed
/// distance d from the edge (outside positive). Level j of K covers the points with
/// d ≤ tⱼ, where the blurred alpha reaches the middle of its j-th step, and its opacity
/// brings the stack's alpha, 1 − Π(1 − aᵢ), to j steps there.
enum ShadowGeometry {
  /// The largest step between levels, in 8-bit levels against a full-contrast
  /// background (black on white): the steps' edges are where the stack differs most
  /// from the blur, by half a step.
  static let maxStep = 14.0

  /// One nested copy: its outline moved out by `distance` (in by a negative one) and
  /// filled at `opacity` (0…1).
  struct Level: Equatable {
    var distance: Double
    var opacity: Double
  }

  /// The standard normal distribution function Φ.
  static func normalCDF(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

  /// Φ⁻¹(p) for 0 < p < 1, by bisection (a few dozen calls per level and frame).
  static func inverseNormalCDF(_ p: Double) -> Double {
    var (low, high) = (-12.0, 12.0)
    for _ in 0..<60 {
      let mid = (low + high) / 2
      if normalCDF(mid) < p { low = mid } else { high = mid }
    }
    return (low + high) / 2
  }

  /// The blurred alpha at the deepest point that shows: `depth` inside the edge (the
  /// shadow's offset, for content drawn opaque over its own shadow).
  static func deepestAlpha(alpha: Double, sigma: Double, depth: Double) -> Double {
    alpha * normalCDF(depth / max(sigma, 1e-6))
  }

  /// How many levels keep each step within `maxStep`.
  static func levelCount(alpha: Double, sigma: Double, depth: Double) -> Int {
    let top = deepestAlpha(alpha: alpha, sigma: sigma, depth: depth) * 255
    return max(1, Int((top / maxStep).rounded(.up)))
  }

  /// `count` levels for a shadow of `alpha` (0…1) and σ, showing to `depth` inside the edge.
  static func levels(alpha: Double, sigma: Double, depth: Double, count: Int) -> [Level] {
    let top = deepestAlpha(alpha: alpha, sigma: sigma, depth: depth)
    guard top > 0, alpha > 0 else {
      return Array(repeating: Level(distance: 0, opacity: 0), count: count)
    }
    let step = top / Double(count)
    return (1...count).map { j in
      let middle = (Double(j) - 0.5) * step / alpha
      let distance = -max(sigma, 1e-6) * inverseNormalCDF(min(max(middle, 1e-9), 1 - 1e-9))
      let opacity = step / (1 - Double(j - 1) * step)
      return Level(distance: distance, opacity: min(max(opacity, 0), 1))
    }
  }

  // MARK: Outlines

  /// Twice the signed area of a closed subpath (its vertices and control points as a
  /// polygon: enough for the sign).
  static func signedArea(_ shape: BezierShape) -> Double {
    var points: [Point] = []
    for i in shape.vertices.indices {
      points.append(shape.inPoints[i])
      points.append(shape.vertices[i])
      points.append(shape.outPoints[i])
    }
    var sum = 0.0
    for i in points.indices {
      let (a, b) = (points[i], points[(i + 1) % points.count])
      sum += a.x * b.y - b.x * a.y
    }
    return sum
  }

  /// The subpath with its direction reversed.
  static func reversed(_ shape: BezierShape) -> BezierShape {
    BezierShape(
      closed: shape.closed, vertices: shape.vertices.reversed(),
      inPoints: shape.outPoints.reversed(), outPoints: shape.inPoints.reversed())
  }

  /// A closed subpath with a positive signed area, so several filled together (nonzero)
  /// make their union.
  static func oriented(_ shape: BezierShape) -> BezierShape {
    signedArea(shape) < 0 ? reversed(shape) : shape
  }

  /// A positively oriented closed subpath moved out by `distance` along its normals:
  /// each vertex along its outward normal (a corner by its miter, at most 4×), each
  /// segment's handles scaled as its chord. Exact for straight edges and for circular
  /// arcs about their centre (a rounded rectangle's corners, a circle), close for other
  /// smooth convex outlines.
  static func offset(_ shape: BezierShape, by distance: Double, moved delta: Point)
    -> BezierShape
  {
    let n = shape.vertices.count
    guard n > 1, distance != 0 else { return translated(shape, by: delta) }
    func normal(_ d: Point) -> Point? {
      let length = (d.x * d.x + d.y * d.y).squareRoot()
      return length > 1e-9 ? Point(d.y / length, -d.x / length) : nil
    }
    var vertices: [Point] = []
    for i in 0..<n {
      let v = shape.vertices[i]
      let previous = shape.vertices[(i + n - 1) % n]
      let next = shape.vertices[(i + 1) % n]
      let incoming = normal(v - shape.inPoints[i]) ?? normal(v - previous) ?? Point(0, 0)
      let outgoing = normal(shape.outPoints[i] - v) ?? normal(next - v) ?? incoming
      let sum = incoming + outgoing
      let length = (sum.x * sum.x + sum.y * sum.y).squareRoot()
      guard length > 1e-9 else {
        vertices.append(v + outgoing * distance)
        continue
      }
      let direction = sum * (1 / length)
      let cosine = direction.x * outgoing.x + direction.y * outgoing.y
      vertices.append(v + direction * (distance / max(cosine, 0.25)))
    }
    var inPoints = shape.inPoints
    var outPoints = shape.outPoints
    for i in 0..<n {
      let j = (i + 1) % n
      let before = shape.vertices[i].distance(to: shape.vertices[j])
      let after = vertices[i].distance(to: vertices[j])
      let ratio = before > 1e-9 ? after / before : 1
      outPoints[i] = vertices[i] + (shape.outPoints[i] - shape.vertices[i]) * ratio
      inPoints[j] = vertices[j] + (shape.inPoints[j] - shape.vertices[j]) * ratio
    }
    return translated(
      BezierShape(closed: true, vertices: vertices, inPoints: inPoints, outPoints: outPoints),
      by: delta)
  }

  static func translated(_ shape: BezierShape, by delta: Point) -> BezierShape {
    BezierShape(
      closed: shape.closed, vertices: shape.vertices.map { $0 + delta },
      inPoints: shape.inPoints.map { $0 + delta }, outPoints: shape.outPoints.map { $0 + delta })
  }

  /// The closed subpaths of outlines in canvas space, oriented, without those whose box
  /// lies inside a larger one's (a glyph on a card: the card's shadow is the group's).
  static func silhouette(_ outlines: [[BezierShape]]) -> [BezierShape] {
    let shapes = outlines.joined().filter { $0.closed && $0.vertices.count > 1 }.map(oriented)
    let boxes = shapes.map { shape -> (Double, Double, Double, Double) in
      let points = shape.vertices + shape.inPoints + shape.outPoints
      return (
        points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!,
        points.map(\.y).max()!
      )
    }
    func area(_ b: (Double, Double, Double, Double)) -> Double { (b.2 - b.0) * (b.3 - b.1) }
    return shapes.indices.filter { i in
      let b = boxes[i]
      return !boxes.indices.contains { k in
        let o = boxes[k]
        let inside = o.0 <= b.0 && o.1 <= b.1 && o.2 >= b.2 && o.3 >= b.3
        // Equal boxes: the first one stays.
        return k != i && inside && (area(o) > area(b) || k < i)
      }
    }
    .map { shapes[$0] }
  }
}
