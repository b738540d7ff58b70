import Foundation
import MorphCore
import MorphRender
import MorphTestSupport
import Testing

// Composed scenes checked against PNGs in Goldens/. To re-record one, delete it and run the
// tests with MORPH_RECORD_GOLDENS=1; look at the new image before committing it.

private let paper = Color(red: 0.949, green: 0.949, blue: 0.969)
private let accent = Color(red: 0.184, green: 0.435, blue: 0.929)
private let violet = Color(red: 0.478, green: 0.310, blue: 0.878)

private func gradient(_ a: Color, _ b: Color) -> Paint {
  .linearGradient(
    LinearGradient(
      stops: [.init(color: a, location: 0), .init(color: b, location: 1)], start: Point(0, 0),
      end: Point(1, 1)))
}

private func expectGolden(_ image: RasterImage, _ name: String) throws {
  let result = try Golden.assertImage(image, matches: goldenPath(name))
  #expect(result.passed, "\(result)")
}

/// A ticket: a rounded card with notches punched at the perforation, inside a group that
/// casts one shadow for the whole (notches included).
@Test func ticketGolden() throws {
  let size = Size(300, 120)
  let origin = Point(64, 84)
  let frame = Rect(origin: .zero, size: size)
  let perforation = 210.0
  func notch(_ y: Double) -> DisplayCommand {
    shape(
      .circle(in: Rect(x: -12, y: -12, width: 24, height: 24)), size: Size(24, 24),
      at: Point(origin.x + perforation, origin.y + y), fill: .color(.black),
      blend: .destinationOut)
  }
  var line = Path()
  line.move(to: Point(0, 16))
  line.line(to: Point(0, size.height - 16))
  let dashes = Stroke(
    paint: .color(Color(white: 1, alpha: 0.7)), width: 2, dash: [6, 5], cap: .round)
  let shadow = Shadow(color: Color(white: 0, alpha: 0.25), radius: 12, offset: Point(0, 6))
  let list: [DisplayCommand] = [
    .beginGroup(GroupStyle(shadow: shadow)),
    shape(
      .roundedRect(frame, radius: 18, style: .continuous), size: size, at: origin,
      fill: gradient(accent, violet)),
    shape(
      .roundedRect(Rect(x: 0, y: 0, width: 150, height: 14), radius: 7, style: .continuous),
      size: Size(150, 14), at: Point(origin.x + 24, origin.y + 28),
      fill: .color(Color(white: 1, alpha: 0.85))),
    shape(
      .roundedRect(Rect(x: 0, y: 0, width: 100, height: 10), radius: 5, style: .continuous),
      size: Size(100, 10), at: Point(origin.x + 24, origin.y + 54),
      fill: .color(Color(white: 1, alpha: 0.5))),
    shape(
      line, size: Size(0, size.height), at: Point(origin.x + perforation, origin.y),
      stroke: dashes),
    notch(0),
    notch(size.height),
    .endGroup,
  ]
  let image = try CairoRenderer().render(
    DisplayList(canvas: Size(428, 288), commands: list), background: paper)
  try expectGolden(image, "ticket.png")
}

/// A card turned 35° about y with perspective, with a soft shadow and a border, over a
/// flat card turned about x.
@Test func flipCardGolden() throws {
  let size = Size(220, 140)
  let frame = Rect(origin: .zero, size: size)
  func turned(_ degrees: Double, axis: (x: Double, y: Double, z: Double), at origin: Point)
    -> ProjectiveTransform
  {
    let anchor = Point(origin.x + size.width / 2, origin.y + size.height / 2)
    return ProjectiveTransform.rotation3D(
      degrees: degrees, axis: axis, anchor: anchor, perspective: 0.6, extent: size.width
    ).concatenating(after: ProjectiveTransform(.translation(origin.x, origin.y)))
  }
  let back = DisplayItem(
    kind: .roundedRect, path: .roundedRect(frame, radius: 18, style: .continuous), frame: frame,
    transform: turned(-50, axis: (1, 0, 0), at: Point(104, 150)), opacity: 0.6,
    fill: .color(Color(red: 0.204, green: 0.78, blue: 0.349)))
  let card = DisplayItem(
    kind: .roundedRect, path: .roundedRect(frame, radius: 18, style: .continuous), frame: frame,
    transform: turned(35, axis: (0, 1, 0), at: Point(104, 60)), fill: gradient(accent, violet),
    stroke: Stroke(paint: .color(Color(white: 1, alpha: 0.6)), width: 3),
    shadow: Shadow(color: Color(white: 0, alpha: 0.22), radius: 24, offset: Point(0, 12)))
  let image = try CairoRenderer().render(
    DisplayList(canvas: Size(428, 288), commands: [.item(back), .item(card)]),
    background: paper)
  try expectGolden(image, "flip-card.png")
}

/// Small shapes at scale 2: strokes, caps and joins, opacity, blend modes and clips.
@Test func shapesGolden() throws {
  var zigzag = Path()
  zigzag.move(to: Point(0, 30))
  zigzag.line(to: Point(20, 0))
  zigzag.line(to: Point(40, 30))
  zigzag.quad(to: Point(80, 30), control: Point(60, -10))
  let ring = Stroke(paint: .color(accent), width: 6, dash: [12, 6], cap: .round)
  let rotated = DisplayItem(
    kind: .rect, path: .rect(Rect(x: 0, y: 0, width: 40, height: 40)),
    frame: Rect(x: 0, y: 0, width: 40, height: 40),
    transform: ProjectiveTransform(
      AffineTransform.about(Point(150, 40), .rotation(degrees: 30))
        .concatenating(after: .translation(130, 20))),
    opacity: 0.6, fill: .color(violet))
  let clip = Clip(
    path: .circle(in: Rect(x: 110, y: 60, width: 60, height: 60)), transform: .identity)
  let list: [DisplayCommand] = [
    shape(
      .circle(in: Rect(x: 0, y: 0, width: 50, height: 50)), size: Size(50, 50),
      at: Point(15, 15), stroke: ring),
    shape(
      .capsule(in: Rect(x: 0, y: 0, width: 70, height: 24)), size: Size(70, 24),
      at: Point(90, 10), fill: .color(pureRed)),
    .item(rotated),
    shape(
      zigzag, size: Size(80, 30), at: Point(10, 80),
      stroke: Stroke(paint: .color(.black), width: 5, join: .round)),
    .beginGroup(GroupStyle(opacity: 0.8, clips: [clip])),
    filledRect(Rect(x: 100, y: 70, width: 80, height: 40), Color(red: 1, green: 0.8, blue: 0)),
    filledRect(Rect(x: 120, y: 60, width: 30, height: 60), pureBlue, blend: .multiply),
    .endGroup,
  ]
  let image = try CairoRenderer().render(
    DisplayList(canvas: Size(200, 120), commands: list), scale: 2, background: .white)
  try expectGolden(image, "shapes@2x.png")
}
