import Foundation
import MorphCore
import MorphRender
import Testing

/// A shape with its layout frame at `origin` on the canvas.
func shape(
  _ path: Path, size: Size, at origin: Point = .zero, fill: Paint? = nil, stroke: Stroke? = nil,
  opacity: Double = 1, shadow: Shadow? = nil, blend: BlendMode = .normal, clips: [Clip] = []
) -> DisplayCommand {
  .item(
    DisplayItem(
      kind: .path, path: path, frame: Rect(origin: .zero, size: size),
      transform: ProjectiveTransform(.translation(origin.x, origin.y)), opacity: opacity,
      fill: fill, stroke: stroke, shadow: shadow, clips: clips, blend: blend))
}

/// A rectangle filled with `color`, its frame at `r`.
func filledRect(
  _ r: Rect, _ color: Color, opacity: Double = 1, shadow: Shadow? = nil,
  blend: BlendMode = .normal
) -> DisplayCommand {
  shape(
    .rect(Rect(origin: .zero, size: r.size)), size: r.size, at: r.origin, fill: .color(color),
    opacity: opacity, shadow: shadow, blend: blend)
}

func render(
  _ commands: [DisplayCommand], canvas: Size, scale: Double = 1, background: Color? = nil
) throws -> RasterImage {
  try CairoRenderer().render(
    DisplayList(canvas: canvas, commands: commands), scale: scale, background: background)
}

/// The pixel as an array, for readable expectations.
func rgba(_ image: RasterImage, _ x: Int, _ y: Int) -> [Int] {
  let p = image.pixel(x: x, y: y)
  return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
}

/// True when every channel is within `tolerance` of `expected`.
func approx(_ actual: [Int], _ expected: [Int], _ tolerance: Int = 1) -> Bool {
  zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance }
}

let pureRed = Color(red: 1, green: 0, blue: 0)
let pureBlue = Color(red: 0, green: 0, blue: 1)
let pureGreen = Color(red: 0, green: 1, blue: 0)

/// A golden PNG in `Goldens/` beside this file.
func goldenPath(_ name: String, file: String = #filePath) -> String {
  URL(fileURLWithPath: file).deletingLastPathComponent()
    .appendingPathComponent("Goldens").appendingPathComponent(name).path
}
