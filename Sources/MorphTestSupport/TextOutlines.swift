import MorphCore
import MorphRender

/// The check that vector exports (Lottie, SVG, PDF) draw text as the raster does: a display
/// list rendered as it is, and again with every text replaced by its glyph outlines
/// (`PangoTextMeasure.outline`) filled with the text's colour, as the vector writers do.
public enum TextOutlines {
  /// The PNG goldens' own: the raster fills the same cached outlines (`TextEngine`), so only
  /// a glyph the outline loses or misplaces can differ. A text in colour glyphs (emoji) is
  /// the exception, shown as bitmaps in the raster and flat as an outline.
  public static let tolerance = ImageTolerance.standard

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
