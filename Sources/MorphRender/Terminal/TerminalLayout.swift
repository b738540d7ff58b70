import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sizing a canvas to a grid of terminal cells.
///
/// A cell holds two raster pixels stacked vertically (upper-half block), and a cell is about
/// twice as tall as it is wide, so each raster pixel shows roughly square. A grid of
/// `cols × rows` cells therefore displays a raster of `cols × (rows · 2)` pixels.
public enum TerminalLayout {
  /// The largest grid within `cols × rows` whose raster (`cols × rows·2` pixels) has the
  /// canvas's aspect ratio, rounded to whole cells; at least 1×1.
  ///
  /// A canvas with a non-positive or non-finite side fills the whole grid.
  public static func fit(
    canvas: (width: Double, height: Double), cols: Int, rows: Int
  ) -> (cols: Int, rows: Int) {
    let maxCols = max(cols, 1)
    let maxRows = max(rows, 1)
    let (w, h) = canvas
    guard w.isFinite, h.isFinite, w > 0, h > 0 else { return (maxCols, maxRows) }
    // Try full width first; if that is too tall, fill the height instead.
    let rowsAtFullWidth = Double(maxCols) * h / (2 * w)
    if rowsAtFullWidth <= Double(maxRows) {
      return (maxCols, clampedCount(rowsAtFullWidth, limit: maxRows))
    }
    let colsAtFullHeight = Double(maxRows) * 2 * w / h
    return (clampedCount(colsAtFullHeight, limit: maxCols), maxRows)
  }

  private static func clampedCount(_ value: Double, limit: Int) -> Int {
    min(max(Int(value.rounded()), 1), limit)
  }
}
