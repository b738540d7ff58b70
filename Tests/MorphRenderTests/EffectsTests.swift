import Foundation
import MorphCore
import MorphRender
import Testing

@Test func rotation3DMatchesTheDesignCheck() throws {
  // 96×132 at (60, 40), 45° about y through its centre, perspective 1
  // (docs/design.md, 3D rotation).
  let origin = Point(60, 40)
  let frame = Rect(x: 0, y: 0, width: 96, height: 132)
  let rotation = ProjectiveTransform.rotation3D(
    degrees: 45, axis: (0, 1, 0), anchor: Point(origin.x + 48, origin.y + 66), perspective: 1,
    extent: 132)
  let t = rotation.concatenating(after: ProjectiveTransform(.translation(origin.x, origin.y)))
  #expect(!t.isAffine)
  let quad = frame.corners.map(t.apply)
  #expect(abs(quad[0].x - origin.x - 2.311) < 0.001)
  #expect(abs(quad[0].y - origin.y + 22.845) < 0.001)
  let item = DisplayItem(
    kind: .rect, path: .rect(frame), frame: frame, transform: t, fill: .color(pureRed))
  let image = try render([.item(item)], canvas: Size(220, 220))
  let (tl, tr, br, bl) = (quad[0], quad[1], quad[2], quad[3])
  #expect(abs(tr.x - br.x) < 1e-9)  // the far edge stays vertical, and is shorter
  #expect(br.y - tr.y < bl.y - tl.y)
  func filled(_ x: Double, _ y: Double) -> Bool { rgba(image, Int(x), Int(y))[3] == 255 }
  func empty(_ x: Double, _ y: Double) -> Bool { rgba(image, Int(x), Int(y))[3] == 0 }
  // Just inside and outside the projected top-left corner.
  #expect(filled(tl.x + 2, tl.y + 3))
  #expect(empty(tl.x - 2, tl.y + 3))
  #expect(empty(tl.x + 2, tl.y - 3))
  // The slanted top edge, halfway along.
  let mid = Point((tl.x + tr.x) / 2, (tl.y + tr.y) / 2)
  #expect(filled(mid.x, mid.y + 2))
  #expect(empty(mid.x, mid.y - 2))
  // Near the projected top-right corner, and on the far edge.
  #expect(filled(tr.x - 2, tr.y + 3))
  #expect(empty(tr.x + 2, tr.y + 3))
  #expect(filled(tr.x - 2, (tr.y + br.y) / 2))
  #expect(empty(tr.x + 2, (tr.y + br.y) / 2))
  // Near the projected bottom-left corner.
  #expect(filled(bl.x + 2, bl.y - 3))
  #expect(empty(bl.x + 2, bl.y + 3))
}

@Test func destinationOutErasesOnlyInsideItsGroup() throws {
  // Green before the group; a pureRed group with a circle punched out over both.
  let hole = shape(
    .circle(in: Rect(x: 0, y: 0, width: 24, height: 24)), size: Size(24, 24),
    at: Point(18, 18), fill: .color(.black), blend: .destinationOut)
  let image = try render(
    [
      filledRect(Rect(x: 0, y: 0, width: 30, height: 60), pureGreen),
      .beginGroup(GroupStyle()),
      filledRect(Rect(x: 20, y: 10, width: 60, height: 40), pureRed),
      hole,
      .endGroup,
    ], canvas: Size(100, 60), background: .white)
  #expect(rgba(image, 25, 30) == [0, 255, 0, 255])  // in the hole, over green: pureGreen intact
  #expect(rgba(image, 36, 30) == [255, 255, 255, 255])  // in the hole, beyond green: background
  #expect(rgba(image, 50, 30) == [255, 0, 0, 255])  // group content
  #expect(rgba(image, 25, 5) == [0, 255, 0, 255])  // pureGreen outside the group
}

@Test func groupOpacityAppliesOnce() throws {
  let image = try render(
    [
      .beginGroup(GroupStyle(opacity: 0.5)),
      filledRect(Rect(x: 0, y: 0, width: 20, height: 20), pureRed),
      filledRect(Rect(x: 10, y: 0, width: 20, height: 20), pureRed),
      .endGroup,
    ], canvas: Size(30, 20), background: .white)
  #expect(approx(rgba(image, 5, 10), [255, 128, 128, 255]))
  #expect(approx(rgba(image, 15, 10), [255, 128, 128, 255]))  // the overlap is not darker
}

@Test func groupClipsAndBlendApply() throws {
  let clip = Clip(path: .rect(Rect(x: 0, y: 0, width: 10, height: 20)), transform: .identity)
  let image = try render(
    [
      .beginGroup(GroupStyle(blend: .multiply, clips: [clip])),
      filledRect(Rect(x: 0, y: 0, width: 20, height: 20), Color(red: 0, green: 1, blue: 1)),
      .endGroup,
    ], canvas: Size(20, 20), background: Color(red: 1, green: 1, blue: 0))
  #expect(rgba(image, 5, 10) == [0, 255, 0, 255])
  #expect(rgba(image, 15, 10) == [255, 255, 0, 255])
}

/// The share of the shadow colour in a pixel over white (0 = white, 1 = shadow colour).
private func shadowCoverage(_ image: RasterImage, _ x: Int, _ y: Int) -> Double {
  1 - Double(rgba(image, x, y)[0]) / 255
}

/// Φ(−t/σ): the alpha a blurred straight edge leaves at distance t outside it.
private func edgeProfile(_ t: Double, sigma: Double) -> Double {
  0.5 * erfc(t / (sigma * 2.0.squareRoot()))
}

@Test func blurredShadowFollowsAGaussianEdge() throws {
  let sigma = 8.0
  let shadow = Shadow(color: .black, radius: sigma)
  let image = try render(
    [filledRect(Rect(x: 80, y: 60, width: 40, height: 80), pureBlue, shadow: shadow)],
    canvas: Size(300, 200), background: .white)
  #expect(rgba(image, 100, 100) == [0, 0, 255, 255])  // the shape covers its shadow
  // Right edge at x = 120, at mid-height; pixel centres sit half a pixel further out.
  for column in [120, 124, 128, 136] {
    let expected = edgeProfile(Double(column) + 0.5 - 120, sigma: sigma)
    #expect(abs(shadowCoverage(image, column, 100) - expected) < 0.03, "column \(column)")
  }
  // Beyond the blur's 3σ reach nothing is touched, however close to the box.
  #expect(rgba(image, 120 + 26, 100) == [255, 255, 255, 255])
  #expect(rgba(image, 290, 100) == [255, 255, 255, 255])
  #expect(rgba(image, 5, 5) == [255, 255, 255, 255])
}

@Test func smallBlurIsGaussianToo() throws {
  let sigma = 1.5
  let image = try render(
    [
      filledRect(
        Rect(x: 10, y: 10, width: 20, height: 20), pureBlue,
        shadow: Shadow(color: .black, radius: sigma))
    ], canvas: Size(40, 40), background: .white)
  for column in [30, 31, 32] {
    let expected = edgeProfile(Double(column) + 0.5 - 30, sigma: sigma)
    #expect(abs(shadowCoverage(image, column, 20) - expected) < 0.02, "column \(column)")
  }
}

@Test func shadowOffsetIsInCanvasPoints() throws {
  // A hard shadow (radius 0) offset by (6, 4) points at scale 2: 12×8 pixels.
  let shadow = Shadow(color: Color(white: 0, alpha: 0.5), radius: 0, offset: Point(6, 4))
  let image = try render(
    [filledRect(Rect(x: 10, y: 10, width: 20, height: 20), pureBlue, shadow: shadow)],
    canvas: Size(50, 50), scale: 2, background: .white)
  // The shape covers pixels 20..<60; the shadow 32..<72 across and 28..<68 down.
  #expect(rgba(image, 30, 30) == [0, 0, 255, 255])
  #expect(approx(rgba(image, 65, 28), [128, 128, 128, 255]))
  #expect(rgba(image, 65, 27) == [255, 255, 255, 255])
  #expect(approx(rgba(image, 71, 67), [128, 128, 128, 255]))
  #expect(rgba(image, 72, 50) == [255, 255, 255, 255])
  #expect(rgba(image, 50, 68) == [255, 255, 255, 255])
}

@Test func shadowOfAGroupUsesItsComposedAlpha() throws {
  let shadow = Shadow(color: .black, radius: 0, offset: Point(10, 0))
  let slot = shape(
    .rect(Rect(x: 0, y: 0, width: 5, height: 40)), size: Size(5, 40), at: Point(40, 10),
    fill: .color(.black), blend: .destinationOut)
  let image = try render(
    [
      .beginGroup(GroupStyle(shadow: shadow)),
      filledRect(Rect(x: 10, y: 10, width: 40, height: 40), pureRed),
      slot,
      .endGroup,
    ], canvas: Size(80, 60), background: .white)
  // Red at 10..<40 and 45..<50; the shadow, 10 to the right, has its own slot at 50..<55.
  #expect(rgba(image, 15, 30) == [255, 0, 0, 255])
  #expect(rgba(image, 42, 30) == [0, 0, 0, 255])  // through the slot: the shadow below
  #expect(rgba(image, 47, 30) == [255, 0, 0, 255])
  #expect(rgba(image, 52, 30) == [255, 255, 255, 255])  // the slot's shadow is a gap
  #expect(rgba(image, 57, 30) == [0, 0, 0, 255])
  #expect(rgba(image, 60, 30) == [255, 255, 255, 255])
}

@Test func fadedShadowedItemFadesAsOne() throws {
  let shadow = Shadow(color: .black, radius: 0, offset: Point(5, 0))
  let image = try render(
    [filledRect(Rect(x: 0, y: 0, width: 20, height: 10), pureRed, opacity: 0.5, shadow: shadow)],
    canvas: Size(30, 10), background: .white)
  #expect(approx(rgba(image, 10, 5), [255, 128, 128, 255]))  // no shadow showing through
  #expect(approx(rgba(image, 22, 5), [128, 128, 128, 255]))
}
