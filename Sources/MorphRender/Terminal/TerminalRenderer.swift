import MorphCore

/// Turns a `RasterImage` into text for a terminal.
///
/// Each text cell covers two vertically stacked pixels (see `TerminalLayout`), so an image
/// `w × h` pixels becomes `ceil(h / 2)` lines of `w` cells; a missing lower pixel on the last
/// line of an odd-height image counts as background. Pixels are composited over `background`
/// (straight alpha, in 8-bit sRGB with integer rounding) before anything else, which keeps the
/// output byte-identical for the same image on every platform.
///
/// - `trueColor` and `palette256`: an upper-half block `▀` with the upper pixel as foreground
///   and the lower one as background. A cell whose two pixels match is a space in the current
///   background colour, or `█` when only the foreground already matches. Colour escapes are
///   emitted only when a colour changes from the previous cell (both in one SGR sequence when
///   both change), and every line ends with `ESC[0m` and `\n`.
/// - `ascii`: no escapes. One character per cell from `asciiRamp`, chosen by how far the cell's
///   mean Rec. 709 luma is from the background's luma, so dark pixels are dense on a white
///   background and bright ones are dense on a black one. Lines keep their full width
///   (trailing spaces included) so that successive frames overwrite each other exactly.
public struct TerminalRenderer: Sendable {
  /// The density ramp for `ascii`, from no ink (the background itself) to most contrast.
  public static let asciiRamp: [Character] = Array(" .:-=+*#%@")

  public var mode: TerminalColorMode
  /// The colour transparent pixels show; its own alpha is ignored (the terminal is opaque).
  public var background: Color

  public init(mode: TerminalColorMode, background: Color = .white) {
    self.mode = mode
    self.background = background
  }

  /// The image as text: one line per pair of pixel rows, each ending in `\n`.
  public func render(_ image: RasterImage) -> String {
    let sampler = CellSampler(image: image, background: RGB8(background))
    var out = ""
    for row in 0..<sampler.rows {
      switch mode {
      case .trueColor: out += colorLine(sampler, row: row) { .rgb($0) }
      case .palette256:
        out += colorLine(sampler, row: row) {
          .indexed(Palette256.index(r: $0.r, g: $0.g, b: $0.b))
        }
      case .ascii: out += asciiLine(sampler, row: row)
      }
    }
    return out
  }

  private func colorLine(
    _ sampler: CellSampler, row: Int, color: (RGB8) -> TerminalColor
  ) -> String {
    var line = SGRLine()
    for col in 0..<sampler.cols {
      let (upper, lower) = sampler.cell(col: col, row: row)
      line.draw(upper: color(upper), lower: color(lower))
    }
    return line.text + ANSI.reset + "\n"
  }

  private func asciiLine(_ sampler: CellSampler, row: Int) -> String {
    var line = ""
    for col in 0..<sampler.cols {
      let (upper, lower) = sampler.cell(col: col, row: row)
      line.append(Self.asciiCharacter(upper.luma + lower.luma, background: sampler.background))
    }
    return line + "\n"
  }

  /// The ramp character for a cell whose two pixels' lumas sum to `lumaSum`.
  static func asciiCharacter(_ lumaSum: Int, background: RGB8) -> Character {
    let backgroundSum = 2 * background.luma
    let maxLuma = 2 * RGB8.maxLuma
    // Normalised so that the strongest contrast possible on this background is the last step.
    let range = max(backgroundSum, maxLuma - backgroundSum)
    let ink = abs(lumaSum - backgroundSum)
    let steps = asciiRamp.count - 1
    return asciiRamp[(ink * steps + range / 2) / range]
  }
}

/// An opaque 8-bit sRGB colour.
struct RGB8: Hashable, Sendable {
  var r: UInt8
  var g: UInt8
  var b: UInt8

  /// Luma scaled by 10 000 so the Rec. 709 weights stay integers.
  static let maxLuma = 255 * 10_000

  init(r: UInt8, g: UInt8, b: UInt8) {
    self.r = r
    self.g = g
    self.b = b
  }

  init(_ color: Color) {
    func byte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
    self.init(r: byte(color.red), g: byte(color.green), b: byte(color.blue))
  }

  /// Rec. 709 luma of the sRGB-encoded components, in `0...maxLuma`.
  var luma: Int { 2126 * Int(r) + 7152 * Int(g) + 722 * Int(b) }

  /// A straight-alpha pixel over this colour, rounded to the nearest byte.
  func under(r: UInt8, g: UInt8, b: UInt8, a: UInt8) -> RGB8 {
    let alpha = Int(a)
    func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
      UInt8((Int(top) * alpha + Int(bottom) * (255 - alpha) + 127) / 255)
    }
    return RGB8(r: mix(r, self.r), g: mix(g, self.g), b: mix(b, self.b))
  }
}

/// Reads an image as cells of two composited pixels.
struct CellSampler {
  let image: RasterImage
  let background: RGB8

  var cols: Int { image.width }
  var rows: Int { (image.height + 1) / 2 }

  func cell(col: Int, row: Int) -> (upper: RGB8, lower: RGB8) {
    (pixel(x: col, y: 2 * row), pixel(x: col, y: 2 * row + 1))
  }

  private func pixel(x: Int, y: Int) -> RGB8 {
    guard y < image.height else { return background }
    let p = image.pixel(x: x, y: y)
    return background.under(r: p.r, g: p.g, b: p.b, a: p.a)
  }
}

/// A colour as an SGR sequence names it.
enum TerminalColor: Hashable {
  case rgb(RGB8)
  case indexed(UInt8)

  /// The SGR parameters after 38 (foreground) or 48 (background).
  var parameters: String {
    switch self {
    case .rgb(let c): return "2;\(c.r);\(c.g);\(c.b)"
    case .indexed(let n): return "5;\(n)"
    }
  }
}

/// One line of half-block cells, remembering the colours in effect to skip redundant escapes.
struct SGRLine {
  private(set) var text = ""
  private var foreground: TerminalColor?
  private var background: TerminalColor?

  mutating func draw(upper: TerminalColor, lower: TerminalColor) {
    guard upper != lower else { return drawSolid(upper) }
    setColors(foreground: upper, background: lower)
    text += "▀"
  }

  // A space needs only the background; `█` only the foreground. Prefer whichever is already
  // set, else the space (1 byte against 3).
  private mutating func drawSolid(_ color: TerminalColor) {
    if foreground == color && background != color {
      text += "█"
    } else {
      setColors(foreground: foreground, background: color)
      text += " "
    }
  }

  private mutating func setColors(foreground fg: TerminalColor?, background bg: TerminalColor?) {
    var parameters: [String] = []
    if let fg, fg != foreground { parameters.append("38;" + fg.parameters) }
    if let bg, bg != background { parameters.append("48;" + bg.parameters) }
    foreground = fg
    background = bg
    if !parameters.isEmpty { text += ANSI.csi + parameters.joined(separator: ";") + "m" }
  }
}
