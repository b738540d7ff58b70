import MorphCore
import MorphRender

/// Where the live view's picture sits: the largest size that fits the cells
/// above the error panel and status line, centred in them. Text draws a cell
/// as two pixels (`TerminalLayout`); an image fills the cells' real pixels.
struct PictureLayout: Equatable {
  /// The picture's size in cells and its top-left cell (0-based).
  var cols: Int
  var rows: Int
  var originCol: Int
  var originRow: Int
  /// Pixels per canvas point of the raster drawn (one text pixel a column for text).
  var scale: Double
  /// A cell's size in pixels of that raster.
  var cell: CellSize

  /// Text: half blocks in `cols × rows` cells.
  static func text(canvas: Size, cols: Int, rows: Int) -> PictureLayout {
    let fitted = TerminalLayout.fit(canvas: (canvas.width, canvas.height), cols: cols, rows: rows)
    return PictureLayout(
      cols: fitted.cols, rows: fitted.rows, originCol: max(0, (cols - fitted.cols) / 2),
      originRow: max(0, (rows - fitted.rows) / 2), scale: Double(fitted.cols) / canvas.width,
      cell: CellSize(width: 1, height: 2))
  }

  /// An image as large as the pixels of `cols × rows` cells of `cell` allow.
  static func image(canvas: Size, cols: Int, rows: Int, cell given: CellSize) -> PictureLayout {
    // The probe keeps only plausible answers; a caller's other cell must not trap below.
    let cell = given.isPlausible ? given : CellSize(width: 8, height: 16)
    let width = Double(max(1, cols)) * cell.width
    let height = Double(max(1, rows)) * cell.height
    let scale = max(0.01, min(width / canvas.width, height / canvas.height))
    let pixels =
      (try? CairoRenderer.pixelSize(canvas, scale: scale)) ?? (Int(width), Int(height))
    let used = (
      cols: min(cols, Int((Double(pixels.0) / cell.width).rounded(.up))),
      rows: min(rows, Int((Double(pixels.1) / cell.height).rounded(.up)))
    )
    return PictureLayout(
      cols: used.cols, rows: used.rows, originCol: max(0, (cols - used.cols) / 2),
      originRow: max(0, (rows - used.rows) / 2), scale: scale, cell: cell)
  }

  /// The canvas point under the centre of a (1-based) cell, as a mouse reports it.
  func canvasPoint(column: Int, row: Int) -> Point {
    Point(
      (Double(column - 1 - originCol) + 0.5) * cell.width / scale,
      (Double(row - 1 - originRow) + 0.5) * cell.height / scale)
  }

  /// The escape that puts the cursor on the picture's `line`-th row (0-based), at its left edge.
  func cursor(line: Int = 0) -> String {
    ANSI.moveTo(row: originRow + line + 1, col: originCol + 1)
  }
}
