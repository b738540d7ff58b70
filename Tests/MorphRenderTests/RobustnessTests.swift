import Foundation
import MorphCore
import MorphRender
import Testing

@Test func tooLargeCanvasIsRefused() {
  let renderer = CairoRenderer()
  #expect {
    try renderer.render(DisplayList(canvas: Size(100_000, 100_000)))
  } throws: { error in
    "\(error)" == "canvas 100000×100000 at scale 1 is too large (max 16384 px a side)"
  }
  #expect {
    try renderer.render(DisplayList(canvas: Size(5000, 5000)), scale: 2)
  } throws: { error in
    "\(error)" == "canvas 5000×5000 at scale 2 is too large (10000×10000 px; max 64 Mpx)"
  }
  #expect(throws: RenderError.self) {
    try renderer.render(DisplayList(canvas: Size(10, 10)), scale: .nan)
  }
  #expect(throws: RenderError.self) {
    try renderer.render(DisplayList(canvas: Size(.infinity, 10)))
  }
}

@Test func brokenItemsAreSkipped() throws {
  let nan = ProjectiveTransform(.translation(.nan, 0))
  let collapsed = ProjectiveTransform(.scale(0, 1))
  var badPath = Path()
  badPath.move(to: Point(0, 0))
  badPath.line(to: Point(.infinity, 5))
  let frame = Rect(x: 0, y: 0, width: 10, height: 10)
  func item(_ path: Path, _ t: ProjectiveTransform) -> DisplayCommand {
    .item(
      DisplayItem(
        kind: .rect, path: path, frame: frame, transform: t, fill: .color(pureBlue),
        stroke: Stroke(paint: .color(pureBlue), dash: [-1, .nan])))
  }
  let image = try render(
    [
      item(.rect(frame), nan), item(.rect(frame), collapsed), item(badPath, .identity),
      filledRect(frame, pureRed),
    ], canvas: frame.size)
  #expect(rgba(image, 5, 5) == [255, 0, 0, 255])
}

@Test func partsBehindTheEyeAreCut() throws {
  // The weight turns negative for x > 50: the part in front still draws, nothing crashes.
  let t = ProjectiveTransform(
    m11: 1, m12: 0, m13: -0.02, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
  let frame = Rect(x: 0, y: 0, width: 100, height: 20)
  let item = DisplayItem(
    kind: .rect, path: .roundedRect(frame, radius: 5, style: .continuous), frame: frame,
    transform: t, fill: .color(pureRed), stroke: Stroke(paint: .color(pureBlue), width: 2))
  let image = try render([.item(item)], canvas: Size(200, 60))
  #expect(rgba(image, 10, 10) == [255, 0, 0, 255])
}

@Test func unbalancedGroupsAreAnError() throws {
  let renderer = CairoRenderer()
  #expect(throws: RenderError.self) {
    try renderer.render(DisplayList(canvas: Size(10, 10), commands: [.endGroup]))
  }
  #expect(throws: RenderError.self) {
    try renderer.render(DisplayList(canvas: Size(10, 10), commands: [.beginGroup(GroupStyle())]))
  }
  // Still usable afterwards.
  let image = try renderer.render(
    DisplayList(
      canvas: Size(10, 10), commands: [filledRect(Rect(x: 0, y: 0, width: 10, height: 10), pureRed)]
    ))
  #expect(rgba(image, 5, 5) == [255, 0, 0, 255])
}

@Test func rendererReusesItsSurfaces() throws {
  let renderer = CairoRenderer()
  let a = DisplayList(
    canvas: Size(20, 20), commands: [filledRect(Rect(x: 0, y: 0, width: 10, height: 10), pureRed)])
  let b = DisplayList(
    canvas: Size(20, 20),
    commands: [filledRect(Rect(x: 10, y: 10, width: 10, height: 10), pureBlue)])
  var image = try renderer.render(a)
  try renderer.render(b, into: &image)
  #expect(rgba(image, 5, 5) == [0, 0, 0, 0])  // the previous frame is gone
  #expect(rgba(image, 15, 15) == [0, 0, 255, 255])
  #expect(try renderer.render(a) == renderer.render(a))
  let bigger = try renderer.render(DisplayList(canvas: Size(30, 10)))
  #expect(bigger.width == 30 && bigger.height == 10)
}

@Test func pngRoundTripIsExact() throws {
  let gradient = LinearGradient(
    stops: [.init(color: pureRed.opacity(0.2), location: 0), .init(color: pureBlue, location: 1)],
    start: Point(0, 0), end: Point(1, 1))
  let disc = Rect(x: 0, y: 0, width: 30, height: 30)
  let image = try render(
    [
      shape(
        .circle(in: disc), size: disc.size, at: Point(3, 2), fill: .linearGradient(gradient),
        opacity: 0.7, shadow: Shadow(radius: 3))
    ], canvas: Size(40, 36))
  let png = try image.pngData()
  #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
  let decoded = try RasterImage.decodePNG(png)
  #expect(decoded == image)
  #expect(throws: RenderError.self) { try RasterImage.decodePNG([1, 2, 3]) }
}

@Test func textRendersAndMeasures() throws {
  let run = TextRun(string: "Hello", size: 20, weight: .bold, color: .black)
  let measure = PangoTextMeasure()
  let ideal = ProposedSize(width: nil, height: nil)
  let size = measure.measure(run, in: ideal).size
  #expect(size.width > 20 && size.height > 15)
  // Unhinted: scales linearly (within one cut: Inter Display takes over from 20 pt).
  let big = measure.measure(
    TextRun(string: "Hello", size: 48, weight: .bold, color: .black), in: ideal
  ).size
  let half = measure.measure(
    TextRun(string: "Hello", size: 24, weight: .bold, color: .black), in: ideal
  ).size
  #expect(abs(big.width - 2 * half.width) < 0.01)
  let regular = measure.measure(TextRun(string: "Hello", size: 20, color: .black), in: ideal).size
  #expect(regular.width < size.width)
  let frame = Rect(x: 0, y: 0, width: 100, height: 40)
  let item = DisplayItem(
    kind: .text, path: .rect(frame), frame: frame, transform: .identity, text: run)
  let image = try render([.item(item)], canvas: frame.size, background: .white)
  var dark = 0
  for y in 0..<40 {
    for x in 0..<100 where rgba(image, x, y)[0] < 128 { dark += 1 }
  }
  #expect(dark > 50)
  // Centred: the outer columns stay blank.
  #expect((0..<40).allSatisfy { rgba(image, 2, $0) == [255, 255, 255, 255] })
  #expect((0..<40).allSatisfy { rgba(image, 97, $0) == [255, 255, 255, 255] })
}

/// Issue 8, item 7: 200 shadows of radius 1e300 (each clamped to σ 256, about 4 Mpx of
/// blur) took 36 s; the frame is now refused before any of it is blurred.
@Test func hugeShadowsAreRefusedBeforeBlurring() throws {
  let frame = Rect(x: 0, y: 0, width: 20, height: 20)
  let item = DisplayCommand.item(
    DisplayItem(
      id: "card", kind: .rect, path: .rect(frame), frame: frame, fill: .color(pureRed),
      shadow: Shadow(radius: 1e300)))
  let list = DisplayList(canvas: Size(428, 288), commands: Array(repeating: item, count: 200))
  let renderer = CairoRenderer()
  let start = Date()
  #expect {
    try renderer.render(list)
  } throws: { error in
    "\(error)".hasPrefix("frame's shadows and blurs blur more than 32 Mpx (the frame budget)")
  }
  // The refusal comes from adding up plans, not from blurring: far below the 36 s it took.
  #expect(Date().timeIntervalSince(start) < 10)
  // A few ordinary shadows stay well inside the budget.
  let small = DisplayCommand.item(
    DisplayItem(
      kind: .rect, path: .rect(frame), frame: frame, fill: .color(pureRed),
      shadow: Shadow(radius: 8)))
  _ = try renderer.render(
    DisplayList(canvas: Size(428, 288), commands: Array(repeating: small, count: 50)), scale: 2)
}
