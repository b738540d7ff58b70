import CCairo

/// An integer rectangle of device pixels.
struct PixelRect: Hashable {
  var x: Int
  var y: Int
  var width: Int
  var height: Int

  init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The whole pixels a box of device coordinates touches, or nil when it is empty or not
  /// finite. Coordinates are clamped so later integer arithmetic cannot overflow.
  init?(covering x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
    guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, x1 > x0, y1 > y0 else { return nil }
    func clamped(_ v: Double) -> Int { Int(min(max(v, -1e8), 1e8)) }
    let left = clamped(x0.rounded(.down))
    let top = clamped(y0.rounded(.down))
    self.init(
      x: left, y: top, width: clamped(x1.rounded(.up)) - left,
      height: clamped(y1.rounded(.up)) - top)
  }

  var maxX: Int { x + width }
  var maxY: Int { y + height }

  func union(_ other: PixelRect?) -> PixelRect {
    guard let other else { return self }
    let x0 = min(x, other.x)
    let y0 = min(y, other.y)
    return PixelRect(
      x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
  }

  /// The overlap, or nil when there is none.
  func intersection(_ other: PixelRect) -> PixelRect? {
    let x0 = max(x, other.x)
    let y0 = max(y, other.y)
    let x1 = min(maxX, other.maxX)
    let y1 = min(maxY, other.maxY)
    guard x1 > x0, y1 > y0 else { return nil }
    return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  func expanded(by n: Int) -> PixelRect {
    PixelRect(x: x - n, y: y - n, width: width + 2 * n, height: height + 2 * n)
  }

  /// Adds the rectangle to the current path of `cr` (in its current user space).
  func addRectangle(to cr: OpaquePointer) {
    cairo_rectangle(cr, Double(x), Double(y), Double(width), Double(height))
  }
}

/// An image surface and a context that draws on it, kept across frames so the hot path
/// reuses them instead of allocating.
final class CairoLayer {
  let surface: OpaquePointer
  let context: OpaquePointer
  let width: Int
  let height: Int

  convenience init(width: Int, height: Int, format: cairo_format_t = CAIRO_FORMAT_ARGB32)
    throws(RenderError)
  {
    try self.init(
      adopting: cairo_image_surface_create(format, Int32(width), Int32(height)), width: width,
      height: height)
  }

  /// A layer that records drawing as vector commands (a group of a vector document).
  static func recording(width: Int, height: Int) throws(RenderError) -> CairoLayer {
    var extents = cairo_rectangle_t(x: 0, y: 0, width: Double(width), height: Double(height))
    return try CairoLayer(
      adopting: cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents),
      width: width, height: height)
  }

  /// A layer drawing on `surface`, which it now owns (and destroys, also on failure).
  init(adopting surface: OpaquePointer, width: Int, height: Int) throws(RenderError) {
    if let error = RenderError.check(
      cairo_surface_status(surface), "create a \(width)×\(height) surface")
    {
      cairo_surface_destroy(surface)
      throw error
    }
    let context: OpaquePointer = cairo_create(surface)
    if let error = RenderError.check(cairo_status(context), "create a drawing context") {
      cairo_destroy(context)
      cairo_surface_destroy(surface)
      throw error
    }
    self.surface = surface
    self.context = context
    self.width = width
    self.height = height
  }

  deinit {
    cairo_destroy(context)
    cairo_surface_destroy(surface)
  }

  /// A layer holding a decoded image surface as ARGB32: painting normalises whatever
  /// format Cairo chose (RGB24, A8…).
  static func argb(copying image: OpaquePointer, _ operation: String) throws(RenderError)
    -> CairoLayer
  {
    let layer = try CairoLayer(
      width: Int(cairo_image_surface_get_width(image)),
      height: Int(cairo_image_surface_get_height(image)))
    cairo_set_operator(layer.context, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_surface(layer.context, image, 0, 0)
    cairo_paint(layer.context)
    cairo_surface_flush(layer.surface)
    if let error = layer.failure(operation) { throw error }
    return layer
  }

  /// Whether the layer holds pixels (else it records vector drawing).
  var isImage: Bool { cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE }

  /// The first failure of the context or surface, if any (Cairo errors are sticky).
  func failure(_ operation: String) -> RenderError? {
    RenderError.check(cairo_status(context), operation)
      ?? RenderError.check(cairo_surface_status(surface), operation)
  }

  /// Makes `rect` (the whole surface when nil) transparent.
  func clear(_ rect: PixelRect? = nil) {
    cairo_save(context)
    cairo_identity_matrix(context)
    cairo_reset_clip(context)
    if let rect {
      cairo_new_path(context)
      rect.addRectangle(to: context)
      cairo_clip(context)
    }
    cairo_set_operator(context, CAIRO_OPERATOR_CLEAR)
    cairo_paint(context)
    cairo_restore(context)
  }

  /// Runs `body` on the pixel bytes and row stride; flushes Cairo first and, when `writes`,
  /// tells Cairo afterwards that the pixels changed.
  func withPixels<R>(writes: Bool, _ body: (UnsafeMutablePointer<UInt8>, Int) -> R) -> R {
    cairo_surface_flush(surface)
    defer { if writes { cairo_surface_mark_dirty(surface) } }
    return body(cairo_image_surface_get_data(surface), Int(cairo_image_surface_get_stride(surface)))
  }
}
