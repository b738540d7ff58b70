import MorphCore

/// One subpath as Lottie stores it: vertices, and each vertex's incoming and outgoing
/// control points relative to it. Quadratic segments become their exact cubics.
struct BezierShape: Equatable {
  var closed: Bool
  var vertices: [Point]
  /// Absolute control points (a straight segment's are its end points).
  var inPoints: [Point]
  var outPoints: [Point]

  /// The subpaths of `path`, each point mapped through `map` (a homography maps a
  /// cubic's control points as the host's renderer does).
  static func subpaths(of path: Path, map: (Point) -> Point = { $0 }) -> [BezierShape] {
    var shapes: [BezierShape] = []
    var current: BezierShape?
    func finish() {
      if let shape = current, shape.vertices.count > 1 || shape.closed { shapes.append(shape) }
      current = nil
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        finish()
        current = BezierShape(closed: false, vertices: [p], inPoints: [p], outPoints: [p])
      case .line(let p):
        current?.append(p, in: p)
      case .quad(let p, let c):
        guard let last = current?.vertices.last else { continue }
        current?.setLastOut(last + (c - last) * (2.0 / 3))
        current?.append(p, in: p + (c - p) * (2.0 / 3))
      case .cubic(let p, let c1, let c2):
        current?.setLastOut(c1)
        current?.append(p, in: c2)
      case .close:
        current?.closeUp()
        finish()
      }
    }
    finish()
    return shapes.map { $0.mapped(map) }
  }

  private mutating func setLastOut(_ control: Point) {
    outPoints[outPoints.count - 1] = control
  }

  private mutating func append(_ p: Point, in control: Point) {
    vertices.append(p)
    inPoints.append(control)
    outPoints.append(p)
  }

  /// A closing segment that already ends on the start merges its last vertex into the first.
  private mutating func closeUp() {
    closed = true
    if vertices.count > 1, let first = vertices.first, let last = vertices.last,
      first.distance(to: last) < 1e-9
    {
      inPoints[0] = inPoints.removeLast()
      vertices.removeLast()
      outPoints.removeLast()
    }
  }

  func mapped(_ f: (Point) -> Point) -> BezierShape {
    BezierShape(
      closed: closed, vertices: vertices.map(f), inPoints: inPoints.map(f),
      outPoints: outPoints.map(f))
  }

  /// Vertex, in-tangent and out-tangent coordinates, vertex after vertex.
  var numbers: [Double] {
    var out: [Double] = []
    out.reserveCapacity(vertices.count * 6)
    for k in vertices.indices {
      let (v, i, o) = (vertices[k], inPoints[k] - vertices[k], outPoints[k] - vertices[k])
      out += [v.x, v.y, i.x, i.y, o.x, o.y]
    }
    return out
  }

  /// A shape as one vector: its closed flag (1 or 0), then `numbers`.
  static func shapeNumbers(_ shape: BezierShape) -> [Double] {
    [shape.closed ? 1 : 0] + shape.numbers
  }

  /// The inverse of `shapeNumbers`.
  static func decode(_ numbers: [Double]) -> BezierShape {
    var vertices: [Point] = []
    var ins: [Point] = []
    var outs: [Point] = []
    var k = 1
    while k + 6 <= numbers.count {
      let v = Point(numbers[k], numbers[k + 1])
      vertices.append(v)
      ins.append(v + Point(numbers[k + 2], numbers[k + 3]))
      outs.append(v + Point(numbers[k + 4], numbers[k + 5]))
      k += 6
    }
    return BezierShape(
      closed: numbers.first == 1, vertices: vertices, inPoints: ins, outPoints: outs)
  }

  /// The shape's JSON, made straight into text (keys in the writer's order: c, i, o, v):
  /// a glyph outline has thousands of shapes, and as trees of values their keyframes
  /// took ten times the memory of the text.
  func lottie(_ decimals: Int) -> LottieJSON {
    // lottie-web stops drawing the whole animation at a path without vertices (the
    // progress ring's arc at 0); one vertex, open, is a move with no segment: nothing drawn.
    if vertices.isEmpty { return ["c": false, "v": [[0, 0]], "i": [[0, 0]], "o": [[0, 0]]] }
    var out = closed ? "{\"c\":true,\"i\":" : "{\"c\":false,\"i\":"
    func list(_ points: some Sequence<Point>) {
      out += "["
      for (n, p) in points.enumerated() {
        out += n == 0 ? "[" : ",["
        out += LottieJSON.format(LottieJSON.roundedValue(p.x, decimals))
        out += ","
        out += LottieJSON.format(LottieJSON.roundedValue(p.y, decimals))
        out += "]"
      }
      out += "]"
    }
    list(zip(inPoints, vertices).lazy.map { $0 - $1 })
    out += ",\"o\":"
    list(zip(outPoints, vertices).lazy.map { $0 - $1 })
    out += ",\"v\":"
    list(vertices)
    out += "}"
    return .raw(out)
  }
}
