import CCairo
import MorphCore

extension Filmstrip.Sheet {
  /// Writes `labels[n]` centred under frame `n`, in dark grey on the sheet, one line each.
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
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2)
    var run = TextRun(
      string: "", size: Double(layout.labelHeight) * 0.7, color: Color(white: 0.2))
    run.lineLimit = 1
    for (n, text) in labels.prefix(layout.count).enumerated() {
      let (x, y) = layout.origin(of: n)
      run.string = text
      TextEngine.shared.draw(
        run,
        in: Rect(
          x: Double(x), y: Double(y + layout.frameHeight), width: Double(layout.frameWidth),
          height: Double(layout.labelHeight)),
        on: cr)
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
