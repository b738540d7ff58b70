import Foundation
import MorphCore
import MorphRender
import MorphScript
import Testing

@testable import MorphHost

/// The seed's geometry written out independently: the 220×140 card centred in
/// the 428×288 canvas, scaled by 1 − 0.03·bump about its centre, then turned
/// by 360·p° about y with perspective 0.6 (d = 220 / 0.6).
private func expectedCorners(progress p: Double) -> [Point] {
  let angle = 360 * p
  let segment = angle / 180
  let bump = sin((segment - segment.rounded(.down)) * .pi)
  let s = 1 - 0.03 * bump
  let theta = angle * .pi / 180
  let d = 220 / 0.6
  let centre = Point(214, 144)
  return [(-110.0, -70.0), (110, -70), (110, 70), (-110, 70)].map { corner in
    let x = corner.0 * s
    let y = corner.1 * s
    let vx = x * cos(theta)
    let vz = -x * sin(theta)
    let w = 1 - vz / d
    return Point(centre.x + vx / w, centre.y + y / w)
  }
}

@Suite struct FlipGeometryTests {
  @Test(arguments: progressPoints)
  func frontFaceCornersFollowTheSeed(_ p: Double) throws {
    let h = try host("flip")
    let frame = try h.frame(atProgress: p)
    let front = try item(frame, "front")
    for (actual, expected) in zip(front.quad, expectedCorners(progress: p)) {
      #expect(close(actual, expected), "p = \(p): \(actual) vs \(expected)")
    }
    let normalized = (360 * p).truncatingRemainder(dividingBy: 360)
    let frontFacing = normalized < 90 || normalized >= 270
    #expect(front.opacity == (frontFacing ? 1 : 0))
    #expect(try item(frame, "back").opacity == (frontFacing ? 0 : 1))
  }

  @Test func shadowTightensMidTurn() throws {
    let h = try host("flip")
    let rest = try h.frame(atProgress: 0)
    let edge = try h.frame(atProgress: 0.25)
    func shadowRadius(_ f: ComponentHost.Frame) -> Double? {
      for case .beginGroup(let style) in f.list.commands { return style.shadow?.radius }
      return nil
    }
    #expect(abs((shadowRadius(rest) ?? 0) - 24) < 1e-9)
    // The shadow is written after the scale, so the scale does not shrink it.
    #expect(abs((shadowRadius(edge) ?? 0) - 8) < 1e-9)
  }

}
