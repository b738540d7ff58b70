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
