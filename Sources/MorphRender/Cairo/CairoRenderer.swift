import CCairo
import MorphCore

/// Draws display lists into RGBA images with Cairo.
///
/// One renderer per thread (it is not `Sendable`). The canvas surface, one canvas-sized
/// layer per group depth, the shadow scratch surface and the blur and path buffers are kept
/// between calls and reused while the pixel size stays the same.
public final class CairoRenderer {
  /// The largest pixel width or height of a canvas.
  public static let maxSide = 16384
  /// The largest canvas in pixels (64 Mpx).
  public static let maxPixels = 64 << 20
  /// The deepest nesting of groups; each level holds a canvas-sized layer.
  public static let maxGroupDepth = FrameBudget.maxGroupDepth
  /// What one frame may cost; the renderer checks the shadows' blur before drawing.
  public var budget = FrameBudget.standard

  /// `layers[0]` is the canvas; `layers[n]` the layer of group depth n, or of an isolated
  /// item or group drawn at depth n − 1.
  var layers: [CairoLayer] = []
  var stack: [GroupFrame] = []
  var paths = PathBuilder()
  let shadows = ShadowRenderer()
  /// The images this frame draws, decoded (or found in `ImageCache.shared`) before drawing.
  var images: [ImageSource: DecodedImage] = [:]
  /// Shaded gradients' colour tables (`rampTable`).
  var ramps: [RampKey: [UInt32]] = [:]
  var scale = 1.0
  /// True while `renderVector` draws: groups record instead of holding pixels.
  var isVector = false
  var canvas = PixelRect(x: 0, y: 0, width: 0, height: 0)

  /// An open group: where it draws, how it composites, and the pixels drawn so far.
  struct GroupFrame {
    var layer: Int
    var style: GroupStyle
    var bounds: PixelRect?
  }

  public init() {}

  /// Renders `list` at `scale` pixels per point over `background` (transparent when nil).
  public func render(_ list: DisplayList, scale: Double = 1, background: Color? = nil)
    throws(RenderError) -> RasterImage
  {
    var image = RasterImage(width: 0, height: 0)
    try render(list, scale: scale, background: background, into: &image)
    return image
  }

  /// Renders into `image`, reusing its pixel buffer when it already has the right size.
  public func render(
    _ list: DisplayList, scale: Double = 1, background: Color? = nil,
    into image: inout RasterImage
  ) throws(RenderError) {
    let (width, height) = try Self.pixelSize(list.canvas, scale: scale)
    try Self.checkGroups(list.commands)
    guard width > 0, height > 0 else {
      image = RasterImage(width: width, height: height)
      return
    }
    try Self.checkBlurBudget(
      list, scale: scale, canvas: PixelRect(x: 0, y: 0, width: width, height: height),
      budget: budget)
    do throws(RenderError) {
      try prepare(width: width, height: height, scale: scale, background: background)
      images = try ImageCache.shared.images(in: list.commands)
      defer { images.removeAll(keepingCapacity: true) }
      try draw(list.commands)
      if let error = layers.lazy.compactMap({ $0.failure("draw the display list") }).first
        ?? shadows.failure
      {
        throw error
      }
    } catch {
      // A failure may leave contexts mid-save or in Cairo's sticky error state: start over.
      layers.removeAll()
      throw error
    }
    copyPixels(into: &image)
  }
}

// MARK: - Frame setup

extension CairoRenderer {
  /// Draws commands in order onto the open group (a mask's commands onto its layer).
  func draw(_ commands: [DisplayCommand]) throws(RenderError) {
    for command in commands {
      switch command {
      case .item(let item): try drawItem(item)
      case .beginGroup(let style): try beginGroup(style)
      case .endGroup: try endGroup()
      }
    }
  }
}

extension CairoRenderer {
  /// The pixels per point every command and export may ask for: from 0.01, where a frame
  /// still has pixels, to 8.
  public static let scaleRange = 0.01...8.0

  /// The canvas size in whole pixels, or an error saying why it cannot be drawn.
  public static func pixelSize(_ canvas: Size, scale: Double) throws(RenderError) -> (Int, Int) {
    let shown = "canvas \(formatNumber(canvas.width))×\(formatNumber(canvas.height))"
    guard scale.isFinite, scale > 0 else {
      throw .invalidCanvas("scale \(formatNumber(scale)) is not a positive finite number")
    }
    guard canvas.width.isFinite, canvas.height.isFinite, canvas.width >= 0, canvas.height >= 0
    else { throw .invalidCanvas("\(shown) is not a finite, non-negative size") }
    // A hair of slack so 100.0000000001 points stay 100 pixels.
    func pixels(_ v: Double) -> Int { Int(min(v * scale - 1e-7, 1e12).rounded(.up)) }
    let (width, height) = (max(0, pixels(canvas.width)), max(0, pixels(canvas.height)))
    let at = "at scale \(formatNumber(scale))"
    guard width <= maxSide, height <= maxSide else {
      throw .invalidCanvas("\(shown) \(at) is too large (max \(maxSide) px a side)")
    }
    guard width * height <= maxPixels else {
      throw .invalidCanvas(
        "\(shown) \(at) is too large (\(width)×\(height) px; max \(maxPixels >> 20) Mpx)")
    }
    return (width, height)
  }

  /// Checks groups balance and nest at most `maxGroupDepth` deep, a mask's commands
  /// (drawn one level inside their group) included.
  static func checkGroups(_ commands: [DisplayCommand], depth base: Int = 0) throws(RenderError) {
    var depth = base
    for (index, command) in commands.enumerated() {
      switch command {
      case .item: continue
      case .beginGroup(let style):
        depth += 1
        guard depth <= maxGroupDepth else {
          throw .invalidDisplayList(
            "beginGroup at command \(index) nests groups deeper than \(maxGroupDepth)")
        }
        for mask in style.masks { try checkGroups(mask, depth: depth + 1) }
      case .endGroup:
        guard depth > base else {
          throw .invalidDisplayList("endGroup at command \(index) has no matching beginGroup")
        }
        depth -= 1
      }
    }
    guard depth == base else {
      throw .invalidDisplayList("\(depth - base) beginGroup command(s) have no matching endGroup")
    }
  }

  private func prepare(width: Int, height: Int, scale: Double, background: Color?)
    throws(RenderError)
  {
    if canvas.width != width || canvas.height != height {
      layers.removeAll()
    }
    canvas = PixelRect(x: 0, y: 0, width: width, height: height)
    self.scale = scale
    let base = try layer(at: 0)
    if let c = background {
      cairo_save(base.context)
      cairo_reset_clip(base.context)
      cairo_set_operator(base.context, CAIRO_OPERATOR_SOURCE)
      cairo_set_source_rgba(base.context, c.red, c.green, c.blue, c.alpha)
      cairo_paint(base.context)
      cairo_restore(base.context)
    } else {
      base.clear()
    }
    stack.removeAll(keepingCapacity: true)
    stack.append(GroupFrame(layer: 0, style: GroupStyle(), bounds: nil))
  }

  /// The canvas-sized layer at `index`, created on first use.
  func layer(at index: Int) throws(RenderError) -> CairoLayer {
    while layers.count <= index {
      layers.append(try CairoLayer(width: canvas.width, height: canvas.height))
    }
    return layers[index]
  }

  private func copyPixels(into image: inout RasterImage) {
    if image.width != canvas.width || image.height != canvas.height {
      image = RasterImage(width: canvas.width, height: canvas.height)
    }
    let (width, height) = (canvas.width, canvas.height)
    layers[0].withPixels(writes: false) { data, stride in
      image.pixels.withUnsafeMutableBufferPointer { out in
        PixelConversion.unpremultiply(
          data, stride: stride, width: width, height: height, into: out.baseAddress!)
      }
    }
  }
}

// MARK: - Groups

extension CairoRenderer {
  private func beginGroup(_ style: GroupStyle) throws(RenderError) {
    let index = stack.count
    _ = try clearedLayer(at: index)
    stack.append(GroupFrame(layer: index, style: style, bounds: nil))
  }

  private func endGroup() throws(RenderError) {
    try applyMasks()
    let group = stack.removeLast()
    guard let bounds = group.bounds,
      let drawn = try composite(group, bounds: bounds)
    else { return }
    stack[stack.count - 1].bounds = drawn.union(stack[stack.count - 1].bounds)
  }

  /// Composites a finished group onto its parent; returns the parent pixels it touched.
  private func composite(_ group: GroupFrame, bounds: PixelRect) throws(RenderError)
    -> PixelRect?
  {
    let style = group.style
    guard style.opacity > 0 else { return nil }
    let opacity = min(style.opacity, 1)
    var source = layers[group.layer]
    var bounds = bounds
    if style.blur > 0 {
      source = try pixelLayer(source)
      guard let blurred = blur(source, bounds: bounds, radius: style.blur) else { return nil }
      bounds = blurred
    }
    let parent = layers[stack[stack.count - 1].layer].context
    let plan = style.shadow.flatMap {
      ShadowPlan($0, content: bounds, canvas: canvas, scale: scale)
    }
    guard
      let region = bounds.intersection(canvas).map({ $0.union(plan?.destination) })
        ?? plan?.destination
    else { return nil }
    if plan != nil && (opacity < 1 || style.blend != .normal) {
      // Shadow and content fade and blend as one, so the shadow never shows through.
      let isolated = try clearedLayer(at: group.layer + 1, region)
      try drawShadow(plan, of: source, onto: isolated.context)
      Self.paint(source, onto: isolated.context, region: region, opacity: 1, blend: .normal)
      try paint(isolated, onto: parent, region: region, opacity: opacity, style: style)
    } else {
      cairo_save(parent)
      defer { cairo_restore(parent) }
      guard applyClips(style.clips, on: parent) else { return nil }
      try drawShadow(plan, of: source, onto: parent)
      Self.paint(source, onto: parent, region: region, opacity: opacity, blend: style.blend)
    }
    return region
  }

  /// Draws the shadow of a group from its layer's composed alpha.
  private func drawShadow(_ plan: ShadowPlan?, of source: CairoLayer, onto cr: OpaquePointer)
    throws(RenderError)
  {
    guard let plan else { return }
    try shadows.draw(plan, alpha: 1, onto: cr) { mask in
      cairo_set_source_surface(mask, source.surface, 0, 0)
      cairo_paint(mask)
    }
  }

  /// Paints `layer` onto `cr` inside the group's clips.
  private func paint(
    _ layer: CairoLayer, onto cr: OpaquePointer, region: PixelRect, opacity: Double,
    style: GroupStyle
  ) throws(RenderError) {
    cairo_save(cr)
    defer { cairo_restore(cr) }
    guard applyClips(style.clips, on: cr) else { return }
    Self.paint(layer, onto: cr, region: region, opacity: opacity, blend: style.blend)
  }

  /// Paints the `region` pixels of `layer` onto `cr` (device space) with `blend`.
  static func paint(
    _ layer: CairoLayer, onto cr: OpaquePointer, region: PixelRect, opacity: Double,
    blend: BlendMode
  ) {
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_new_path(cr)
    region.addRectangle(to: cr)
    cairo_clip(cr)
    cairo_set_operator(cr, blend.cairoOperator)
    cairo_set_source_surface(cr, layer.surface, 0, 0)
    cairo_paint_with_alpha(cr, opacity)
    cairo_restore(cr)
  }

  /// Intersects the clip of `cr` with each outline (winding rule). False when an outline
  /// cannot be drawn (bad transform), in which case nothing should be drawn.
  func applyClips(_ clips: [Clip], on cr: OpaquePointer) -> Bool {
    for clip in clips {
      guard clip.path.isFinite, let space = ItemSpace(clip.transform, scale: scale) else {
        return false
      }
      paths.set(clip.path, in: space, use: .fill, on: cr)
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
      cairo_clip(cr)
    }
    return true
  }
}

extension BlendMode {
  var cairoOperator: cairo_operator_t {
    switch self {
    case .normal: CAIRO_OPERATOR_OVER
    case .multiply: CAIRO_OPERATOR_MULTIPLY
    case .screen: CAIRO_OPERATOR_SCREEN
    case .overlay: CAIRO_OPERATOR_OVERLAY
    case .darken: CAIRO_OPERATOR_DARKEN
    case .lighten: CAIRO_OPERATOR_LIGHTEN
    case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
    case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
    case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
    case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
    case .difference: CAIRO_OPERATOR_DIFFERENCE
    case .exclusion: CAIRO_OPERATOR_EXCLUSION
    case .plusLighter: CAIRO_OPERATOR_ADD
    case .destinationOut: CAIRO_OPERATOR_DEST_OUT
    case .destinationOver: CAIRO_OPERATOR_DEST_OVER
    case .sourceAtop: CAIRO_OPERATOR_ATOP
    }
  }
}
