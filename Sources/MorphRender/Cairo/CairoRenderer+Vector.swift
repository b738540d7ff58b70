import CCairo
import MorphCore

/// A vector document format Cairo writes.
public enum VectorFormat: String, CaseIterable, Sendable {
  case svg, pdf
}

// MARK: - Vector documents

extension CairoRenderer {
  /// Draws `list` as an SVG or PDF document with the same drawing code as `render`: the
  /// canvas is Cairo's SVG or PDF surface and every group is a recording surface, so shapes
  /// stay vector; text is drawn as glyph outlines (no fonts are needed to view it), images
  /// are embedded, and what the format cannot express (blurs, shadows, some blend modes)
  /// Cairo embeds as pixels. One document unit is one pixel at `scale`.
  public func renderVector(
    _ list: DisplayList, format: VectorFormat, scale: Double = 1, background: Color? = nil
  ) throws(RenderError) -> [UInt8] {
    let (width, height) = try Self.pixelSize(list.canvas, scale: scale)
    try Self.checkGroups(list.commands)
    let canvasRect = PixelRect(x: 0, y: 0, width: width, height: height)
    try Self.checkBlurBudget(list, scale: scale, canvas: canvasRect, budget: budget)
    let sink = VectorSink()
    let surface = sink.surface(format, width: Double(width), height: Double(height))
    let document = try CairoLayer(adopting: surface, width: width, height: height)
    // The raster layers are sized and typed for pixels: start over before and after.
    layers.removeAll()
    defer {
      layers.removeAll()
      isVector = false
      canvas = PixelRect(x: 0, y: 0, width: 0, height: 0)
    }
    // Finished (and so written out) before anything lets go of the surface, on every path,
    // while the sink Cairo writes into is still alive.
    defer {
      cairo_surface_finish(surface)
      withExtendedLifetime(sink) {}
    }
    isVector = true
    canvas = canvasRect
    self.scale = scale
    layers.append(document)
    if let c = background {
      cairo_set_source_rgba(document.context, c.red, c.green, c.blue, c.alpha)
      cairo_paint(document.context)
    }
    stack.removeAll(keepingCapacity: true)
    stack.append(GroupFrame(layer: 0, style: GroupStyle(), bounds: nil))
    images = try ImageCache.shared.images(in: list.commands)
    defer { images.removeAll(keepingCapacity: true) }
    if width > 0, height > 0 { try draw(list.commands) }
    if let error = layers.lazy.compactMap({ $0.failure("draw the display list") }).first
      ?? shadows.failure
    {
      throw error
    }
    cairo_surface_finish(surface)
    if let error = document.failure("write the \(format.rawValue) document") { throw error }
    return sink.bytes
  }

  /// The layer at `index`, empty and ready to draw on, with at least `region` (all of it
  /// when nil) cleared. A raster layer is cleared in place; a vector one is a new recording
  /// surface, since a recorded clear would make Cairo fall back to pixels.
  func clearedLayer(at index: Int, _ region: PixelRect? = nil) throws(RenderError) -> CairoLayer {
    guard isVector, index > 0 else {
      let layer = try layer(at: index)
      layer.clear(region)
      return layer
    }
    let fresh = try CairoLayer.recording(width: canvas.width, height: canvas.height)
    while layers.count <= index {
      layers.append(try CairoLayer.recording(width: canvas.width, height: canvas.height))
    }
    layers[index] = fresh
    return fresh
  }

  /// `layer` as pixels, for the effects that work on them (a group's blur): itself when it
  /// is an image surface, else a canvas-sized image of what it recorded.
  func pixelLayer(_ layer: CairoLayer) throws(RenderError) -> CairoLayer {
    guard !layer.isImage else { return layer }
    let image = try CairoLayer(width: canvas.width, height: canvas.height)
    cairo_set_source_surface(image.context, layer.surface, 0, 0)
    cairo_paint(image.context)
    cairo_surface_flush(image.surface)
    if let error = image.failure("draw a group as pixels") { throw error }
    return image
  }
}

/// Collects the bytes Cairo streams out of an SVG or PDF surface.
private final class VectorSink {
  var bytes: [UInt8] = []

  /// A document surface of `width`×`height` units that writes into `bytes`. Cairo holds an
  /// unretained pointer to the sink, which lives until the caller finishes the surface.
  func surface(_ format: VectorFormat, width: Double, height: Double) -> OpaquePointer {
    let closure = Unmanaged.passUnretained(self).toOpaque()
    let write: cairo_write_func_t = { closure, data, length in
      guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
      let sink = Unmanaged<VectorSink>.fromOpaque(closure).takeUnretainedValue()
      sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
      return CAIRO_STATUS_SUCCESS
    }
    switch format {
    case .svg:
      let surface = cairo_svg_surface_create_for_stream(write, closure, width, height)!
      // CSS pixels, so a browser shows a scale-1 still at the PNG's size.
      cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
      return surface
    case .pdf:
      return cairo_pdf_surface_create_for_stream(write, closure, width, height)!
    }
  }
}
