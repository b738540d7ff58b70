import CCairo
import MorphCore

// MARK: - Masks and blur of groups

extension CairoRenderer {
  /// The widest `blur` drawn, in device pixels (the frame budget refuses far wider first).
  static let maxBlurSigma = 1024.0

  /// Keeps the open group's pixels only where each of its masks is opaque (SwiftUI's
  /// `mask`: the mask's alpha multiplies the content's). Each mask is drawn into the layer
  /// above the group's, as a group of its own would be, then applied with DEST_IN.
  func applyMasks() throws(RenderError) {
    let group = stack[stack.count - 1]
    guard !group.style.masks.isEmpty, let bounds = group.bounds?.intersection(canvas) else {
      return
    }
    for mask in group.style.masks {
      let index = stack.count
      let maskLayer = try clearedLayer(at: index, bounds)
      stack.append(GroupFrame(layer: index, style: GroupStyle(), bounds: nil))
      defer { stack.removeLast() }
      try draw(mask)
      let cr = layers[group.layer].context
      cairo_save(cr)
      cairo_identity_matrix(cr)
      cairo_reset_clip(cr)
      cairo_new_path(cr)
      bounds.addRectangle(to: cr)
      cairo_clip(cr)
      cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
      cairo_set_source_surface(cr, maskLayer.surface, 0, 0)
      cairo_paint(cr)
      cairo_restore(cr)
    }
  }

  /// Blurs a group's layer around `bounds` by a Gaussian of σ = `radius` points (SwiftUI's
  /// `blur(radius:)`, as shadows), in place; returns the pixels the blur reaches, or nil
  /// when none are on the canvas.
  func blur(_ layer: CairoLayer, bounds: PixelRect, radius: Double) -> PixelRect? {
    let sigma = min(radius * scale, Self.maxBlurSigma)
    guard sigma.isFinite else { return nil }
    // 3σ holds 99.7% of the Gaussian; one more pixel for antialiased edges.
    let margin = Int((3 * sigma).rounded(.up)) + 1
    guard let region = bounds.expanded(by: margin).intersection(canvas) else { return nil }
    shadows.blurColour(of: layer, in: region, sigma: sigma)
    return region
  }
}
