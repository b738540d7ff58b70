import CCairo
import MorphCore

// MARK: - Items

extension CairoRenderer {
  func drawItem(_ item: DisplayItem) throws(RenderError) {
    guard item.opacity > 0, item.path.isFinite,
      let space = ItemSpace(item.transform, scale: scale)
    else { return }
    let opacity = min(item.opacity, 1)
    let parts = Self.partCount(item)
    guard parts > 0 else { return }
    // Several parts fading or blending one by one would show through each other, so they
    // are drawn into a layer first and that layer fades or blends as a whole.
    let isolate = parts > 1 && (opacity < 1 || item.blend != .normal)
    let frameIndex = stack.count - 1
    let target = layers[stack[frameIndex].layer].context
    let needsBounds = isolate || item.shadow != nil || frameIndex > 0
    var content: PixelRect?
    if needsBounds {
      content = contentBounds(item, space, on: target)
      guard content != nil else { return }
    }
    let plan = content.flatMap { c in
      item.shadow.flatMap { ShadowPlan($0, content: c, canvas: canvas, scale: scale) }
    }
    let region =
      content.flatMap { $0.intersection(canvas) }.map { $0.union(plan?.destination) }
      ?? plan?.destination
    if isolate {
      guard let region else { return }
      try drawIsolated(item, space, plan: plan, region: region, opacity: opacity)
    } else {
      try drawDirect(item, space, plan: plan, opacity: opacity, on: target)
    }
    if needsBounds, let region {
      stack[frameIndex].bounds = region.union(stack[frameIndex].bounds)
    }
  }

  /// Draws the item straight onto `cr`, its opacity folded into each paint.
  private func drawDirect(
    _ item: DisplayItem, _ space: ItemSpace, plan: ShadowPlan?, opacity: Double,
    on cr: OpaquePointer
  ) throws(RenderError) {
    cairo_save(cr)
    defer { cairo_restore(cr) }
    guard applyClips(item.clips, on: cr) else { return }
    cairo_set_operator(cr, item.blend.cairoOperator)
    if let plan { try drawShadow(item, space, plan, alpha: opacity, onto: cr) }
    drawContent(item, space, alpha: opacity, on: cr)
  }

  /// How many separately painted parts an item has: shadow, fill, stroke, text.
  private static func partCount(_ item: DisplayItem) -> Int {
    var n = 0
    if item.shadow != nil { n += 1 }
    if item.fill != nil { n += 1 }
    if item.stroke != nil { n += 1 }
    if let text = item.text, TextEngine.isDrawable(text) { n += 1 }
    return n
  }

  /// Draws the item at full opacity into a free layer, then fades and blends that layer
  /// onto the current one inside the item's clips.
  private func drawIsolated(
    _ item: DisplayItem, _ space: ItemSpace, plan: ShadowPlan?, region: PixelRect,
    opacity: Double
  ) throws(RenderError) {
    let parent = layers[stack[stack.count - 1].layer].context
    let isolated = try clearedLayer(at: stack.count, region)
    let cr = isolated.context
    cairo_save(cr)
    cairo_new_path(cr)
    region.addRectangle(to: cr)
    cairo_clip(cr)
    if let plan { try drawShadow(item, space, plan, alpha: 1, onto: cr) }
    drawContent(item, space, alpha: 1, on: cr)
    cairo_restore(cr)
    cairo_save(parent)
    defer { cairo_restore(parent) }
    guard applyClips(item.clips, on: parent) else { return }
    Self.paint(isolated, onto: parent, region: region, opacity: opacity, blend: item.blend)
  }

  private func drawShadow(
    _ item: DisplayItem, _ space: ItemSpace, _ plan: ShadowPlan, alpha: Double,
    onto cr: OpaquePointer
  ) throws(RenderError) {
    // The mask is the item as painted (so a translucent fill casts a lighter shadow).
    try shadows.draw(plan, alpha: alpha, onto: cr) { mask in
      drawContent(item, space, alpha: 1, on: mask)
    }
  }

  /// Draws fill, stroke and text with `alpha` folded into every paint.
  func drawContent(_ item: DisplayItem, _ space: ItemSpace, alpha: Double, on cr: OpaquePointer) {
    if let fill = item.fill {
      paths.set(item.path, in: space, use: .fill, on: cr)
      setSource(fill, frame: item.frame, space: space, use: .fill, alpha: alpha, on: cr)
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
      cairo_fill(cr)
    }
    if let stroke = item.stroke, Self.isDrawable(stroke) {
      paths.set(item.path, in: space, use: .stroke, on: cr)
      Self.setStrokeStyle(stroke, scale: space.lineScale(at: item.frame.center), on: cr)
      setSource(
        stroke.paint, frame: item.frame, space: space, use: .stroke, alpha: alpha, on: cr)
      cairo_stroke(cr)
    }
    if let text = item.text, TextEngine.isDrawable(text),
      let matrix = space.textMatrix(frame: item.frame)
    {
      cairo_new_path(cr)
      matrix.setCairoMatrix(on: cr)
      let c = text.color
      cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
      TextEngine.shared.draw(text, in: item.frame, on: cr, asOutlines: isVector)
    }
  }

  /// The device pixels the item's fill, stroke and text can touch (clips ignored), or nil
  /// when they touch none. The path is left empty.
  private func contentBounds(_ item: DisplayItem, _ space: ItemSpace, on cr: OpaquePointer)
    -> PixelRect?
  {
    cairo_save(cr)
    defer {
      cairo_new_path(cr)
      cairo_restore(cr)
    }
    var bounds: PixelRect?
    func add(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
      guard let box = Self.deviceBox(x0, y0, x1, y1, on: cr) else { return }
      bounds = box.union(bounds)
    }
    var (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0)
    if item.fill != nil {
      paths.set(item.path, in: space, use: .fill, on: cr)
      cairo_fill_extents(cr, &x0, &y0, &x1, &y1)
      add(x0, y0, x1, y1)
    }
    if let stroke = item.stroke, Self.isDrawable(stroke) {
      paths.set(item.path, in: space, use: .stroke, on: cr)
      Self.setStrokeStyle(stroke, scale: space.lineScale(at: item.frame.center), on: cr)
      cairo_stroke_extents(cr, &x0, &y0, &x1, &y1)
      add(x0, y0, x1, y1)
    }
    if let text = item.text, let matrix = space.textMatrix(frame: item.frame),
      let ink = TextEngine.shared.ink(text, in: item.frame)
    {
      matrix.setCairoMatrix(on: cr)
      add(ink.minX, ink.minY, ink.maxX, ink.maxY)
    }
    return bounds
  }

  /// The device pixels covering a user-space box, with a pixel of slack for antialiasing.
  static func deviceBox(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, on cr: OpaquePointer
  ) -> PixelRect? {
    guard x1 > x0 || y1 > y0 else { return nil }
    var (minX, minY, maxX, maxY) = (
      Double.infinity, Double.infinity, -Double.infinity, -Double.infinity
    )
    for (ux, uy) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
      var (x, y) = (ux, uy)
      cairo_user_to_device(cr, &x, &y)
      (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
    }
    return PixelRect(covering: minX - 1, minY - 1, maxX + 1, maxY + 1)
  }
}

// MARK: - Paint and stroke style

extension CairoRenderer {
  private static func isDrawable(_ stroke: Stroke) -> Bool {
    stroke.width > 0 && stroke.width.isFinite
  }

  /// Width, dashes, cap and join, with lengths multiplied by `scale` (1 when Cairo's matrix
  /// already scales them). Dashes Cairo would reject (negative, all zero) draw solid.
  private static func setStrokeStyle(_ stroke: Stroke, scale: Double, on cr: OpaquePointer) {
    cairo_set_line_width(cr, stroke.width * scale)
    cairo_set_line_cap(cr, stroke.cap.cairoCap)
    cairo_set_line_join(cr, stroke.join.cairoJoin)
    let dash = stroke.dash
    let usable =
      !dash.isEmpty && dash.allSatisfy { $0 >= 0 && $0.isFinite }
      && dash.contains { $0 > 0 } && stroke.dashPhase.isFinite
    guard usable else {
      cairo_set_dash(cr, nil, 0, 0)
      return
    }
    withUnsafeTemporaryAllocation(of: Double.self, capacity: dash.count) { lengths in
      for (i, d) in dash.enumerated() { lengths[i] = d * scale }
      cairo_set_dash(cr, lengths.baseAddress, Int32(dash.count), stroke.dashPhase * scale)
    }
  }
}

extension LineCap {
  var cairoCap: cairo_line_cap_t {
    switch self {
    case .butt: CAIRO_LINE_CAP_BUTT
    case .round: CAIRO_LINE_CAP_ROUND
    case .square: CAIRO_LINE_CAP_SQUARE
    }
  }
}

extension LineJoin {
  var cairoJoin: cairo_line_join_t {
    switch self {
    case .miter: CAIRO_LINE_JOIN_MITER
    case .round: CAIRO_LINE_JOIN_ROUND
    case .bevel: CAIRO_LINE_JOIN_BEVEL
    }
  }
}
