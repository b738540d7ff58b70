import Foundation
import MorphCore
import MorphRender
import Testing

@testable import MorphCLI

/// Reading the terminal's answers, placing the picture, and the keys those
/// answers must never turn into.
@Suite struct TerminalProbeTests {
  @Test func readsKittySixelAndTheCellSize() {
    let answers = TerminalProbe.parse(
      Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;9t\u{1B}[?62;4;22c".utf8))
    #expect(answers.kitty && answers.sixel && answers.complete)
    #expect(answers.cell == CellSize(width: 9, height: 20))
  }

  @Test func aTerminalWithoutImagesSaysSoAndIsComplete() {
    let answers = TerminalProbe.parse(Array("\u{1B}[?1;2c".utf8))
    #expect(!answers.kitty && !answers.sixel && answers.complete)
    #expect(!TerminalProbe.parse(Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)).complete)
    #expect(!TerminalProbe.parse(Array("\u{1B}_Gi=31;ENOENT:x\u{1B}\\\u{1B}[?62c".utf8)).kitty)
  }

  /// A reply that arrives after the probe gave up reaches the key reader:
  /// it must not read as Escape (which quits) or as keys.
  @Test func lateRepliesAreNotKeys() {
    var reader = KeyReader()
    let late = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4c\u{1B}[6;20;10t\u{1B}P1$r0m\u{1B}\\"
    #expect(reader.feed(Array(late.utf8)).isEmpty)
    // Split across reads, too.
    #expect(reader.feed(Array("\u{1B}_Gi=31;".utf8)).isEmpty)
    #expect(reader.feed(Array("OK\u{1B}\\ ".utf8)) == [.key("space")])
    #expect(reader.feed([0x1B]) == [.key("escape")])
  }

  /// xterm's SGR reports: button 0 pressed and dragged (bit 32), released
  /// (`m`), and motion with no button (35, any-event tracking) as a move;
  /// the wheel (64) and other buttons are ignored.
  @Test func mouseReportsIncludeMotionWithNoButton() {
    var reader = KeyReader()
    let reports =
      "\u{1B}[<0;3;4M\u{1B}[<32;5;4M\u{1B}[<0;5;4m\u{1B}[<35;7;2M"
      + "\u{1B}[<64;1;1M\u{1B}[<34;1;1M"
    #expect(
      reader.feed(Array(reports.utf8)) == [
        .mouse(MouseEvent(kind: .press, column: 3, row: 4)),
        .mouse(MouseEvent(kind: .drag, column: 5, row: 4)),
        .mouse(MouseEvent(kind: .release, column: 5, row: 4)),
        .mouse(MouseEvent(kind: .move, column: 7, row: 2)),
      ])
  }

  @Test func imagesAreCentredAndTheMouseFindsThePoint() {
    let canvas = Size(428, 288)
    let layout = PictureLayout.image(
      canvas: canvas, cols: 80, rows: 24, cell: CellSize(width: 10, height: 20))
    #expect(layout.scale == 480.0 / 288)
    #expect(layout.cols == 72 && layout.rows == 24)
    #expect(layout.originCol == 4 && layout.originRow == 0)
    // The cell at the picture's centre is the canvas's centre, within a cell (6 × 12 pt).
    let centre = layout.canvasPoint(column: 4 + 36 + 1, row: 12 + 1)
    #expect(abs(centre.x - 214) < 6 && abs(centre.y - 144) < 12)
    #expect(layout.canvasPoint(column: 5, row: 1) == Point(3, 6), "the first cell's centre")
    let text = PictureLayout.text(canvas: canvas, cols: 120, rows: 25)
    #expect(text.cols == 74 && text.originCol == 23)
  }

  @Test func colourChoicesForceTheMode() {
    #expect(textColorMode(ascii: false, plainInPipe: true, forced: .truecolor) == .trueColor)
    #expect(textColorMode(ascii: true, plainInPipe: false, forced: .palette256) == .palette256)
    #expect(textColorMode(ascii: false, plainInPipe: false, forced: ColorChoice.none) == .ascii)
    #expect(ColorChoice(rawValue: "256") == .palette256)
  }

  @Test func tmuxsRGBFeatureMeansTrueColour() {
    var environment = TerminalEnvironment(
      term: "xterm", colorTerm: nil, noColor: false, isTTY: true)
    #expect(environment.preferredMode() == .palette256)
    environment.multiplexerHasRGB = true
    #expect(environment.preferredMode() == .trueColor)
    environment.noColor = true
    #expect(environment.preferredMode() == .ascii)
  }

  @Test func overlaysScrollAndFillTheScreen() {
    var overlay = Overlay(title: "t", text: (1...40).map { "line \($0)" }.joined(separator: "\n"))
    let first = overlay.text(cols: 20, rows: 10)
    #expect(first.contains("line 1\u{1B}") && !first.contains("line 10\u{1B}"))
    #expect(first.contains("lines 1–9 of 40"))
    let scrolled = overlay.scroll("down") && overlay.scroll("down")
    #expect(scrolled)
    #expect(overlay.text(cols: 20, rows: 10).contains("lines 3–11 of 40"))
    let closes = !overlay.scroll("x")
    #expect(closes)
    // Every row is placed and cleared: nothing of the picture shows through.
    #expect(first.components(separatedBy: "\u{1B}[K").count - 1 == 10)
  }
}

/// A terminal's numbers are input too: a cell or window size it answers with that is not
/// a plausible pixel count (huge, tiny, not finite) is ignored, and placing the picture
/// never traps converting it to cells (`Int(inf)`).
@Suite struct TerminalNumberTests {
  static let texts = [
    "1e6", "1e300", "-1e300", "-0.0", "nan", "inf", "-inf", "4.9e-324", "9007199254740992",
    "9223372036854775808", "9223372036854775807", "-9223372036854775808",
  ]

  @Test(arguments: texts)
  func cellAndWindowAnswers(_ v: String) {
    for reply in ["6;\(v);\(v)", "6;20;\(v)", "6;\(v);9", "4;\(v);\(v)"] {
      let answers = TerminalProbe.parse(Array("\u{1B}[\(reply)t\u{1B}[?62c".utf8))
      #expect(answers.complete)
      if let cell = answers.cell {
        #expect((1...1024).contains(cell.width) && (1...1024).contains(cell.height), "\(reply)")
      }
      let layout = PictureLayout.image(
        canvas: Size(428, 288), cols: 80, rows: 24,
        cell: answers.cell ?? CellSize(width: 8, height: 16))
      #expect(layout.cols >= 1 && layout.cols <= 80 && layout.rows >= 1 && layout.rows <= 24)
    }
    // Placing a picture with such a cell directly (the kernel's answer is another way in).
    let n = Double(v) ?? .nan
    let layout = PictureLayout.image(
      canvas: Size(428, 288), cols: 80, rows: 24, cell: CellSize(width: n, height: n))
    #expect(layout.cols >= 1 && layout.cols <= 80 && layout.rows >= 1 && layout.rows <= 24)
  }
}
