import MorphCore
import MorphRender
import MorphTestSupport
import Testing

/// Glyph outlines (what Lottie, SVG and PDF draw text with) against the raster's own text,
/// for the kinds of text plugins show: a line longer than ten em (Cairo's glyph path used
/// to leave out every glyph that far outside its 1×1 surface), wrapped lines, truncation,
/// several runs (fallback fonts), large text. (Colour emoji are left out: as outlines they
/// become flat, which the Lottie report says.)
@Suite struct TextOutlineTests {
  static let measure = PangoTextMeasure()

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var run: TextRun
    var width: Double?
    var canvas: Size
    var testDescription: String { name }
  }

  static func run(_ s: String, size: Double = 17, _ configure: (inout TextRun) -> Void = { _ in })
    -> TextRun
  {
    var run = TextRun(string: s, size: size, color: Color(white: 0.1))
    configure(&run)
    return run
  }

  static let paragraph =
    "Text wraps to the width layout offers, and its height follows the lines it takes, "
    + "line after line after line, further down than ten em from the top of the frame."

  static let cases: [Case] = [
    Case(name: "caption", run: run("No card has been tapped"), canvas: Size(260, 40)),
    Case(
      name: "bold label", run: run("Red", size: 34) { $0.weight = .bold }, canvas: Size(120, 60)),
    Case(
      name: "digits", run: run("Progress 100 %") { $0.monospacedDigit = true },
      canvas: Size(200, 40)),
    Case(
      name: "tracking, italic",
      run: run("Spaced and slanted, longer than ten em") {
        $0.tracking = 2
        $0.italic = true
      }, canvas: Size(480, 40)),
    Case(
      name: "wrapped", run: run(paragraph) { $0.alignment = .center }, width: 120,
      canvas: Size(160, 440)),
    Case(
      name: "truncated",
      run: run("the beginning, the middle and the end of a long line") {
        $0.lineLimit = 1
        $0.truncation = .middle
      }, width: 200, canvas: Size(240, 40)),
    Case(
      name: "several runs", run: run("Mixed 中文 日本語 한국어 and Ελληνικά to the end", size: 20),
      canvas: Size(520, 50)),
    Case(name: "large", run: run("Large text", size: 60), canvas: Size(360, 100)),
  ]

  @Test(arguments: cases)
  func outlinesDrawAsTheRasterDraws(_ c: Case) throws {
    let modifiers: [Modifier] = c.width.map { [.frame(FrameSpec(width: $0))] } ?? []
    let list = try DisplayListBuilder(textMeasure: Self.measure)
      .build(ViewNode(.text(c.run), modifiers: modifiers), canvas: c.canvas)
    let difference = try TextOutlines.difference(list)
    #expect(TextOutlines.tolerance.allows(difference), "\(c.name): \(difference)")
  }

  /// A layout's outlines are traced once: a second frame of the same text at another scale
  /// traces none, and the vector exports' outlines are the ones the raster filled.
  @Test func outlinesAreTracedOncePerLayout() throws {
    let run = Self.run("Traced once, filled at every scale, exported as drawn")
    let list = try DisplayListBuilder(textMeasure: Self.measure)
      .build(ViewNode(.text(run)), canvas: Size(460, 40))
    let renderer = CairoRenderer()
    let start = PangoTextMeasure.outlinesTracedOnThisThread
    _ = try renderer.render(list, scale: 2, background: .white)
    #expect(PangoTextMeasure.outlinesTracedOnThisThread == start + 1)
    _ = try renderer.render(list, scale: 1, background: .white)
    _ = TextOutlines.outlined(list)
    #expect(PangoTextMeasure.outlinesTracedOnThisThread == start + 1)
  }

  /// Text drawn again where it was (a still frame) is composited from its coverage mask,
  /// with exactly the pixels the fill gave; text that moves is filled again.
  @Test func textThatStaysPutDrawsTheSameFromItsMask() throws {
    let run = Self.run("Drawn in place, then from its mask: 0123456789")
    let list = try DisplayListBuilder(textMeasure: Self.measure)
      .build(ViewNode(.text(run)), canvas: Size(420, 40))
    let moved = try DisplayListBuilder(textMeasure: Self.measure)
      .build(ViewNode(.text(run), modifiers: [.offset(Point(0.3, 0.6))]), canvas: Size(420, 40))
    let renderer = CairoRenderer()
    let filled = try renderer.render(list, scale: 1.5, background: .white)
    for _ in 0..<2 {
      let again = try renderer.render(list, scale: 1.5, background: .white)
      #expect(again.pixels == filled.pixels)
    }
    let movedFilled = try renderer.render(moved, scale: 1.5, background: .white)
    #expect(movedFilled.pixels != filled.pixels)
    let movedAgain = try renderer.render(moved, scale: 1.5, background: .white)
    #expect(movedAgain.pixels == movedFilled.pixels)
  }
}
