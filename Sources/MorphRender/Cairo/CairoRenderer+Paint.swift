import CCairo
import Foundation
import MorphCore

// MARK: - Gradients and images as sources

extension CairoRenderer {
  /// Sets the source for `paint` over the current path (already set in `space`, with the
  /// stroke style when `use` is `.stroke`). Gradients are in unit points of `frame`.
  func setSource(
    _ paint: Paint, frame: Rect, space: ItemSpace, use: OutlineUse, alpha: Double,
    on cr: OpaquePointer
  ) {
    switch paint {
    case .color(let c):
      cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
    case .linearGradient(let g):
      let (start, end) = (frame.point(atUnit: g.start), frame.point(atUnit: g.end))
      guard case .affine = space else {
        let d = end - start
        let length2 = d.x * d.x + d.y * d.y
        return shade(g.stops, space: space, use: use, alpha: alpha, on: cr) { p in
          length2 > 0 ? ((p.x - start.x) * d.x + (p.y - start.y) * d.y) / length2 : 0
        }
      }
      setPattern(
        cairo_pattern_create_linear(start.x, start.y, end.x, end.y), g.stops, alpha, on: cr)
    case .radialGradient(let g):
      let c = frame.point(atUnit: g.center)
      guard case .affine = space, g.endRadius != g.startRadius else {
        return shade(g.stops, space: space, use: use, alpha: alpha, on: cr) { p in
          g.location(atDistance: p.distance(to: c))
        }
      }
      setPattern(
        cairo_pattern_create_radial(c.x, c.y, g.startRadius, c.x, c.y, g.endRadius), g.stops,
        alpha, on: cr)
    case .angularGradient(let g):
      let c = frame.point(atUnit: g.center)
      shade(g.stops, space: space, use: use, alpha: alpha, on: cr) { p in
        g.location(atAngle: atan2(p.y - c.y, p.x - c.x) * 180 / .pi)
      }
    case .image(let image):
      setImageSource(image, frame: frame, space: space, alpha: alpha, on: cr)
    }
  }

  /// Cairo's own gradient (PAD beyond the ends, as SwiftUI; straight sRGB mixing, as
  /// SwiftUI's default `device` space).
  private func setPattern(
    _ pattern: OpaquePointer, _ stops: [GradientStop], _ alpha: Double, on cr: OpaquePointer
  ) {
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    for stop in stops where stop.location.isFinite {
      let c = stop.color
      cairo_pattern_add_color_stop_rgba(
        pattern, stop.location, c.red, c.green, c.blue, c.alpha * alpha)
    }
    cairo_set_source(cr, pattern)
    cairo_pattern_destroy(pattern)
  }

  /// Entries of the colour table a shaded gradient looks locations up in.
  static let rampSteps = 1024

  /// The premultiplied colour table of a gradient at `alpha`, kept between items and
  /// frames (a scene repeats a few gradients many times).
  private func rampTable(_ stops: [GradientStop], alpha: Double) -> [UInt32] {
    let key = RampKey(stops: stops, alpha: alpha)
    if let table = ramps[key] { return table }
    let ramp = GradientRamp(stops)
    let steps = Self.rampSteps
    let table = (0..<steps).map {
      PixelConversion.word(ramp.color(at: Double($0) / Double(steps - 1)), alpha: alpha)
    }
    if ramps.count >= 256 { ramps.removeAll(keepingCapacity: true) }
    ramps[key] = table
    return table
  }

  /// A gradient Cairo cannot draw (angular, or any under perspective) as an image of the
  /// device pixels the path can touch: each pixel's centre is taken back to the item's
  /// local coordinates (through the inverse homography, so perspective is exact) and
  /// `location` gives its place in the gradient.
  private func shade(
    _ stops: [GradientStop], space: ItemSpace, use: OutlineUse, alpha: Double,
    on cr: OpaquePointer, location: (Point) -> Double
  ) {
    cairo_set_source_rgba(cr, 0, 0, 0, 0)
    var (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0)
    if use == .fill {
      cairo_fill_extents(cr, &x0, &y0, &x1, &y1)
    } else {
      cairo_stroke_extents(cr, &x0, &y0, &x1, &y1)
    }
    var (cx0, cy0, cx1, cy1) = (0.0, 0.0, 0.0, 0.0)
    cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
    guard let drawn = Self.deviceBox(x0, y0, x1, y1, on: cr),
      let clip = Self.deviceBox(cx0, cy0, cx1, cy1, on: cr),
      let box = drawn.intersection(clip)?.intersection(canvas),
      let toLocal = space.localPoint
    else { return }
    let table = rampTable(stops, alpha: alpha)
    let steps = table.count
    let surface: OpaquePointer = cairo_image_surface_create(
      CAIRO_FORMAT_ARGB32, Int32(box.width), Int32(box.height))
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return }
    cairo_surface_flush(surface)
    let data = cairo_image_surface_get_data(surface)!
    let stride = Int(cairo_image_surface_get_stride(surface))
    let last = Double(steps - 1)
    for row in 0..<box.height {
      let line = UnsafeMutableRawPointer(data + row * stride)
      let y = Double(box.y + row) + 0.5
      for col in 0..<box.width {
        let t = location(toLocal(Double(box.x + col) + 0.5, y))
        let i = t.isFinite ? Int((min(max(t, 0), 1) * last).rounded()) : 0
        line.storeBytes(of: table[i], toByteOffset: col * 4, as: UInt32.self)
      }
    }
    cairo_surface_mark_dirty(surface)
    let pattern: OpaquePointer = cairo_pattern_create_for_surface(surface)
    defer { cairo_pattern_destroy(pattern) }
    // User space → device (the current matrix) → the image's pixels.
    var ctm = cairo_matrix_t()
    cairo_get_matrix(cr, &ctm)
    var shift = cairo_matrix_t()
    cairo_matrix_init_translate(&shift, -Double(box.x), -Double(box.y))
    var m = cairo_matrix_t()
    cairo_matrix_multiply(&m, &ctm, &shift)
    cairo_pattern_set_matrix(pattern, &m)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_set_source(cr, pattern)
  }

  /// An image stretched over `frame`. Under perspective the image follows the affine map
  /// through three corners of the frame (as text does); its outline is exact.
  private func setImageSource(
    _ image: ImagePaint, frame: Rect, space: ItemSpace, alpha: Double, on cr: OpaquePointer
  ) {
    cairo_set_source_rgba(cr, 0, 0, 0, 0)
    guard let decoded = images[image.source], frame.width > 0, frame.height > 0,
      let localToUser = space.userMatrix(frame: frame),
      let userToLocal = localToUser.inverted
    else { return }
    let toPixels = AffineTransform.scale(
      Double(decoded.width) / frame.width, Double(decoded.height) / frame.height
    ).concatenating(after: .translation(-frame.minX, -frame.minY))
    // A frame so small its pixels-per-point overflow (a denormal width) shows nothing;
    // the matrix would put the pattern, and then the frame, in Cairo's error state.
    let toImage = toPixels.concatenating(after: userToLocal)
    guard toImage.isUsableCairoMatrix else { return }
    var m = toImage.cairoMatrix
    guard let surface = decoded.surfaceForDrawing() else { return }
    defer { cairo_surface_destroy(surface) }
    let pattern: OpaquePointer = cairo_pattern_create_for_surface(surface)
    defer { cairo_pattern_destroy(pattern) }
    cairo_pattern_set_matrix(pattern, &m)
    cairo_pattern_set_filter(pattern, image.interpolation.cairoFilter)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    guard alpha < 1 else { return cairo_set_source(cr, pattern) }
    // An image has no alpha of its own to fold the opacity into: fade it as a group.
    cairo_push_group(cr)
    cairo_set_source(cr, pattern)
    cairo_paint_with_alpha(cr, alpha)
    cairo_pop_group_to_source(cr)
  }
}

/// A gradient's stops at an opacity: what a colour table is made from.
struct RampKey: Hashable {
  var stops: [GradientStop]
  var alpha: Double
}

extension ImageInterpolation {
  /// SwiftUI's levels as Cairo's filters: none samples the nearest pixel, low is bilinear
  /// (aliasing when shrinking), medium and high Cairo's GOOD (box-filtered when shrinking,
  /// bilinear when enlarging). Cairo's BEST is not used: it enlarges with sharp pixels,
  /// which SwiftUI's high does not.
  var cairoFilter: cairo_filter_t {
    switch self {
    case .none: CAIRO_FILTER_NEAREST
    case .low: CAIRO_FILTER_BILINEAR
    case .medium, .high: CAIRO_FILTER_GOOD
    }
  }
}
