import MorphCore
import MorphRender
import Testing

/// Numbers a plugin may pass that Pango's 32-bit units cannot hold: measured
/// and drawn without trapping (found by the FuzzScene target).
@Suite struct TextExtremesTests {
  static let measure = PangoTextMeasure()

  static func run(tracking: Double = 0, lineSpacing: Double = 0) -> TextRun {
    var run = TextRun(string: "hi there\nyou", size: 17, color: .black)
    run.tracking = tracking
    run.lineSpacing = lineSpacing
    run.lineLimit = 2
    return run
  }

  @Test(arguments: [1e12, -1e12, 1e300, -1e300])
  func hugeTrackingMeasures(_ tracking: Double) {
    let metrics = Self.measure.measure(
      Self.run(tracking: tracking), in: ProposedSize(width: 200, height: nil))
    #expect(metrics.size.width.isFinite && metrics.size.height.isFinite)
  }

  @Test(arguments: [1e9, 1e300])
  func hugeLineSpacingMeasures(_ spacing: Double) {
    let offers = [ProposedSize(width: nil, height: nil), ProposedSize(width: 1e300, height: 1e300)]
    for offer in offers {
      let metrics = Self.measure.measure(Self.run(lineSpacing: spacing), in: offer)
      #expect(!metrics.size.width.isNaN && !metrics.size.height.isNaN)
    }
  }

  /// The estimate layout uses without a font: an unbounded, NaN or huge offer.
  @Test(arguments: [Double.infinity, -Double.infinity, Double.nan, 1e300, -5, 0])
  func theApproximateMeasureTakesAnyOffer(_ width: Double) {
    let metrics = ApproximateTextMeasure().measure(
      Self.run(), in: ProposedSize(width: width, height: nil))
    #expect(metrics.size.height > 0)
  }
}

/// Text layout is work the host does in C for a plugin: charged to the open `HostWork`, and
/// a wrap Pango would take seconds over is refused before Pango is asked.
@Suite struct TextWorkTests {
  static let measure = PangoTextMeasure()

  /// Measures `string` offered `width` inside a fresh `HostWork` of `seconds`.
  static func measured(_ string: String, width: Double?, seconds: Double = 60) -> (
    TextMetrics, HostWork.Stop?
  ) {
    let work = HostWork(seconds: seconds)
    let metrics = work.run {
      measure.measure(
        TextRun(string: string, size: 17, color: .black),
        in: ProposedSize(width: width, height: nil))
    }
    return (metrics, work.stop)
  }

  @Test func oneLongWordAtAHairsWidthIsRefused() {
    let (metrics, stop) = Self.measured(String(repeating: "W", count: 9999), width: 1)
    guard case .refused(let error)? = stop else {
      Issue.record("not refused: \(String(describing: stop))")
      return
    }
    #expect(error.message.hasPrefix("text of 9999 characters is too costly to wrap at width 1.0"))
    #expect(metrics == .zero)
  }

  /// What real text does stays within the budget: a long paragraph in a narrow column,
  /// CJK (a break between every ideograph), a long URL-like word in a phone-wide frame.
  @Test(arguments: [
    (String(repeating: "lorem ipsum dolor ", count: 550), 60.0),
    (String(repeating: "漢字かな", count: 2400), 100.0),
    (String(repeating: "a", count: 2000), 320.0),
  ])
  func realTextIsNotRefused(_ string: String, _ width: Double) {
    let (metrics, stop) = Self.measured(string, width: width)
    #expect(stop == nil)
    #expect(metrics.size.height > 17 * 10)
  }

  /// Past its time, the work does nothing more and says why; the layouts already made still
  /// answer (from the cache).
  @Test func pastItsTimeTheWorkStops() {
    let (_, stop) = Self.measured(
      "a fresh text \(UInt64.random(in: 0...UInt64.max))", width: nil, seconds: 0)
    #expect(stop == .time(seconds: 0))
    let work = HostWork(seconds: 0)
    #expect(
      work.frameError("laying out text")?.message
        == nil)
    _ = work.mayStart()
    #expect(
      work.frameError("laying out text")?.message
        == "frame exceeded its time budget (0 s per frame) laying out text")
  }

  /// Six hundred lines of the largest font: Pango's line positions pass Int32 (the sum used
  /// to trap the host).
  @Test func aTallLayoutOfTheLargestFontMeasures() {
    var run = TextRun(
      string: String(repeating: "a\n", count: 600), size: FrameBudget.standard.maxFontSize,
      color: .black)
    run.lineLimit = nil
    let metrics = Self.measure.measure(run, in: ProposedSize(width: nil, height: 1e6))
    #expect(metrics.size.height > 0 && metrics.size.height.isFinite)
  }

  /// Sizes too small for Pango's units (a denormal, minus zero) measure as nothing.
  @Test(arguments: [4.9e-324, -0.0, 1e-6])
  func sizesBelowOneUnitMeasureAsNothing(_ size: Double) {
    let metrics = Self.measure.measure(
      TextRun(string: "Hi", size: size, color: .black), in: ProposedSize(width: nil, height: nil))
    #expect(metrics == .zero)
  }
}
