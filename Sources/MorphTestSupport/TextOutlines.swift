import MorphCore
import MorphRender

/// The check that vector exports (Lottie, SVG, PDF) draw text as the raster does: a display
/// list rendered as it is, and again with every text replaced by its glyph outlines
/// (`PangoTextMeasure.outline`) filled with the text's colour, as the vector writers do.
public enum TextOutlines {
  /// FreeType's glyph bitmaps and Cairo's fill of the same outlines antialias edges apart:
  /// stray pixels, up to some 0.15 % of a small canvas; and Cairo places a glyph's bitmap at
  /// a quarter-pixel phase where the path lies exact, so one column along a straight stem
  /// can differ for the stem's height (24 pixels for a 17 pt "N" at scale 2). A glyph left
  /// out is a larger blob: the lost "ped" of card_stack's caption, 164 touching pixels.
  public static let tolerance = ImageTolerance(maxDifferingFraction: 0.003, maxClusterPixels: 64)

  /// `list` with each text item as a path item of its glyph outlines.
  public static func outlined(_ list: DisplayList) -> DisplayList {
    DisplayList(
      canvas: list.canvas,
      commands: list.commands.map { command in
        guard case .item(var item) = command, let run = item.text else { return command }
        item.path = PangoTextMeasure.outline(run, in: item.frame) ?? Path()
        item.kind = .path
        item.fill = .color(run.color)
        item.text = nil
        return .item(item)
      })
  }

  /// How far the outlined list's rendering is from the list's own, over white.
  public static func difference(_ list: DisplayList, scale: Double = 2) throws -> ImageDifference {
    let renderer = CairoRenderer()
    let drawn = try renderer.render(list, scale: scale, background: .white)
    let outlined = try renderer.render(outlined(list), scale: scale, background: .white)
    return ImageComparison.compare(expected: drawn, actual: outlined)!
  }
}
