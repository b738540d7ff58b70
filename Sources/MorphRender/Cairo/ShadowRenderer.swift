import CCairo
import MorphCore

/// Where a shadow's mask is taken and where the blurred result lands, in device pixels.
struct ShadowPlan {
  /// Widest blur handled, in device pixels; a wider shadow would be flat and huge.
  static let maxSigma = 256.0

  /// The pixels whose alpha is blurred (content plus 3σ, limited to what can reach the
  /// canvas after the offset).
  var mask: PixelRect
  /// The offset in device pixels.
  var dx: Double
  var dy: Double
  var sigma: Double
  var color: Color
  /// The canvas pixels the shadow can touch.
  var destination: PixelRect

  /// The plan for `shadow` around content covering `content`, or nil when it shows nothing.
  init?(_ shadow: Shadow, content: PixelRect, canvas: PixelRect, scale: Double) {
    guard shadow.radius.isFinite, shadow.offset.isFinite, shadow.color.alpha > 0 else {
      return nil
    }
    sigma = min(max(shadow.radius, 0) * scale, Self.maxSigma)
    dx = shadow.offset.x * scale
    dy = shadow.offset.y * scale
    color = shadow.color
    // 3σ holds 99.7% of the Gaussian; one more pixel for antialiased edges.
    let margin = Int((3 * sigma).rounded(.up)) + 1
    guard
      let reachable = PixelRect(
        covering: Double(canvas.x) - dx, Double(canvas.y) - dy, Double(canvas.maxX) - dx,
        Double(canvas.maxY) - dy),
      let mask = content.expanded(by: margin).intersection(reachable.expanded(by: margin)),
      let landing = PixelRect(
        covering: Double(mask.x) + dx, Double(mask.y) + dy, Double(mask.maxX) + dx,
        Double(mask.maxY) + dy),
      let destination = landing.intersection(canvas)
    else { return nil }
    self.mask = mask
    self.destination = destination
  }
}

/// Draws blurred shadows through a small A8 scratch surface that covers only the shadow's
/// box; the surface and the blur buffers grow as needed and are kept between frames.
final class ShadowRenderer {
  private var scratch: CairoLayer?
  private var blur = AlphaBlur()

  /// Draws, on `cr`, the shadow of whatever `drawMask` draws (in device space, on a context
  /// whose device offset puts `plan.mask` in the scratch), tinted with the shadow colour at
  /// `alpha` times its own alpha. The caller's clip and operator apply.
  func draw(
    _ plan: ShadowPlan, alpha: Double, onto cr: OpaquePointer,
    drawMask: (OpaquePointer) -> Void
  ) throws(RenderError) {
    // One clear pixel around the mask, so bilinear sampling at its edge reads zeros.
    let width = plan.mask.width + 2
    let height = plan.mask.height + 2
    let layer = try scratchLayer(width: width, height: height)
    layer.withPixels(writes: true) { data, stride in
      for row in 0..<height { (data + row * stride).initialize(repeating: 0, count: width) }
    }
    cairo_surface_set_device_offset(
      layer.surface, Double(1 - plan.mask.x), Double(1 - plan.mask.y))
    cairo_save(layer.context)
    drawMask(layer.context)
    cairo_restore(layer.context)
    if plan.sigma > 0 {
      layer.withPixels(writes: true) { data, stride in
        blur.blur(data, width: width, height: height, stride: stride, sigma: plan.sigma)
      }
    }
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_new_path(cr)
    cairo_rectangle(
      cr, Double(plan.mask.x) + plan.dx, Double(plan.mask.y) + plan.dy,
      Double(plan.mask.width), Double(plan.mask.height))
    cairo_clip(cr)
    let c = plan.color
    cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
    cairo_mask_surface(cr, layer.surface, plan.dx, plan.dy)
    cairo_restore(cr)
  }

  /// Blurs the premultiplied ARGB pixels of `region` in `layer` in place, channel by
  /// channel, with the shadows' blur (pixels outside the region count as clear).
  func blurColour(of layer: CairoLayer, in region: PixelRect, sigma: Double) {
    guard sigma > 0 else { return }
    layer.withPixels(writes: true) { data, stride in
      let origin = data + region.y * stride + region.x * 4
      for channel in 0..<4 {
        blur.blur(
          origin + channel, width: region.width, height: region.height, stride: stride,
          sigma: sigma, step: 4)
      }
      // Rounding each channel apart may leave a colour a level above its alpha, which
      // premultiplied pixels cannot hold.
      let alpha = PixelConversion.alphaByteOffset
      for row in 0..<region.height {
        let line = origin + row * stride
        for col in 0..<region.width {
          let pixel = line + col * 4
          let a = pixel[alpha]
          for c in 0..<4 where c != alpha && pixel[c] > a { pixel[c] = a }
        }
      }
    }
  }

  /// The scratch surface's Cairo error, if it has one.
  var failure: RenderError? { scratch?.failure("draw a shadow") }

  private func scratchLayer(width: Int, height: Int) throws(RenderError) -> CairoLayer {
    if let scratch, scratch.width >= width, scratch.height >= height, failure == nil {
      return scratch
    }
    let layer = try CairoLayer(
      width: max(width, scratch?.width ?? 0), height: max(height, scratch?.height ?? 0),
      format: CAIRO_FORMAT_A8)
    scratch = layer
    return layer
  }
}

// MARK: - Frame budget

extension CairoRenderer {
  /// Adds up, before anything is drawn, the pixels every shadow in `list` would blur, and
  /// refuses the frame when they exceed the budget. An item's shadow is planned around its
  /// outline's box; a group's around the whole canvas (its content is not known yet), so
  /// the sum is an upper bound: a frame that passes cannot blur more.
  static func checkBlurBudget(
    _ list: DisplayList, scale: Double, canvas: PixelRect, budget: FrameBudget
  ) throws(RenderError) {
    var tally = FrameBudget.Tally(budget)
    try tallyBlurs(list.commands, scale: scale, canvas: canvas, tally: &tally)
  }

  /// Adds the blurs of `commands` (and of their masks) to `tally`. A `blur` is planned
  /// around the whole canvas plus 3σ each side, four planes, not limited to the canvas,
  /// so its charge grows with σ² and an absurd radius is refused at once.
  private static func tallyBlurs(
    _ commands: [DisplayCommand], scale: Double, canvas: PixelRect,
    tally: inout FrameBudget.Tally
  ) throws(RenderError) {
    for command in commands {
      let shadow: Shadow
      var content = canvas
      switch command {
      case .item(let item):
        guard let s = item.shadow else { continue }
        shadow = s
        content = outlineBox(item, scale: scale) ?? canvas
      case .beginGroup(let style):
        for mask in style.masks {
          try tallyBlurs(mask, scale: scale, canvas: canvas, tally: &tally)
        }
        if style.blur > 0 {
          let margin = 2 * (3 * style.blur * scale + 1)
          let area =
            4 * (Double(canvas.width) + margin) * (Double(canvas.height) + margin)
          let pixels = area.isFinite && area < 1e15 ? Int(area) : Int.max
          do {
            try tally.addBlur(pixels: pixels, radius: style.blur)
          } catch {
            throw .frameBudget(error.description)
          }
        }
        guard let s = style.shadow else { continue }
        shadow = s
      case .endGroup:
        continue
      }
      guard let plan = ShadowPlan(shadow, content: content, canvas: canvas, scale: scale) else {
        continue
      }
      do {
        // The scratch surface has one clear pixel around the mask.
        try tally.addBlur(
          pixels: (plan.mask.width + 2) * (plan.mask.height + 2), radius: shadow.radius)
      } catch {
        throw .frameBudget(error.description)
      }
    }
  }

  /// The device pixels an item's outline (or frame, for text) covers, stroke included;
  /// nil when the transform sends it off to infinity.
  private static func outlineBox(_ item: DisplayItem, scale: Double) -> PixelRect? {
    let local = item.path.bounds ?? item.frame
    let points = local.corners.map { item.transform.apply($0) }
    let pad = (item.stroke?.width ?? 0) * scale + 1
    let xs = points.map { $0.x * scale }
    let ys = points.map { $0.y * scale }
    guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(),
      pad.isFinite
    else { return nil }
    return PixelRect(covering: x0 - pad, y0 - pad, x1 + pad, y1 + pad)
  }
}
