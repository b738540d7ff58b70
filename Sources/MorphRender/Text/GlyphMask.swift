import CCairo
import Foundation
import MorphCore

/// Where a layout lands in device pixels: the linear part of the matrix and the origin's
/// offset within its pixel. Two draws at one placement fill the same coverage.
struct GlyphPlacement: Equatable {
  var xx, yx, xy, yy: Double
  var phaseX, phaseY: Double

  /// The placement of a layout drawn at `origin` under `m`, and the pixel the origin is in.
  static func of(_ origin: Point, under m: cairo_matrix_t) -> (GlyphPlacement, x: Int, y: Int)? {
    let x = m.xx * origin.x + m.xy * origin.y + m.x0
    let y = m.yx * origin.x + m.yy * origin.y + m.y0
    guard abs(x) < 1e7, abs(y) < 1e7 else { return nil }
    let (px, py) = (x.rounded(.down), y.rounded(.down))
    return (
      GlyphPlacement(xx: m.xx, yx: m.yx, xy: m.xy, yy: m.yy, phaseX: x - px, phaseY: y - py),
      Int(px), Int(py)
    )
  }
}

/// A layout's outlines filled once into a coverage mask at one placement, so text that stays
/// put is composited like a glyph cache's bitmaps instead of scan-converted every frame. It
/// holds exactly the coverage the fill gives (the same path, shifted by whole pixels).
final class GlyphMask: @unchecked Sendable {
  let placement: GlyphPlacement
  let surface: OpaquePointer
  /// The mask's top-left, in pixels from the pixel the layout's origin is in.
  let offsetX: Int
  let offsetY: Int

  /// Largest mask made, in pixels; larger text is filled each time.
  static let largestArea = 1 << 20

  /// The mask of `outline` (whose ink box, around its origin, is `ink`) at `placement`; nil
  /// when it would be empty or too large.
  init?(_ outline: GlyphOutline, ink: Rect, at placement: GlyphPlacement) {
    let p = placement
    var (minX, minY, maxX, maxY) = (
      Double.infinity, Double.infinity, -Double.infinity, -Double.infinity
    )
    for (u, v) in [
      (ink.minX, ink.minY), (ink.maxX, ink.minY), (ink.minX, ink.maxY), (ink.maxX, ink.maxY),
    ] {
      let (x, y) = (p.xx * u + p.xy * v + p.phaseX, p.yx * u + p.yy * v + p.phaseY)
      (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
    }
    // A pixel of slack each side: antialiasing reaches past the ink box.
    let (left, top) = (Int(minX.rounded(.down)) - 1, Int(minY.rounded(.down)) - 1)
    let width = Int(maxX.rounded(.up)) + 1 - left
    let height = Int(maxY.rounded(.up)) + 1 - top
    guard width > 0, height > 0, width * height <= Self.largestArea,
      let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)),
      cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
    else { return nil }
    let cr = cairo_create(surface)!
    var m = cairo_matrix_t(
      xx: p.xx, yx: p.yx, xy: p.xy, yy: p.yy, x0: p.phaseX - Double(left),
      y0: p.phaseY - Double(top))
    cairo_set_matrix(cr, &m)
    cairo_append_path(cr, outline.path)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    cairo_fill(cr)
    cairo_destroy(cr)
    cairo_surface_flush(surface)
    self.placement = placement
    self.surface = surface
    (offsetX, offsetY) = (left, top)
  }

  deinit { cairo_surface_destroy(surface) }

  var byteCount: Int {
    Int(cairo_image_surface_get_stride(surface)) * Int(cairo_image_surface_get_height(surface))
  }

  /// Paints the current source of `cr` through the mask, its origin's pixel at (`x`, `y`).
  func paint(on cr: OpaquePointer, x: Int, y: Int) {
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    cairo_identity_matrix(cr)
    cairo_mask_surface(cr, surface, Double(x + offsetX), Double(y + offsetY))
    cairo_set_matrix(cr, &m)
  }
}
