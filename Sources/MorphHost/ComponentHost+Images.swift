import MorphCore
import MorphRender
import MorphScript

/// Pictures of a component: controlled-mode frames, PNGs, filmstrips.
extension ComponentHost {
  /// Controlled mode: the frame with the progress key set to `p` (no animation).
  public func frame(atProgress p: Double) throws -> Frame {
    try component.setProgress(p)
    return try frame()
  }

  /// A frame rasterised with `renderer` (reuse one across frames).
  public func image(
    _ frame: Frame, renderer: CairoRenderer, scale: Double = 1, background: Color? = .white
  ) throws -> RasterImage {
    try renderer.render(frame.list, scale: scale, background: background)
  }

  /// The frames at each progress value, rasterised.
  public func images(
    progress values: [Double], scale: Double = 1, background: Color? = .white
  ) throws -> [RasterImage] {
    let renderer = CairoRenderer()
    return try values.map { p in
      try image(try frame(atProgress: p), renderer: renderer, scale: scale, background: background)
    }
  }

  /// The frames at each progress value, side by side.
  public func filmstrip(
    progress values: [Double], scale: Double = 1, background: Color? = .white, columns: Int? = nil
  ) throws -> RasterImage {
    try Filmstrip.compose(
      try images(progress: values, scale: scale, background: background), columns: columns)
  }
}
