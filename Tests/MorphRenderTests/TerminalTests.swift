import Foundation
import MorphCore
import MorphTestSupport
import Testing

@testable import MorphRender

private let esc = "\u{1B}"

/// An image from rows of (r, g, b, a) pixels.
private func image(_ rows: [[(UInt8, UInt8, UInt8, UInt8)]]) -> RasterImage {
  let bytes = rows.flatMap { $0.flatMap { [$0.0, $0.1, $0.2, $0.3] } }
  return RasterImage(width: rows.first?.count ?? 0, height: rows.count, pixels: bytes)
}

private let red: (UInt8, UInt8, UInt8, UInt8) = (255, 0, 0, 255)
private let green: (UInt8, UInt8, UInt8, UInt8) = (0, 255, 0, 255)
private let blue: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 255, 255)
private let white: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 255)
private let black: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 255)
private let clear: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)

// MARK: - Layout

@Test func fitKeepsAspectWhenHeightLimits() {
  // 80 columns would need 27 rows; 24 rows give a 48-pixel-tall raster, 428/288·48 ≈ 71.3.
  let grid = TerminalLayout.fit(canvas: (428, 288), cols: 80, rows: 24)
  #expect(grid.cols == 71 && grid.rows == 24)
}

@Test func fitKeepsAspectWhenWidthLimits() {
  let grid = TerminalLayout.fit(canvas: (1000, 100), cols: 80, rows: 24)
  #expect(grid.cols == 80 && grid.rows == 4)
}

@Test(arguments: [(428.0, 288.0), (1, 1), (1000, 1), (1, 1000), (390, 844), (16, 9)])
func fitStaysInBoundsAndFillsOneSide(width: Double, height: Double) {
  for (cols, rows) in [(80, 24), (200, 60), (10, 3), (1, 1)] {
    let grid = TerminalLayout.fit(canvas: (width, height), cols: cols, rows: rows)
    #expect(grid.cols >= 1 && grid.cols <= cols && grid.rows >= 1 && grid.rows <= rows)
    #expect(grid.cols == cols || grid.rows == rows)
    // The other side is the canvas's aspect rounded to the nearest cell (or clamped to 1).
    let idealRows = Double(grid.cols) * height / (2 * width)
    let idealCols = Double(grid.rows) * 2 * width / height
    let rounded =
      abs(Double(grid.rows) - idealRows) <= 0.5 || abs(Double(grid.cols) - idealCols) <= 0.5
    #expect(rounded || grid.cols == 1 || grid.rows == 1)
  }
}

@Test func fitHandlesDegenerateInput() {
  #expect(TerminalLayout.fit(canvas: (100, 100), cols: 0, rows: -3) == (1, 1))
  #expect(TerminalLayout.fit(canvas: (0, 100), cols: 80, rows: 24) == (80, 24))
  #expect(TerminalLayout.fit(canvas: (.nan, 100), cols: 80, rows: 24) == (80, 24))
}

// MARK: - True colour

@Test func trueColorExactOutput() {
  let img = image([
    [red, green],
    [red, blue],
    [white, white],
    [clear, white],
  ])
  let expected =
    "\(esc)[48;2;255;0;0m \(esc)[38;2;0;255;0;48;2;0;0;255m▀\(esc)[0m\n"
    + "\(esc)[48;2;255;255;255m  \(esc)[0m\n"
  #expect(TerminalRenderer(mode: .trueColor).render(img) == expected)
}

@Test func solidCellUsesFullBlockWhenForegroundAlreadyMatches() {
  let img = image([[red, red], [blue, red]])
  let expected = "\(esc)[38;2;255;0;0;48;2;0;0;255m▀█\(esc)[0m\n"
  #expect(TerminalRenderer(mode: .trueColor).render(img) == expected)
}

@Test func oddHeightPadsWithBackground() {
  let img = image([[black]])
  let expected = "\(esc)[38;2;0;0;0;48;2;255;255;255m▀\(esc)[0m\n"
  #expect(TerminalRenderer(mode: .trueColor).render(img) == expected)
}

@Test func compositesStraightAlphaOverBackground() {
  let halfRed: (UInt8, UInt8, UInt8, UInt8) = (255, 0, 0, 128)
  let img = image([[halfRed], [halfRed]])
  #expect(
    TerminalRenderer(mode: .trueColor).render(img) == "\(esc)[48;2;255;127;127m \(esc)[0m\n")
  #expect(
    TerminalRenderer(mode: .trueColor, background: .black).render(img)
      == "\(esc)[48;2;128;0;0m \(esc)[0m\n")
  // Fully transparent pixels are the background, whatever their colour bytes say.
  let ghost = image([[(9, 200, 40, 0)], [(9, 200, 40, 0)]])
  #expect(
    TerminalRenderer(mode: .trueColor, background: .black).render(ghost)
      == "\(esc)[48;2;0;0;0m \(esc)[0m\n")
}

@Test func emptyImageRendersNothing() {
  for mode in TerminalColorMode.allCases {
    #expect(TerminalRenderer(mode: mode).render(RasterImage(width: 0, height: 0)) == "")
  }
}

// MARK: - 256 colours

@Test func palette256Mapping() {
  #expect(Palette256.index(r: 255, g: 0, b: 0) == 196)
  #expect(Palette256.index(r: 255, g: 255, b: 255) == 231)
  #expect(Palette256.index(r: 0, g: 0, b: 0) == 16)
  let grey = Palette256.index(r: 128, g: 128, b: 128)
  #expect((232...255).contains(grey))
  #expect(Palette256.color(of: grey) == (128, 128, 128))
  // Every palette colour maps back to itself.
  for i in UInt8(16)...255 {
    let c = Palette256.color(of: i)
    #expect(Palette256.color(of: Palette256.index(r: c.r, g: c.g, b: c.b)) == c)
  }
}

@Test func palette256Output() {
  let img = image([[red, green], [red, blue]])
  let expected = "\(esc)[48;5;196m \(esc)[38;5;46;48;5;21m▀\(esc)[0m\n"
  #expect(TerminalRenderer(mode: .palette256).render(img) == expected)
}

// MARK: - ASCII

@Test func asciiDensityFollowsContrastWithBackground() {
  let onWhite = TerminalRenderer(mode: .ascii)
  #expect(onWhite.render(image([[black], [black]])) == "@\n")
  #expect(onWhite.render(image([[white], [white]])) == " \n")
  #expect(onWhite.render(image([[clear], [clear]])) == " \n")
  #expect(onWhite.render(image([[black], [white]])) == "+\n")
  let onBlack = TerminalRenderer(mode: .ascii, background: .black)
  #expect(onBlack.render(image([[white], [white]])) == "@\n")
  #expect(onBlack.render(image([[black], [black]])) == " \n")
}

@Test func asciiHasNoEscapesAndFixedWidth() {
  let text = TerminalRenderer(mode: .ascii).render(gradient())
  #expect(!text.utf8.contains(0x1B))
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
  #expect(lines.count == 8)
  #expect(lines.allSatisfy { $0.count == 32 })
}

// MARK: - Determinism and goldens

@Test(arguments: TerminalColorMode.allCases)
func renderingIsDeterministic(mode: TerminalColorMode) {
  let renderer = TerminalRenderer(mode: mode, background: Color(red: 0.1, green: 0.2, blue: 0.3))
  let a = renderer.render(gradient())
  let b = renderer.render(RasterImage(width: 32, height: 16, pixels: gradient().pixels))
  #expect(a == b)
  #expect(Array(a.utf8) == Array(b.utf8))
}

@Test func asciiGolden() throws {
  try expectGolden(TerminalRenderer(mode: .ascii).render(gradient()), named: "gradient-ascii")
}

@Test func trueColorGolden() throws {
  try expectGolden(
    TerminalRenderer(mode: .trueColor).render(gradient()), named: "gradient-truecolor")
}

/// 32×16: red rises to the right, green downwards, over constant blue; a black disc with a
/// half-transparent rim in the middle and a transparent 4×4 top-left corner.
private func gradient() -> RasterImage {
  var pixels: [UInt8] = []
  for y in 0..<16 {
    for x in 0..<32 {
      let r = UInt8(x * 255 / 31)
      let g = UInt8(y * 255 / 15)
      let d2 = (x - 16) * (x - 16) + (y - 8) * (y - 8)
      if x < 4 && y < 4 {
        pixels += [r, g, 160, 0]
      } else if d2 <= 16 {
        pixels += [0, 0, 0, 255]
      } else if d2 <= 30 {
        pixels += [0, 0, 0, 128]
      } else {
        pixels += [r, g, 160, 255]
      }
    }
  }
  return RasterImage(width: 32, height: 16, pixels: pixels)
}

/// Compares `actual` with `Goldens/NAME.txt` through the shared golden helper.
private func expectGolden(
  _ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Goldens/\(name).txt")
  let result = try Golden.assertText(actual, matches: golden.path)
  #expect(result.passed, Comment(rawValue: result.description), sourceLocation: sourceLocation)
}

// MARK: - Environment and escapes

private func mode(_ env: [String: String], forceASCII: Bool = false) -> TerminalColorMode {
  TerminalEnvironment(environment: env, isTTY: true).preferredMode(forceASCII: forceASCII)
}

@Test func preferredModeFromEnvironment() {
  #expect(mode(["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]) == .ascii)
  #expect(mode(["TERM": "dumb", "COLORTERM": "truecolor"]) == .ascii)
  #expect(mode([:]) == .ascii)
  #expect(mode(["TERM": "xterm-256color", "COLORTERM": "truecolor"]) == .trueColor)
  #expect(mode(["TERM": "xterm-256color", "COLORTERM": "24bit"]) == .trueColor)
  #expect(mode(["TERM": "xterm-256color"]) == .palette256)
  #expect(mode(["TERM": "xterm-256color"], forceASCII: true) == .ascii)
  #expect(mode(["TERM": "xterm-direct"]) == .trueColor)
  #expect(mode(["TERM": "xterm-kitty"]) == .trueColor)
  #expect(mode(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]) == .trueColor)
  // no-color.org: an empty NO_COLOR does not count.
  #expect(mode(["TERM": "xterm-256color", "NO_COLOR": ""]) == .palette256)
}

@Test func ansiSequences() {
  #expect(ANSI.moveTo(row: 3, col: 7) == "\(esc)[3;7H")
  #expect(ANSI.home == "\(esc)[H")
  #expect(ANSI.reset == "\(esc)[0m")
  #expect(ANSI.enterAlternateScreen == "\(esc)[?1049h")
  #expect(ANSI.leaveAlternateScreen == "\(esc)[?1049l")
  #expect(ANSI.hideCursor == "\(esc)[?25l" && ANSI.showCursor == "\(esc)[?25h")
  #expect(ANSI.enableMouse == "\(esc)[?1000h\(esc)[?1002h\(esc)[?1003h\(esc)[?1006h")
  #expect(ANSI.disableMouse == "\(esc)[?1006l\(esc)[?1003l\(esc)[?1002l\(esc)[?1000l")
}
