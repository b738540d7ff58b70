import Foundation
import MorphCore
import MorphRender
import Testing

@Test func redRectFillsExactlyItsPixels() throws {
  let image = try render(
    [filledRect(Rect(x: 5, y: 5, width: 10, height: 10), pureRed)], canvas: Size(20, 20))
  #expect(image.width == 20 && image.height == 20)
  #expect(rgba(image, 5, 5) == [255, 0, 0, 255])
  #expect(rgba(image, 14, 14) == [255, 0, 0, 255])
  #expect(rgba(image, 4, 10) == [0, 0, 0, 0])
  #expect(rgba(image, 15, 10) == [0, 0, 0, 0])
  #expect(rgba(image, 10, 15) == [0, 0, 0, 0])
}

@Test func edgePixelsArePartlyCovered() throws {
  // Edges at x = 5.5 and 15.5 cover half of columns 5 and 15; colour stays pure pureRed.
  let image = try render(
    [filledRect(Rect(x: 5.5, y: 5, width: 10, height: 10), pureRed)], canvas: Size(20, 20))
  #expect(approx(rgba(image, 5, 10), [255, 0, 0, 128], 2))
  #expect(approx(rgba(image, 15, 10), [255, 0, 0, 128], 2))
  #expect(rgba(image, 6, 10) == [255, 0, 0, 255])
}

@Test func halfOpacityOverWhiteIsPink() throws {
  let image = try render(
    [filledRect(Rect(x: 0, y: 0, width: 10, height: 10), pureRed, opacity: 0.5)],
    canvas: Size(10, 10), background: .white)
  #expect(approx(rgba(image, 5, 5), [255, 128, 128, 255]))
}

@Test func translucentPixelsAreStraightAlpha() throws {
  let color = Color(red: 0.2, green: 0.4, blue: 1)
  let image = try render(
    [filledRect(Rect(x: 0, y: 0, width: 4, height: 4), color, opacity: 0.25)],
    canvas: Size(4, 4))
  #expect(approx(rgba(image, 1, 1), [51, 102, 255, 64], 3))
}

@Test func squareRotatedBy45Degrees() throws {
  // A 20×20 square centred at (50, 50): its corners move onto the axes, 14.14 from the centre.
  let t = AffineTransform.about(Point(50, 50), .rotation(degrees: 45))
    .concatenating(after: .translation(40, 40))
  let frame = Rect(x: 0, y: 0, width: 20, height: 20)
  let item = DisplayItem(
    kind: .rect, path: .rect(frame), frame: frame, transform: ProjectiveTransform(t),
    fill: .color(pureRed))
  let image = try render([.item(item)], canvas: Size(100, 100))
  #expect(rgba(image, 50, 50) == [255, 0, 0, 255])
  #expect(rgba(image, 61, 50) == [255, 0, 0, 255])  // towards the right-hand corner (64.1)
  #expect(rgba(image, 50, 38) == [255, 0, 0, 255])  // towards the top corner (35.9)
  #expect(rgba(image, 41, 41) == [0, 0, 0, 0])  // where the unrotated corner was
  #expect(rgba(image, 66, 50) == [0, 0, 0, 0])
  #expect(rgba(image, 58, 42) == [0, 0, 0, 0])  // outside the diagonal edge
}

@Test func scaleTwoDoublesThePixels() throws {
  let image = try render(
    [filledRect(Rect(x: 5, y: 5, width: 10, height: 10), pureRed)], canvas: Size(20, 20), scale: 2)
  #expect(image.width == 40 && image.height == 40)
  #expect(rgba(image, 9, 9) == [0, 0, 0, 0])
  #expect(rgba(image, 10, 10) == [255, 0, 0, 255])
  #expect(rgba(image, 29, 29) == [255, 0, 0, 255])
  #expect(rgba(image, 30, 30) == [0, 0, 0, 0])
}

@Test func dashedStrokeHasGaps() throws {
  var line = Path()
  line.move(to: Point(0, 0))
  line.line(to: Point(80, 0))
  let stroke = Stroke(paint: .color(pureBlue), width: 4, dash: [10, 10])
  let image = try render(
    [shape(line, size: Size(80, 0), at: Point(10, 10), stroke: stroke)], canvas: Size(100, 20))
  #expect(rgba(image, 15, 10) == [0, 0, 255, 255])
  #expect(rgba(image, 25, 10) == [0, 0, 0, 0])
  #expect(rgba(image, 35, 10) == [0, 0, 255, 255])
  #expect(rgba(image, 45, 10) == [0, 0, 0, 0])
  #expect(rgba(image, 15, 13) == [0, 0, 0, 0])  // 4 wide: rows 8 to 11
}

@Test func linearGradientRunsAcrossTheFrame() throws {
  let gradient = LinearGradient(
    stops: [.init(color: pureRed, location: 0), .init(color: pureBlue, location: 1)],
    start: Point(0, 0.5), end: Point(1, 0.5))
  let bar = Rect(x: 0, y: 0, width: 100, height: 10)
  let image = try render(
    [shape(.rect(bar), size: bar.size, fill: .linearGradient(gradient))], canvas: bar.size)
  #expect(approx(rgba(image, 0, 5), [254, 0, 1, 255], 3))
  #expect(approx(rgba(image, 99, 5), [1, 0, 254, 255], 3))
  #expect(approx(rgba(image, 50, 5), [126, 0, 129, 255], 4))
}

@Test func clipLimitsTheItem() throws {
  let box = Rect(x: 0, y: 0, width: 40, height: 40)
  let circle = Clip(path: .circle(in: box), transform: .identity)
  let image = try render(
    [shape(.rect(box), size: box.size, fill: .color(pureRed), clips: [circle])], canvas: box.size)
  #expect(rgba(image, 20, 20) == [255, 0, 0, 255])
  #expect(rgba(image, 2, 2) == [0, 0, 0, 0])
}

@Test func fillAndStrokeFadeTogether() throws {
  // At opacity 0.5 the fill must not show through the stroke: one layer, faded once.
  let stroke = Stroke(paint: .color(pureBlue), width: 10)
  let box = Rect(x: 0, y: 0, width: 40, height: 40)
  let image = try render(
    [
      shape(
        .rect(box), size: box.size, at: Point(10, 10), fill: .color(pureRed), stroke: stroke,
        opacity: 0.5)
    ], canvas: Size(60, 60), background: .white)
  #expect(approx(rgba(image, 10, 30), [128, 128, 255, 255], 2))  // stroke over fill
  #expect(approx(rgba(image, 30, 30), [255, 128, 128, 255], 2))  // fill only
}

@Test func multiplyBlendDarkens() throws {
  let box = Rect(x: 0, y: 0, width: 10, height: 10)
  let image = try render(
    [
      filledRect(box, Color(red: 1, green: 1, blue: 0)),
      filledRect(box, Color(red: 0, green: 1, blue: 1), blend: .multiply),
    ], canvas: box.size, background: .white)
  #expect(rgba(image, 5, 5) == [0, 255, 0, 255])
}
