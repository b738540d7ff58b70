import Foundation
import MorphCore
import MorphRender
import MorphTestSupport
import Testing

/// Text through Pango: SwiftUI's `Text` sizing, the styles and weights, truncation, fallback
/// fonts, the layout cache, and goldens of each (one frame per case, compared frame by frame).
@Suite struct TextTests {
  static let measure = PangoTextMeasure()
  static let ideal = ProposedSize(width: nil, height: nil)
  static let paragraph =
    "Text wraps to the width layout offers, and its height follows the lines it takes."

  static func run(_ s: String, size: Double = 17, _ configure: (inout TextRun) -> Void = { _ in })
    -> TextRun
  {
    var run = TextRun(string: s, size: size, color: Color(white: 0.1))
    configure(&run)
    return run
  }

  static func size(_ run: TextRun, width: Double? = nil, height: Double? = nil) -> Size {
    measure.measure(run, in: ProposedSize(width: width, height: height)).size
  }

  /// One frame: `view` laid out in `canvas` as a component body would be, on white.
  static func frame(_ view: ViewNode, canvas: Size = Size(300, 120), scale: Double = 2) throws
    -> RasterImage
  {
    let list = try DisplayListBuilder(textMeasure: measure).build(view, canvas: canvas)
    return try CairoRenderer().render(list, scale: scale, background: .white)
  }

  static func text(_ run: TextRun, _ modifiers: [Modifier] = []) -> ViewNode {
    ViewNode(.text(run), modifiers: modifiers)
  }

  static func expectGolden(_ frames: [RasterImage], _ name: String, columns: Int? = nil) throws {
    let result = try Golden.assertFilmstrip(frames, matches: goldenPath(name), columns: columns)
    #expect(result.passed, "\(result)")
  }

  @Test func thePrivateFontSetIsComplete() {
    #expect(
      PangoTextMeasure.missingFonts.isEmpty,
      "missing \(PangoTextMeasure.missingFonts); scripts/install-deps.sh installs fonts-inter, fonts-noto-cjk and fonts-noto-color-emoji"
    )
  }

  @Test func textTakesItsIdealWidthWhenItFitsAndWrapsWhenNot() {
    let run = Self.run(Self.paragraph)
    let ideal = Self.size(run)
    let line = Self.size(Self.run("Text")).height
    #expect(abs(ideal.height - line) < 0.01)
    #expect(Self.size(run, width: ideal.width + 50) == ideal)
    let wrapped = Self.size(run, width: 120)
    #expect(wrapped.width <= 120 && wrapped.width > 80)
    #expect(wrapped.height > 4 * line - 0.01)
    // Laid out at the size it came to, it keeps its lines (what drawing asks for).
    #expect(Self.size(run, width: wrapped.width, height: wrapped.height) == wrapped)
  }

  @Test func aNewlineBreaksTheLine() {
    let one = Self.size(Self.run("First line"))
    let two = Self.size(Self.run("First line\nSecond"))
    #expect(abs(two.height - 2 * one.height) < 0.5)
    #expect(abs(two.width - one.width) < 0.01)
  }

  @Test func lineLimitAndTheHeightOfferedCapTheLines() {
    let line = Self.size(Self.run("Text")).height
    let limited = Self.size(Self.run(Self.paragraph) { $0.lineLimit = 2 }, width: 120)
    #expect(abs(limited.height - 2 * line) < 0.5)
    #expect(limited.width <= 120)
    let short = Self.size(Self.run(Self.paragraph), width: 120, height: line * 1.5)
    #expect(abs(short.height - line) < 0.5)
    let spaced = Self.size(Self.run("a\nb") { $0.lineSpacing = 10 })
    #expect(abs(spaced.height - 2 * line - 10) < 0.5)
  }

  @Test func stylesAndWeightsAreApplesSizesAndHeavierIsWider() {
    let headline = TextRun(string: "x", style: .headline, size: nil, weight: nil, color: .black)
    #expect(headline.size == 17 && headline.weight == .semibold)
    let title = TextRun(string: "x", style: .largeTitle, size: nil, weight: .bold, color: .black)
    #expect(title.size == 34 && title.weight == .bold)
    let widths = FontWeight.allCases.map { w in
      Self.size(Self.run("Weights") { $0.weight = w }).width
    }
    #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 < $1 }, "\(widths)")
    let regular = Self.size(Self.run("Hello"))
    // Pango spaces the four gaps between the five letters.
    #expect(abs(Self.size(Self.run("Hello") { $0.tracking = 2 }).width - regular.width - 8) < 0.1)
    let digits = ["1111", "0000"].map {
      Self.size(Self.run($0) { $0.monospacedDigit = true }).width
    }
    #expect(abs(digits[0] - digits[1]) < 0.01)
    #expect(Self.size(Self.run("1111")).width < Self.size(Self.run("0000")).width - 1)
  }

  @Test func aFrameWhoseTextDidNotChangeShapesNothing() throws {
    let view = ViewNode(
      .stack(
        .vertical, spacing: 4, alignment: .center,
        children: [
          Self.text(Self.run("Cached \(UUID())")),
          Self.text(Self.run(Self.paragraph) { $0.lineLimit = 2 }),
        ]), modifiers: [.frame(FrameSpec(width: 200))])
    _ = try Self.frame(view)
    // Counted on this thread: other suites lay text out at the same time.
    // They may also fill the cache and evict these layouts before a repeat
    // reads them, so up to five repeats, one of which must make none; with no
    // cache every repeat makes this frame's layouts.
    var made: [Int] = []
    for _ in 0..<5 {
      let start = PangoTextMeasure.layoutsMadeOnThisThread
      _ = try Self.frame(view)
      made.append(PangoTextMeasure.layoutsMadeOnThisThread - start)
      if made.last == 0 { break }
    }
    #expect(made.last == 0, "layouts made by each repeat: \(made)")
    // The counter counts: a new text on this thread makes layouts.
    let beforeFresh = PangoTextMeasure.layoutsMadeOnThisThread
    _ = try Self.frame(Self.text(Self.run("Fresh \(UUID())")))
    #expect(PangoTextMeasure.layoutsMadeOnThisThread > beforeFresh)
  }

  @Test func drawingOnSeveralThreadsMatchesOneThread() async throws {
    let view = Self.text(
      Self.run("Threads 世界 😀 \(Self.paragraph)"), [.frame(FrameSpec(width: 260))])
    let list = try DisplayListBuilder(textMeasure: Self.measure).build(view, canvas: Size(300, 120))
    let reference = try CairoRenderer().render(list, scale: 2, background: .white)
    let images = try await withThrowingTaskGroup(of: RasterImage.self) { group in
      for _ in 0..<8 {
        group.addTask { try CairoRenderer().render(list, scale: 2, background: .white) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(images.allSatisfy { $0 == reference })
  }

  // Goldens: the frames of each are looked at before committing.

  @Test func wrappedTextGolden() throws {
    let frames = try [80.0, 160, 280].map { width in
      try Self.frame(
        Self.text(
          Self.run(Self.paragraph) { $0.alignment = .center }, [.frame(FrameSpec(width: width))]),
        canvas: Size(300, 140))
    }
    try Self.expectGolden(frames, "text-wrapped.png", columns: 3)
  }

  @Test func textStylesGolden() throws {
    let frames = try TextStyle.allCases.map { style in
      try Self.frame(
        Self.text(
          TextRun(
            string: "\(style.rawValue) Hg", style: style, size: nil, weight: nil, color: .black)),
        canvas: Size(240, 50))
    }
    try Self.expectGolden(frames, "text-styles.png", columns: 4)
  }

  @Test func fontWeightsGolden() throws {
    let frames = try FontWeight.allCases.map { weight in
      try Self.frame(
        Self.text(Self.run("\(weight.rawValue) Rag", size: 22) { $0.weight = weight }),
        canvas: Size(240, 44))
    }
    try Self.expectGolden(frames, "text-weights.png", columns: 3)
  }

  @Test func truncationGolden() throws {
    let frames = try TextTruncation.allCases.map { mode in
      try Self.frame(
        Self.text(
          Self.run("\(mode.rawValue): the beginning, the middle and the end") {
            $0.lineLimit = 1
            $0.truncation = mode
          }, [.frame(FrameSpec(width: 200))]), canvas: Size(240, 40))
    }
    try Self.expectGolden(frames, "text-truncation.png", columns: 1)
  }

  @Test func fallbackFontsGolden() throws {
    let frames = try ["中文 日本語 한국어", "Emoji 😀🎉👍🏽"].map { s in
      try Self.frame(Self.text(Self.run(s, size: 24)), canvas: Size(260, 50))
    }
    try Self.expectGolden(frames, "text-fallback.png", columns: 1)
  }
}
