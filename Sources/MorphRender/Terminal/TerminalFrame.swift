import MorphCore

/// A display list drawn as terminal text: rasterised at cell resolution (one
/// pixel wide, two tall per cell) and converted with half blocks.
public enum TerminalFrame {
  public static func render(
    _ list: DisplayList, cols: Int, rows: Int, mode: TerminalColorMode,
    background: Color? = .white, renderer: CairoRenderer
  ) throws(RenderError) -> String {
    let grid = TerminalLayout.fit(
      canvas: (list.canvas.width, list.canvas.height), cols: cols, rows: rows)
    let scale = Double(grid.cols) / list.canvas.width
    let image = try renderer.render(list, scale: scale, background: background)
    return TerminalRenderer(mode: mode, background: background ?? .white).render(image)
  }
}
