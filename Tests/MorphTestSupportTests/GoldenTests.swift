import Foundation
import MorphCore
import MorphRender
import MorphTestSupport
import Testing

/// An opaque grey image.
private func solid(_ width: Int, _ height: Int, _ value: UInt8) -> RasterImage {
  RasterImage(
    width: width, height: height,
    pixels: (0..<width * height).flatMap { _ in [value, value, value, 255] })
}

private func scratch() -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent("morph-golden-\(UUID().uuidString)")
}

/// A flip-card face as the plugin draws one: a 220×140 card on a 428×288
/// canvas with a 40×40 accent dot, the dot moved by `shift` points.
private func card(shift: Double = 0, cardShift: Double = 0) throws -> RasterImage {
  let cardFrame = Rect(x: 104 + cardShift, y: 74, width: 220, height: 140)
  let dotFrame = Rect(x: 194 + shift, y: 124, width: 40, height: 40)
  /// A shape drawn in its own frame, placed at the frame's origin.
  func item(_ frame: Rect, _ color: Color, _ shape: (Rect) -> Path) -> DisplayCommand {
    .item(
      DisplayItem(
        kind: .path, path: shape(Rect(origin: .zero, size: frame.size)),
        frame: Rect(origin: .zero, size: frame.size),
        transform: ProjectiveTransform(.translation(frame.origin.x, frame.origin.y)),
        fill: .color(color)))
  }
  let list = DisplayList(
    canvas: Size(428, 288),
    commands: [
      item(cardFrame, Color(white: 0.06)) { .roundedRect($0, radius: 20, style: .continuous) },
      item(dotFrame, Color(red: 0.184, green: 0.435, blue: 0.929)) { .ellipse(in: $0) },
    ])
  return try CairoRenderer().render(list, scale: 1, background: .white)
}

/// The card with a caption under it, drawn at 2×, as a filmstrip frame is.
private func captioned(_ caption: String) throws -> RasterImage {
  // Digits of one width, so the changed digit moves nothing else (Inter's default digits are
  // proportional, as SF's are).
  var run = TextRun(string: caption, size: 13, color: Color(white: 0.2))
  run.monospacedDigit = true
  let list = DisplayList(
    canvas: Size(428, 288),
    commands: [
      .item(
        DisplayItem(
          kind: .text, path: Path(), frame: Rect(x: 0, y: 0, width: 428, height: 30),
          transform: ProjectiveTransform(.translation(0, 240)),
          text: run))
    ])
  return try CairoRenderer().render(list, scale: 2, background: .white)
}

@Suite struct ImageComparisonTests {
  /// One digit of a caption changed is a few dozen pixels of a large frame,
  /// under the differing fraction; they touch, so the frame fails.
  @Test func aChangedDigitFailsThoughItIsATinyFraction() throws {
    let d = try #require(
      ImageComparison.compare(
        expected: try captioned("Current card is 1"), actual: try captioned("Current card is 2")))
    #expect(d.differingFraction <= ImageTolerance.standard.maxDifferingFraction, "\(d)")
    #expect(d.largestCluster > ImageTolerance.standard.maxClusterPixels, "\(d)")
    #expect(!ImageTolerance.standard.allows(d))
  }

  @Test func scatteredPixelsAreNotACluster() {
    // A checkerboard of every other row and column: no two marks touch.
    var mask = (0..<100).map { ($0 / 10) % 2 == 0 && $0 % 2 == 0 }
    #expect(ImageComparison.largestCluster(mask, width: 10) == 1)
    // (9, 1) touches (8, 0) and (8, 2), not (0, 2) at the next row's start.
    mask[19] = true
    #expect(ImageComparison.largestCluster(mask, width: 10) == 3)
    // (5, 5) joins its four diagonal neighbours.
    mask[55] = true
    #expect(ImageComparison.largestCluster(mask, width: 10) == 5)
  }

  @Test func reportsTheDifferenceAgainstTheTightBarAwayFromEdges() throws {
    var b = solid(10, 10, 100)
    b.pixels[0] = 140  // one pixel far off
    b.pixels[5] = 104  // one pixel within the bar
    let d = try #require(ImageComparison.compare(expected: solid(10, 10, 100), actual: b))
    #expect(d.maxChannelDelta == 40)
    #expect(d.differingPixels == 1)
    #expect(abs(d.meanDelta - 44.0 / 400) < 1e-12)
    #expect(d.differingFraction == 0.01)
    #expect(ImageComparison.compare(expected: solid(10, 10, 0), actual: solid(10, 9, 0)) == nil)
  }

  @Test func nearAnEdgeAPixelMayDifferMore() throws {
    // Left half black, right half white: the two columns at the seam are the edge.
    var expected = solid(8, 4, 255)
    for y in 0..<4 {
      for x in 0..<4 { for c in 0..<3 { expected.pixels[(y * 8 + x) * 4 + c] = 0 } }
    }
    var actual = expected
    // Anti-aliasing that moved: a grey column beside the seam, and one two
    // pixels off (within radius 1 of the edge column).
    for y in 0..<4 {
      for c in 0..<3 {
        actual.pixels[(y * 8 + 4) * 4 + c] = 150
        actual.pixels[(y * 8 + 5) * 4 + c] = 200
      }
    }
    let near = try #require(ImageComparison.compare(expected: expected, actual: actual))
    #expect(near.differingPixels == 0)
    // The same change far from the seam breaks the tight bar.
    for y in 0..<4 { for c in 0..<3 { actual.pixels[(y * 8 + 7) * 4 + c] = 200 } }
    let far = try #require(ImageComparison.compare(expected: expected, actual: actual))
    #expect(far.differingPixels == 4)
  }
}

@Suite struct GoldenTests {
  @Test func aStripSplitsBackIntoItsFrames() throws {
    let frames = (0..<5).map { solid(3, 2, UInt8(40 * $0)) }
    let strip = try Filmstrip.compose(frames, columns: 2)
    let layout = Filmstrip.Layout(count: 5, frameWidth: 3, frameHeight: 2, columns: 2)
    #expect(layout.width == strip.width && layout.height == strip.height)
    #expect((0..<5).map { Filmstrip.frame($0, of: strip, layout: layout) } == frames)
  }

  @Test func recordsComparesAndWritesTheActualImage() throws {
    let dir = scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("scene.png").path
    let image = solid(8, 8, 200)

    #expect(try Golden.assertImage(image, matches: path, record: false) == .missing(path: path))
    #expect(try Golden.assertImage(image, matches: path, record: true) == .recorded(path: path))
    #expect(try Golden.assertImage(image, matches: path, record: false).passed)

    let actualPath = dir.appendingPathComponent("scene.actual.png").path
    let result = try Golden.assertImage(solid(8, 8, 50), matches: path, record: true)
    #expect(!result.passed)
    guard case .differs(0, 1, let d, let written) = result else {
      Issue.record("expected .differs, got \(result)")
      return
    }
    #expect(written == actualPath && d.differingPixels == 64)
    #expect(
      try RasterImage.decodePNG([UInt8](Data(contentsOf: URL(fileURLWithPath: written))))
        == solid(8, 8, 50))
    #expect(!(try Golden.assertImage(solid(4, 4, 200), matches: path, record: false).passed))
    // A later match removes the stale actual image.
    #expect(try Golden.assertImage(image, matches: path, record: false).passed)
    #expect(!FileManager.default.fileExists(atPath: actualPath))
  }

  /// The case a whole-strip tolerance misses: one frame of five with its
  /// 40×40 accent 10 pt off. The strip as a whole differs by well under
  /// 0.2 %; frame by frame, that frame fails.
  @Test func anAccentShiftedInOneFrameFails() throws {
    let dir = scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("strip.png").path
    let good = try card()
    #expect(
      try Golden.assertFilmstrip(Array(repeating: good, count: 5), matches: path, record: true)
        .passed)

    var frames = Array(repeating: good, count: 5)
    frames[2] = try card(shift: 10)
    let wholeStrip = try #require(
      ImageComparison.compare(
        expected: try Filmstrip.compose(Array(repeating: good, count: 5)),
        actual: try Filmstrip.compose(frames),
        tolerance: ImageTolerance(edgeChannelDelta: 16, edgeRadius: 0)))
    #expect(wholeStrip.differingFraction < 0.002, "the old test would have passed")

    let result = try Golden.assertFilmstrip(frames, matches: path, record: false)
    guard case .differs(2, 5, let d, let actualPath) = result else {
      Issue.record("expected frame 3 to differ, got \(result)")
      return
    }
    #expect(d.differingPixels > 200, Comment(rawValue: d.description))
    #expect(actualPath == dir.appendingPathComponent("strip.actual.png").path)
    #expect(FileManager.default.fileExists(atPath: actualPath))
  }

  /// What the edge band is for: a sub-pixel move of every edge (another
  /// Cairo's anti-aliasing) passes.
  @Test func aSubPixelMovePasses() throws {
    let dir = scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("card.png").path
    #expect(try Golden.assertImage(try card(), matches: path, record: true).passed)
    let moved = try Golden.assertImage(try card(shift: 0.4, cardShift: 0.4), matches: path)
    #expect(moved.passed, Comment(rawValue: moved.description))
  }

  @Test func textIsComparedByteForByte() throws {
    let dir = scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("frame.txt").path
    #expect(try Golden.assertText("a\nb\n", matches: path, record: true) == .recorded(path: path))
    #expect(try Golden.assertText("a\nb\n", matches: path, record: false).passed)
    let result = try Golden.assertText("a\nc\n", matches: path, record: false)
    #expect(
      result
        == .textDiffers(line: 2, actualPath: dir.appendingPathComponent("frame.actual.txt").path))
  }
}
