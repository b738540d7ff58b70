import Testing

@testable import MorphRender

/// Wide blurs run on a reduced plane; the result must stay within a fraction of
/// a level of the full-size blur.
@Suite struct AlphaBlurTests {
  /// A card-like plane: a filled rectangle with a soft diagonal edge, margins all round.
  static func plane(width: Int, height: Int, margin: Int) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height)
    for y in margin..<(height - margin) {
      for x in margin..<(width - margin) {
        let edge = Double(x + y - 2 * margin) / 3
        pixels[y * width + x] = UInt8(min(255, max(0, edge * 255)))
      }
    }
    return pixels
  }

  static func blurred(_ source: [UInt8], width: Int, sigma: Double, reduced: Bool) -> [UInt8] {
    var pixels = source
    var blur = AlphaBlur()
    pixels.withUnsafeMutableBufferPointer {
      blur.blur(
        $0.baseAddress!, width: width, height: source.count / width, stride: width, sigma: sigma,
        reduced: reduced)
    }
    return pixels
  }

  @Test(arguments: [10.0, 12.0, 17.5, 24.0, 36.0, 64.0])
  func reducedBlurMatchesTheFullOne(sigma: Double) {
    let margin = Int(3 * sigma) + 1
    let (width, height) = (2 * margin + 97, 2 * margin + 61)
    let source = Self.plane(width: width, height: height, margin: margin)
    let full = Self.blurred(source, width: width, sigma: sigma, reduced: false)
    let fast = Self.blurred(source, width: width, sigma: sigma, reduced: true)
    #expect(AlphaBlur.reduction(sigma: sigma) > 1)
    let differences = zip(full, fast).map { abs(Int($0) - Int($1)) }
    let mean = Double(differences.reduce(0, +)) / Double(differences.count)
    #expect(mean <= 0.12, "mean difference \(mean) levels at σ \(sigma)")
    #expect(differences.max()! <= 3, "largest difference at σ \(sigma)")
  }

  @Test func narrowBlursAreNotReduced() {
    #expect(AlphaBlur.reduction(sigma: 1.5) == 1)
    #expect(AlphaBlur.reduction(sigma: 9.9) == 1)
  }
}
