import MorphCore
import MorphRender

/// Turns the live view's frames into what the terminal is sent: half-block
/// text or an image in the chosen protocol, at the layout's place and size.
/// A frame whose pixels did not change sends nothing.
struct PictureDrawer {
  let mode: TerminalColorMode
  private let renderer = CairoRenderer()
  private var encoder: TerminalImageEncoder?
  private var raster = RasterImage(width: 0, height: 0)
  private var shown: RasterImage?
  /// The list and layout last drawn: the same again is not even rasterised.
  private var shownList: (list: DisplayList, layout: PictureLayout)?

  init(graphics: LiveGraphics, mode: TerminalColorMode) {
    self.mode = mode
    encoder = graphics.images.map {
      TerminalImageEncoder(graphics: $0, tmuxPassthrough: graphics.passthrough)
    }
  }

  /// The escapes that draw `list`, or "" when it looks as the last one drawn.
  mutating func draw(_ list: DisplayList, in layout: PictureLayout) throws -> String {
    if let last = shownList, last.layout == layout, last.list == list { return "" }
    let drawn = try encoder == nil ? text(list, in: layout) : image(list, in: layout)
    shownList = (list, layout)
    return drawn
  }

  private mutating func image(_ list: DisplayList, in layout: PictureLayout) throws -> String {
    guard var encoder else { return "" }
    try renderer.render(list, scale: layout.scale, background: .white, into: &raster)
    guard raster != shown else { return "" }
    let image = try encoder.encode(raster)
    shown = raster
    self.encoder = encoder
    return layout.cursor() + image
  }

  /// The next frame is drawn even if unchanged (the screen was cleared).
  mutating func forget() {
    shown = nil
    shownList = nil
  }

  /// What removes the images drawn so far (kitty's stay above text until deleted).
  var erase: String { encoder?.erase ?? "" }

  private mutating func text(_ list: DisplayList, in layout: PictureLayout) throws -> String {
    let scale = Double(layout.cols) / list.canvas.width
    try renderer.render(list, scale: scale, background: .white, into: &raster)
    guard raster != shown else { return "" }
    shown = raster
    let text = TerminalRenderer(mode: mode).render(raster)
    var out = ""
    // Rounding can give the raster one more line than the layout has: cut it.
    for (i, line) in text.split(separator: "\n").prefix(layout.rows).enumerated() {
      out += layout.cursor(line: i) + line
    }
    return out
  }
}
