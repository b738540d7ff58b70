import CCairo
import CPango
import Foundation
import MorphCore

/// A Pango layout of one text at one width and line count, made once and never changed.
/// Used only under the engine's lock (Pango objects are not thread-safe).
final class TextLayout {
  let layout: OpaquePointer
  /// The logical box (advance widths by line heights) relative to the layout's origin.
  let logical: Rect
  let ink: Rect
  let baseline: Double
  let lineCount: Int
  /// Each line's logical bottom, from the top.
  let lineBottoms: [Double]
  /// The glyph outlines, made the first time the layout is drawn (`TextEngine.glyphs`).
  var glyphs: GlyphOutline?
  /// When the outlines were last used, on the engine's clock: the oldest go first.
  var glyphsUsed: UInt64 = 0
  /// The outlines filled at the placement the layout was last drawn at twice in a row.
  var mask: GlyphMask?
  /// Where the layout was last drawn.
  var lastPlacement: GlyphPlacement?

  init(_ layout: OpaquePointer) {
    self.layout = layout
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    self.ink = Self.rect(ink)
    self.logical = Self.rect(logical)
    baseline = Double(pango_layout_get_baseline(layout)) / Self.scale
    lineCount = Int(pango_layout_get_line_count(layout))
    var bottoms: [Double] = []
    if let iterator = pango_layout_get_iter(layout) {
      repeat {
        var line = PangoRectangle()
        pango_layout_iter_get_line_extents(iterator, nil, &line)
        // In Double: a tall layout's y + height can pass Int32.
        bottoms.append((Double(line.y) + Double(line.height)) / Self.scale)
      } while pango_layout_iter_next_line(iterator) != 0
      pango_layout_iter_free(iterator)
    }
    lineBottoms = bottoms
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

  static let scale = Double(PANGO_SCALE)

  /// Points in Pango units, clamped to what an Int32 holds with room to add
  /// (±1e9 units, about 976 000 pt) and NaN as 0: a plugin's huge tracking or
  /// line spacing must not trap the conversion.
  static func units(
    _ points: Double, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero
  ) -> Int32 {
    let value = (points * scale).rounded(rounding)
    guard !value.isNaN else { return 0 }
    return Int32(max(-1e9, min(value, 1e9)))
  }

  static func rect(_ r: PangoRectangle) -> Rect {
    Rect(
      x: Double(r.x) / scale, y: Double(r.y) / scale, width: Double(r.width) / scale,
      height: Double(r.height) / scale)
  }

  var metrics: TextMetrics {
    TextMetrics(size: logical.size, baseline: baseline - logical.minY)
  }

  /// How many of the lines fit in `height` (at least one).
  func linesFitting(_ height: Double) -> Int {
    max(1, lineBottoms.firstIndex { $0 - logical.minY > height + 1e-3 } ?? lineCount)
  }
}

/// The glyph outlines of one layout, with its origin at (0, 0), as Cairo holds a path: made
/// once, then appended wherever the layout is drawn, so a frame does not trace glyphs again.
/// Never changed once made, so drawing reads it without the engine's lock.
final class GlyphOutline: @unchecked Sendable {
  let path: UnsafeMutablePointer<cairo_path_t>
  /// Glyphs a path cannot draw (colour emoji, bitmaps in a colour font): the raster shows
  /// such a layout's glyphs instead, and the outline traces them flat.
  let hasColour: Bool

  init(path: UnsafeMutablePointer<cairo_path_t>, hasColour: Bool) {
    self.path = path
    self.hasColour = hasColour
  }

  deinit { cairo_path_destroy(path) }

  var byteCount: Int { Int(path.pointee.num_data) * MemoryLayout<cairo_path_data_t>.stride }
}

/// Text through Pango (layout, line breaking, font fallback) and HarfBuzz (shaping), in the
/// private font set of `TextFonts`. Metrics are unhinted and glyph positions unrounded, so a
/// text measures the same at every scale: layout sizes it at scale 1, exports draw it at 2.
/// Every target draws a text as one thing, its glyph outlines filled: the raster, SVG, PDF
/// and Lottie then agree to the antialiasing (Cairo 1.16's image surface would put each
/// shown glyph on a whole pixel, where a vector outline keeps its exact place). Layouts and
/// their outlines are cached (least recently used out), so a frame whose text did not change
/// shapes and traces nothing; text that stays put is filled once into a coverage mask
/// (`GlyphMask`) and composited from it. One lock for every Pango call: export draws on several
/// threads, and Pango's font map and fonts are not thread-safe.
final class TextEngine: @unchecked Sendable {
  static let shared = TextEngine()

  /// Layouts kept; a frame rarely holds more than a few hundred texts at a few proposals each.
  static let capacity = 2048
  /// Device font size above which colour glyphs are filled as paths too (FreeType's bitmaps
  /// fail far above it).
  static let largestBitmapSize = 512.0
  /// Bytes of glyph outlines and masks kept with the cached layouts (a 17 pt line of 40
  /// glyphs holds about 25 KB of outline); past it, the least recently drawn are dropped
  /// down to half.
  static let outlineCapacity = 32 << 20

  private let lock = NSLock()
  private let context: OpaquePointer
  /// A context with an identity matrix on an unbounded surface, where outlines are made
  /// (under the lock). Unbounded, because Cairo's glyph path leaves out every glyph whose
  /// origin lies more than ten em outside the surface: on a bounded one, a line longer than
  /// that, or a line that far down, lost its last glyphs.
  private let outlines: OpaquePointer
  /// Font files the private set lacks (empty when every one was found).
  let missingFonts: [String]

  /// What a layout is made for: the text, a wrap width (nil: none), at most `lines` lines.
  private struct Shape: Hashable {
    var run: TextRun
    var wrap: Double?
    var lines: Int?
  }
  /// What a layout answers: the text offered a width and height.
  private struct Offer: Hashable {
    var run: TextRun
    var width: Double?
    var height: Double?
  }
  private enum Key: Hashable {
    case shape(Shape)
    case offer(Offer)
  }
  private var cache: [Key: (layout: TextLayout, used: UInt64)] = [:]
  private var clock: UInt64 = 0
  private var made = 0
  /// Bytes of outlines made since the last trim, plus what it kept (layouts the cache let
  /// go still count until the next trim, which recounts).
  private var outlineBytes = 0
  private var traced = 0

  private init() {
    Self.silenceLibraryLogs()
    let surface = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil)
    outlines = cairo_create(surface)!
    cairo_surface_destroy(surface)
    let (config, missing) = TextFonts.makeConfiguration()
    missingFonts = missing
    let fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)!
    if let config {
      pango_fc_font_map_set_config(OpaquePointer(fontMap), config)
      FcConfigDestroy(config)
    }
    context = pango_font_map_create_context(fontMap)!
    g_object_unref(UnsafeMutableRawPointer(fontMap))
    let options = cairo_font_options_create()
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
    pango_cairo_context_set_resolution(context, 72)
    pango_context_set_round_glyph_positions(context, 0)
    // Pango takes the default language from the environment; it picks CJK glyph forms.
    pango_context_set_language(context, pango_language_from_string("en-us"))
  }

  /// GLib's log lines (Pango's "failed to create cairo scaled font", fontconfig's through
  /// GLib) would reach standard error raw, several lines each, in the middle of the live
  /// view or a JSON stream. What they warn of shows up as its own error where it matters
  /// (a size the budget refuses, a text that draws nothing), so they are dropped. GLib
  /// accepts one writer per process, set before the first Pango call.
  private static func silenceLibraryLogs() {
    g_log_set_writer_func({ _, _, _, _ in G_LOG_WRITER_HANDLED }, nil, nil)
  }

  /// Layouts made on the calling thread: what a test reads, as other threads
  /// lay text out at the same time (a process-wide count races with them).
  static var madeOnThisThread: Int {
    get { Thread.current.threadDictionary[threadKey] as? Int ?? 0 }
    set { Thread.current.threadDictionary[threadKey] = newValue }
  }
  private static let threadKey = "morphhost.text.layoutsMade"

  /// Layouts whose outlines were traced on the calling thread (as `madeOnThisThread`).
  static var tracedOnThisThread: Int {
    get { Thread.current.threadDictionary[tracedKey] as? Int ?? 0 }
    set { Thread.current.threadDictionary[tracedKey] = newValue }
  }
  private static let tracedKey = "morphhost.text.outlinesTraced"

  /// Layouts whose outlines were traced since start: the bench's figure.
  var outlinesTraced: Int {
    lock.lock()
    defer { lock.unlock() }
    return traced
  }

  /// Layouts made (texts shaped) since start: the bench's figure.
  var layoutsMade: Int {
    lock.lock()
    defer { lock.unlock() }
    return made
  }

  func measure(_ run: TextRun, in proposal: ProposedSize) -> TextMetrics {
    guard Self.isMeasurable(run) else { return .zero }
    lock.lock()
    defer { lock.unlock() }
    return layout(run.layoutKey, width: proposal.width, height: proposal.height)?.metrics ?? .zero
  }

  /// Sizes below one Pango unit draw nothing (and would reach Pango as size 0); above the
  /// frame budget's largest, the readers refuse them first.
  static func isMeasurable(_ run: TextRun) -> Bool {
    run.size * TextLayout.scale >= 1 && run.size <= FrameBudget.standard.maxFontSize
  }

  /// True when the run has something drawable.
  static func isDrawable(_ run: TextRun) -> Bool { !run.string.isEmpty && isMeasurable(run) }

  /// Draws `run` in `frame` (user space of `cr`) with the current source, as layout sized it
  /// for that frame; centred when the frame is not its size. The glyph outlines are filled
  /// outside the lock (a mask is painted under it). A layout with colour glyphs is shown as
  /// glyphs instead (a path has no colour) unless `asOutlines` (vector documents, which then
  /// need no fonts) or its device size is past what FreeType's bitmaps reach.
  func draw(_ run: TextRun, in frame: Rect, on cr: OpaquePointer, asOutlines: Bool = false) {
    guard Self.isDrawable(run) else { return }
    lock.lock()
    guard let text = layout(run.layoutKey, width: frame.width, height: frame.height) else {
      lock.unlock()
      return
    }
    let origin = Self.origin(text, in: frame)
    let outline = glyphs(of: text)
    if outline.hasColour, !asOutlines, Self.deviceSize(run, on: cr) <= Self.largestBitmapSize {
      cairo_move_to(cr, origin.x, origin.y)
      pango_cairo_show_layout(cr, text.layout)
      lock.unlock()
      return
    }
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    if !asOutlines, let settled = settledMask(text, outline, origin: origin, under: m) {
      // Under the lock: Cairo shares the mask's pixman image among the threads painting
      // it, and pixman counts its references without atomics.
      settled.mask.paint(on: cr, x: settled.x, y: settled.y)
      lock.unlock()
      return
    }
    lock.unlock()
    cairo_translate(cr, origin.x, origin.y)
    cairo_new_path(cr)
    cairo_append_path(cr, outline.path)
    cairo_set_matrix(cr, &m)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    cairo_fill(cr)
  }

  /// The text's size in device pixels under `cr`'s matrix.
  private static func deviceSize(_ run: TextRun, on cr: OpaquePointer) -> Double {
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    return run.size * max(abs(m.xx) + abs(m.xy), abs(m.yx) + abs(m.yy))
  }

  /// The glyph outlines of `run` drawn in `frame`, as `draw` places them (for vector
  /// exports, which then need no fonts).
  func outline(_ run: TextRun, in frame: Rect) -> Path? {
    guard Self.isDrawable(run) else { return nil }
    lock.lock()
    guard let text = layout(run.layoutKey, width: frame.width, height: frame.height) else {
      lock.unlock()
      return nil
    }
    let origin = Self.origin(text, in: frame)
    let outline = glyphs(of: text)
    lock.unlock()
    return Self.path(outline.path.pointee, offset: origin)
  }

  /// `text`'s outlines, from the layout or traced now (under the lock). They are taken at
  /// the text's own size on a context of their own: asked at the device size, FreeType
  /// fails from about 65 536 px (a text under `scale(4000)`).
  private func glyphs(of text: TextLayout) -> GlyphOutline {
    clock += 1
    text.glyphsUsed = clock
    if let made = text.glyphs { return made }
    traced += 1
    Self.tracedOnThisThread += 1
    cairo_new_path(outlines)
    cairo_move_to(outlines, 0, 0)
    pango_cairo_layout_path(outlines, text.layout)
    let outline = GlyphOutline(
      path: cairo_copy_path(outlines), hasColour: Self.hasColourGlyphs(text.layout))
    cairo_new_path(outlines)
    text.glyphs = outline
    outlineBytes += outline.byteCount
    if outlineBytes > Self.outlineCapacity { trimOutlines() }
    return outline
  }

  /// The layout's mask once it is drawn a second time at one placement (text that stays
  /// put, frame after frame); nil for text that moves, which is filled. Under the lock.
  private func settledMask(
    _ text: TextLayout, _ outline: GlyphOutline, origin: Point, under m: cairo_matrix_t
  ) -> (mask: GlyphMask, x: Int, y: Int)? {
    guard let (placement, x, y) = GlyphPlacement.of(origin, under: m) else { return nil }
    if let mask = text.mask, mask.placement == placement { return (mask, x, y) }
    defer { text.lastPlacement = placement }
    guard text.lastPlacement == placement,
      let mask = GlyphMask(outline, ink: text.ink, at: placement)
    else { return nil }
    text.mask = mask
    outlineBytes += mask.byteCount
    if outlineBytes > Self.outlineCapacity { trimOutlines() }
    return (mask, x, y)
  }

  /// Drops the least recently drawn outlines and masks of the cached layouts down to half
  /// the capacity.
  private func trimOutlines() {
    var seen = Set<ObjectIdentifier>()
    var holders: [TextLayout] = []
    for entry in cache.values where entry.layout.glyphs != nil {
      if seen.insert(ObjectIdentifier(entry.layout)).inserted { holders.append(entry.layout) }
    }
    holders.sort { $0.glyphsUsed > $1.glyphsUsed }
    var kept = 0
    for layout in holders {
      let bytes = (layout.glyphs?.byteCount ?? 0) + (layout.mask?.byteCount ?? 0)
      if kept + bytes > Self.outlineCapacity / 2 {
        layout.glyphs = nil
        layout.mask = nil
        layout.lastPlacement = nil
      } else {
        kept += bytes
      }
    }
    outlineBytes = kept
  }

  /// True when a run of `layout` is set in a colour font (fontconfig's `color`): emoji.
  private static func hasColourGlyphs(_ layout: OpaquePointer) -> Bool {
    guard let iterator = pango_layout_get_iter(layout) else { return false }
    defer { pango_layout_iter_free(iterator) }
    repeat {
      guard let run = pango_layout_iter_get_run_readonly(iterator),
        let font = run.pointee.item.pointee.analysis.font,
        let pattern = pango_fc_font_get_pattern(
          UnsafeMutableRawPointer(font).assumingMemoryBound(to: PangoFcFont.self))
      else { continue }
      var colour: FcBool = FcFalse
      if FcPatternGetBool(pattern, FC_COLOR, 0, &colour) == FcResultMatch, colour != FcFalse {
        return true
      }
    } while pango_layout_iter_next_run(iterator) != 0
    return false
  }

  /// A Cairo path as a MorphCore path, moved by `offset`.
  private static func path(_ cairoPath: cairo_path_t, offset: Point) -> Path {
    var path = Path()
    var i = 0
    while i < Int(cairoPath.num_data) {
      let header = cairoPath.data[i].header
      func point(_ k: Int) -> Point {
        Point(cairoPath.data[i + k].point.x + offset.x, cairoPath.data[i + k].point.y + offset.y)
      }
      switch header.type {
      case CAIRO_PATH_MOVE_TO: path.move(to: point(1))
      case CAIRO_PATH_LINE_TO: path.line(to: point(1))
      case CAIRO_PATH_CURVE_TO: path.cubic(to: point(3), c1: point(1), c2: point(2))
      case CAIRO_PATH_CLOSE_PATH: path.close()
      default: break
      }
      i += Int(header.length)
    }
    return path
  }

  /// The ink box of `run` drawn in `frame`.
  func ink(_ run: TextRun, in frame: Rect) -> Rect? {
    guard Self.isDrawable(run) else { return nil }
    lock.lock()
    defer { lock.unlock() }
    guard let text = layout(run.layoutKey, width: frame.width, height: frame.height) else {
      return nil
    }
    let origin = Self.origin(text, in: frame)
    return Rect(
      x: text.ink.minX + origin.x, y: text.ink.minY + origin.y, width: text.ink.width,
      height: text.ink.height)
  }

  private static func origin(_ text: TextLayout, in frame: Rect) -> Point {
    Point(
      frame.minX + (frame.width - text.logical.width) / 2 - text.logical.minX,
      frame.minY + (frame.height - text.logical.height) / 2 - text.logical.minY)
  }

  // MARK: Layout (under the lock)

  /// SwiftUI's `Text` sizing: the ideal (unwrapped) layout when it fits the width offered,
  /// else wrapped at that width; then at most `lineLimit` lines and as many as the height
  /// holds, the last truncated. Cached under the offer and under the size it comes to, which
  /// is what drawing asks for. Nil when the open `HostWork` stopped (time, or a wrap too
  /// costly): the caller's frame or call then fails with the recorded stop.
  private func layout(_ run: TextRun, width: Double?, height: Double?) -> TextLayout? {
    let offer = Key.offer(Offer(run: run, width: width, height: height))
    if let hit = lookup(offer) { return hit }
    guard let ideal = shaped(Shape(run: run, wrap: nil, lines: nil)) else { return nil }
    var wrap: Double?
    if let width, width < ideal.logical.width - 1e-6 { wrap = max(0, width) }
    let wrapped = wrap == nil ? ideal : shaped(Shape(run: run, wrap: wrap, lines: nil))
    guard let full = wrapped else { return nil }
    var lines = min(run.lineLimit ?? .max, full.lineCount)
    if let height, height.isFinite { lines = min(lines, full.linesFitting(height)) }
    let limited =
      lines < full.lineCount
      ? shaped(Shape(run: run, wrap: wrap ?? ideal.logical.width, lines: lines), full: full)
      : full
    guard let result = limited else { return nil }
    store(offer, result)
    let size = result.logical.size
    store(.offer(Offer(run: run, width: size.width, height: size.height)), result)
    return result
  }

  private func lookup(_ key: Key) -> TextLayout? {
    guard let hit = cache[key] else { return nil }
    clock += 1
    cache[key] = (hit.layout, clock)
    return hit.layout
  }

  private func store(_ key: Key, _ layout: TextLayout) {
    clock += 1
    cache[key] = (layout, clock)
    guard cache.count > Self.capacity else { return }
    // Drop the least recently used quarter at once, so eviction costs little per insert.
    let oldest = cache.sorted { $0.value.used < $1.value.used }.prefix(Self.capacity / 4)
    for (key, _) in oldest { cache[key] = nil }
  }

  /// The layout of `shape`, from the cache or made; `full` is the same text with every line,
  /// which places the height that keeps `shape.lines` of them. Making one is a unit of the
  /// open `HostWork`: nil once its time is gone, or when wrapping would cost more than the
  /// frame budget allows (refused before Pango is asked).
  private func shaped(_ shape: Shape, full: TextLayout? = nil) -> TextLayout? {
    if let hit = lookup(.shape(shape)) { return hit }
    let work = HostWork.current
    if let work, !work.mayStart() { return nil }
    let text = Self.pangoText(shape.run.string)
    if let wrap = shape.wrap {
      let cost = Self.wrapWork(text, run: shape.run, wrap: wrap)
      do {
        try FrameBudget.standard.checkTextLayout(
          work: cost.work, characters: cost.characters, width: wrap)
      } catch {
        work?.refuse(error)
        return nil
      }
    }
    let layout = make(shape, text: text, full: full)
    store(.shape(shape), layout)
    return layout
  }

  /// Pango wants UTF-8 without NUL; a NUL draws nothing in SwiftUI either.
  private static func pangoText(_ string: String) -> String {
    string.contains("\0") ? string.replacingOccurrences(of: "\0", with: "") : string
  }

  /// What wrapping `text` at `wrap` costs Pango, in characters × lines: each run between
  /// two line-break opportunities (Pango's own, so CJK breaks between ideographs) that is
  /// wider than the wrap is broken a character at a time, re-measuring the run for each of
  /// its lines; every line also costs a fixed amount. A run's width is estimated at one em
  /// (plus tracking) a character, which W and CJK glyphs reach.
  static func wrapWork(_ text: String, run: TextRun, wrap: Double) -> (work: Int, characters: Int) {
    let characters = text.unicodeScalars.count
    guard characters > 0 else { return (0, 0) }
    var attributes = [PangoLogAttr](repeating: PangoLogAttr(), count: characters + 1)
    pango_get_log_attrs(
      text, Int32(text.utf8.count), -1, pango_language_from_string("en-us"), &attributes,
      Int32(attributes.count))
    let advance = run.size + max(0, run.tracking)
    let perLine = 64.0
    var work = Double(characters)
    var runStart = 0
    for i in 1...characters where attributes[i].is_line_break != 0 || i == characters {
      let length = Double(i - runStart)
      let lines = min(length, max(1, (length * advance / max(wrap, 1e-9)).rounded(.up)))
      work += (lines > 1 ? length * lines : 0) + perLine * lines
      runStart = i
    }
    return (Int(min(work, 1e15)), characters)
  }

  private func make(_ shape: Shape, text: String, full: TextLayout?) -> TextLayout {
    made += 1
    Self.madeOnThisThread += 1
    let run = shape.run
    let layout = pango_layout_new(context)!
    let font = pango_font_description_new()!
    pango_font_description_set_family(font, TextFonts.families(size: run.size))
    pango_font_description_set_absolute_size(font, run.size * TextLayout.scale)
    pango_font_description_set_weight(font, PangoWeight(UInt32(run.weight.weightClass)))
    pango_font_description_set_style(font, run.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
    pango_layout_set_font_description(layout, font)
    pango_font_description_free(font)
    let attributes = pango_attr_list_new()!
    if run.monospacedDigit {
      pango_attr_list_insert(attributes, pango_attr_font_features_new("tnum"))
    }
    if run.tracking != 0 {
      pango_attr_list_insert(
        attributes,
        pango_attr_letter_spacing_new(TextLayout.units(run.tracking)))
    }
    pango_layout_set_attributes(layout, attributes)
    pango_attr_list_unref(attributes)
    pango_layout_set_spacing(layout, TextLayout.units(run.lineSpacing))
    pango_layout_set_alignment(layout, Self.pangoAlignment(run.alignment))
    pango_layout_set_text(layout, text, Int32(text.utf8.count))
    if let wrap = shape.wrap {
      pango_layout_set_width(layout, TextLayout.units(wrap, rounding: .up))
      pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    }
    if let lines = shape.lines, let full {
      // Pango ends a height-limited layout at the line after which two more would not fit:
      // half a line below the last one kept.
      let bottom = full.lineBottoms[lines - 1] - full.logical.minY
      let lineHeight =
        lines > 1 ? bottom - (full.lineBottoms[lines - 2] - full.logical.minY) : bottom
      pango_layout_set_height(
        layout, TextLayout.units(bottom + lineHeight / 2))
      pango_layout_set_ellipsize(layout, Self.pangoEllipsis(run.truncation))
    }
    return TextLayout(layout)
  }

  private static func pangoAlignment(_ a: MorphCore.TextAlignment) -> PangoAlignment {
    switch a {
    case .leading: return PANGO_ALIGN_LEFT
    case .center: return PANGO_ALIGN_CENTER
    case .trailing: return PANGO_ALIGN_RIGHT
    }
  }

  private static func pangoEllipsis(_ t: TextTruncation) -> PangoEllipsizeMode {
    switch t {
    case .head: return PANGO_ELLIPSIZE_START
    case .middle: return PANGO_ELLIPSIZE_MIDDLE
    case .tail: return PANGO_ELLIPSIZE_END
    }
  }
}

/// Lays text out with the engine the PNG backend draws with.
public struct PangoTextMeasure: TextMeasuring {
  public init() {}

  public func measure(_ text: TextRun, in proposal: ProposedSize) -> TextMetrics {
    TextEngine.shared.measure(text, in: proposal)
  }

  /// Texts shaped (layouts made) since the process started; a frame whose text did not change
  /// adds none.
  public static var layoutsMade: Int { TextEngine.shared.layoutsMade }

  /// The glyph outlines of `text` laid out in `frame` (its local coordinates), as the
  /// renderer draws them; nil when nothing is drawn.
  public static func outline(_ text: TextRun, in frame: Rect) -> Path? {
    TextEngine.shared.outline(text, in: frame)
  }

  /// Texts shaped on the calling thread since it started.
  public static var layoutsMadeOnThisThread: Int { TextEngine.madeOnThisThread }

  /// Layouts whose glyph outlines were traced since the process started; a frame whose text
  /// did not change adds none, and drawing a text then exporting it as a vector traces once.
  public static var outlinesTraced: Int { TextEngine.shared.outlinesTraced }

  /// Outlines traced on the calling thread since it started.
  public static var outlinesTracedOnThisThread: Int { TextEngine.tracedOnThisThread }

  /// Font files of the private set that were not found (empty when it is complete).
  public static var missingFonts: [String] { TextEngine.shared.missingFonts }

  /// Folders searched for the font files before the standard ones. Set it before the first
  /// text is measured or drawn: the font set is made once.
  public static var extraFontFolders: [String] {
    get { TextFonts.extraFolders }
    set { TextFonts.extraFolders = newValue }
  }
}
