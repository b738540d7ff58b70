import Foundation

/// How a rounded rectangle's corners are drawn; the first case is the default.
public enum CornerStyle: String, Sendable, CaseIterable {
  /// Apple's smooth (curvature-continuous) corners, as SwiftUI's `.continuous`.
  case continuous
  /// Quarter circles, as SwiftUI's `.circular`.
  case circular
}

// Standard shapes. Each is a closed path drawn clockwise on the y-down canvas. A rect with
// zero, negative or NaN width or height gives an empty path (negative sizes clamp to 0).

extension Path {
  /// The rectangle `r`, clockwise from its top-left corner.
  public static func rect(_ r: Rect) -> Path {
    var p = Path()
    if hasArea(r) { p.addRect(r) }
    return p
  }

  /// The ellipse inscribed in `r`.
  public static func ellipse(in r: Rect) -> Path {
    var p = Path()
    if hasArea(r) { p.addEllipse(in: r) }
    return p
  }

  /// A circle of diameter `min(w, h)` centred in `r`, like SwiftUI's `Circle`.
  public static func circle(in r: Rect) -> Path {
    guard hasArea(r) else { return Path() }
    let d = min(r.width, r.height)
    return ellipse(in: Rect(x: r.midX - d / 2, y: r.midY - d / 2, width: d, height: d))
  }

  /// A capsule: circular ends of radius `min(w, h) / 2`, like SwiftUI's `Capsule()`.
  public static func capsule(in r: Rect) -> Path {
    roundedRect(r, radius: min(r.width, r.height) / 2, style: .circular)
  }

  /// A rounded rectangle.
  ///
  /// Circular corners cap `radius` at `min(w, h) / 2`; continuous corners extend
  /// 1.528665·radius along each edge, so they cap it at `min(w, h) / 2 / 1.528665`.
  /// The path starts on the top edge where the top-left corner ends, and runs clockwise.
  public static func roundedRect(_ r: Rect, radius: Double, style: CornerStyle) -> Path {
    guard hasArea(r) else { return Path() }
    let corner = style == .continuous ? continuousCorner : circularCorner
    let extent = corner.last!.end.y
    let cap = min(r.width, r.height) / 2 / extent
    let radius = radius.isNaN ? 0 : min(max(radius, 0), cap)
    guard radius > 0 else { return rect(r) }
    var p = Path()
    p.move(to: Point(r.minX + extent * radius, r.minY))
    for frame in cornerFrames(r) {
      p.lineIfMoved(to: frame.map(Point(extent, 0), radius))
      for c in corner {
        p.cubic(
          to: frame.map(c.end, radius), c1: frame.map(c.c1, radius),
          c2: frame.map(c.c2, radius))
      }
    }
    p.close()
    return p
  }

  private static func hasArea(_ r: Rect) -> Bool { r.width > 0 && r.height > 0 }

  private mutating func lineIfMoved(to p: Point) {
    if currentPoint != p { line(to: p) }
  }
}

/// One corner cubic in corner-local units of the radius: `x` runs back along the incoming
/// edge, `y` forward along the outgoing side.
private struct CornerCubic {
  var c1: Point
  var c2: Point
  var end: Point
}

/// A corner's origin and local axes, mapping local units of the radius to the canvas.
private struct CornerFrame {
  var corner: Point
  var alongEdge: Point
  var alongSide: Point

  func map(_ local: Point, _ radius: Double) -> Point {
    corner + alongEdge * (local.x * radius) + alongSide * (local.y * radius)
  }
}

/// Top-right, bottom-right, bottom-left, top-left: the clockwise order.
private func cornerFrames(_ r: Rect) -> [CornerFrame] {
  [
    CornerFrame(corner: Point(r.maxX, r.minY), alongEdge: Point(-1, 0), alongSide: Point(0, 1)),
    CornerFrame(corner: Point(r.maxX, r.maxY), alongEdge: Point(0, -1), alongSide: Point(-1, 0)),
    CornerFrame(corner: Point(r.minX, r.maxY), alongEdge: Point(1, 0), alongSide: Point(0, -1)),
    CornerFrame(corner: Point(r.minX, r.minY), alongEdge: Point(0, 1), alongSide: Point(1, 0)),
  ]
}

/// A quarter circle of unit radius from (1, 0) to (0, 1).
private let circularCorner: [CornerCubic] = {
  let k = 1 - 0.5522847498
  return [CornerCubic(c1: Point(k, 0), c2: Point(0, k), end: Point(0, 1))]
}()

/// SwiftUI's continuous corner, from (1.528665, 0) to (0, 1.528665)
/// (docs/design.md, Continuous corners).
private let continuousCorner: [CornerCubic] = [
  CornerCubic(
    c1: Point(1.088_492_96, 0), c2: Point(0.868_406_94, 0),
    end: Point(0.631_493_79, 0.074_911_39)),
  CornerCubic(
    c1: Point(0.372_823_83, 0.169_059_56), c2: Point(0.169_059_56, 0.372_823_83),
    end: Point(0.074_911_39, 0.631_493_79)),
  CornerCubic(
    c1: Point(0, 0.868_406_94), c2: Point(0, 1.088_492_96), end: Point(0, 1.528_665)),
]
