import CCairo

extension Filmstrip.Sheet {
  /// Writes `labels[n]` centred under frame `n`, in dark grey on the sheet.
  public mutating func label(_ labels: [String]) throws(RenderError) {
    let layout = self.layout
    guard layout.labelHeight > 0 else { return }
    let layer = try CairoLayer(width: image.width, height: image.height)
    let (width, height) = (image.width, image.height)
    layer.withPixels(writes: true) { data, stride in
      image.pixels.withUnsafeBufferPointer { src in
        PixelConversion.premultiply(
          src.baseAddress!, width: width, height: height, into: data, stride: stride)
      }
    }
    let cr = layer.context
    cairo_select_font_face(cr, CairoText.family, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    cairo_set_font_size(cr, Double(layout.labelHeight) * 0.7)
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2)
    for (n, text) in labels.prefix(layout.count).enumerated() {
      var extents = cairo_text_extents_t()
      cairo_text_extents(cr, text, &extents)
      let (x, y) = layout.origin(of: n)
      let left = Double(x) + (Double(layout.frameWidth) - extents.x_advance) / 2
      let baseline = Double(y + layout.frameHeight) + Double(layout.labelHeight) * 0.78
      cairo_move_to(cr, left, baseline)
      cairo_show_text(cr, text)
    }
    if let error = layer.failure("draw filmstrip labels") { throw error }
    layer.withPixels(writes: false) { data, stride in
      image.pixels.withUnsafeMutableBufferPointer { out in
        PixelConversion.unpremultiply(
          data, stride: stride, width: width, height: height, into: out.baseAddress!)
      }
    }
  }
}
