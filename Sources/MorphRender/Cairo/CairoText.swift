import CCairo
import Foundation
import MorphCore

/// Text through Cairo's toy font API in DejaVu Sans. Metrics are unhinted so a run measures
/// the same at every scale (layout sizes text at scale 1; exports draw it at 2).
enum CairoText {
  static let family = "DejaVu Sans"
  /// Device font size above which glyphs are filled as paths rather than cached bitmaps.
  static let largestBitmapSize = 512.0

  static func makeFontOptions() -> OpaquePointer {
    let options: OpaquePointer = cairo_font_options_create()
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    return options
  }

  /// True when the run has something drawable.
  static func isDrawable(_ run: TextRun) -> Bool {
    !run.string.isEmpty && run.size > 0 && run.size.isFinite
  }

  /// Selects the run's face and size in the current user space of `cr`.
  static func select(_ run: TextRun, options: OpaquePointer, on cr: OpaquePointer) {
    let weight = run.weight == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL
    cairo_select_font_face(cr, family, CAIRO_FONT_SLANT_NORMAL, weight)
    cairo_set_font_size(cr, run.size)
    cairo_set_font_options(cr, options)
  }

  /// The baseline origin that centres the run in `frame` (advance width by line height,
  /// the box `measure` reports) and the ink box, both in user space.
  static func layout(_ run: TextRun, in frame: Rect, on cr: OpaquePointer)
    -> (origin: Point, ink: Rect)
  {
    var font = cairo_font_extents_t()
    var text = cairo_text_extents_t()
    cairo_font_extents(cr, &font)
    cairo_text_extents(cr, run.string, &text)
    let origin = Point(
      frame.midX - text.x_advance / 2, frame.midY - (font.ascent + font.descent) / 2 + font.ascent)
    let ink = Rect(
      x: origin.x + text.x_bearing, y: origin.y + text.y_bearing, width: text.width,
      height: text.height)
    return (origin, ink)
  }

  /// Draws the run at `origin` with the current source.
  static func show(_ run: TextRun, at origin: Point, on cr: OpaquePointer) {
    cairo_move_to(cr, origin.x, origin.y)
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    let deviceSize = run.size * max(abs(m.xx) + abs(m.xy), abs(m.yx) + abs(m.yy))
    if deviceSize > largestBitmapSize {
      cairo_text_path(cr, run.string)
      cairo_fill(cr)
    } else {
      cairo_show_text(cr, run.string)
    }
  }
}

/// A 1×1 surface for measuring text from any thread, one caller at a time.
final class TextMeasurer: @unchecked Sendable {
  static let shared = TextMeasurer()

  private let lock = NSLock()
  private let surface: OpaquePointer
  private let context: OpaquePointer
  private let options: OpaquePointer

  private init() {
    surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
    context = cairo_create(surface)
    options = CairoText.makeFontOptions()
  }

  /// Advance width by line height, and the ascent: the baseline's depth in that box.
  func measure(_ run: TextRun) -> (size: Size, baseline: Double) {
    lock.lock()
    defer { lock.unlock() }
    CairoText.select(run, options: options, on: context)
    var font = cairo_font_extents_t()
    var text = cairo_text_extents_t()
    cairo_font_extents(context, &font)
    cairo_text_extents(context, run.string, &text)
    let size = Size(text.x_advance, font.ascent + font.descent)
    guard size.width.isFinite, size.height.isFinite, font.ascent.isFinite else { return (.zero, 0) }
    return (size, font.ascent)
  }
}

extension CairoRenderer {
  /// The size of `text` as drawn: advance width by font line height (ascent + descent).
  public static func measure(_ text: TextRun) -> Size {
    guard text.size > 0, text.size.isFinite else { return .zero }
    return TextMeasurer.shared.measure(text).size
  }
}

/// Lays text out with the same font the PNG backend draws with.
public struct CairoTextMeasure: TextMeasuring {
  public init() {}

  public func size(of text: TextRun) -> Size { CairoRenderer.measure(text) }

  public func baseline(of text: TextRun) -> Double {
    guard text.size > 0, text.size.isFinite else { return 0 }
    return TextMeasurer.shared.measure(text).baseline
  }
}
