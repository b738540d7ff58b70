import Foundation
import MorphCore
import MorphRender
import Testing

/// An opaque grey image.
private func solid(_ width: Int, _ height: Int, _ value: UInt8) -> RasterImage {
  RasterImage(
    width: width, height: height,
    pixels: (0..<width * height).flatMap { _ in [value, value, value, 255] })
}

@Test func compareReportsTheDifference() throws {
  var b = solid(10, 10, 100)
  b.pixels[0] = 140  // one pixel far off
  b.pixels[5] = 104  // one pixel within the threshold
  let d = try #require(compare(solid(10, 10, 100), b, channelThreshold: 8))
  #expect(d.maxChannelDelta == 40)
  #expect(d.differingPixels == 1)
  #expect(abs(d.meanDelta - 44.0 / 400) < 1e-12)
  #expect(d.differingFraction == 0.01)
  #expect(compare(solid(10, 10, 0), solid(10, 9, 0)) == nil)
}

@Test func goldenRecordsComparesAndWritesTheActualImage() throws {
  let dir = FileManager.default.temporaryDirectory
    .appendingPathComponent("morph-golden-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: dir) }
  let path = dir.appendingPathComponent("scene.png").path
  let image = solid(8, 8, 200)

  #expect(try Golden.assertImage(image, matches: path, record: false) == .missing(path: path))
  #expect(try Golden.assertImage(image, matches: path, record: true) == .recorded(path: path))
  #expect(try Golden.assertImage(image, matches: path, record: false).passed)

  let actualPath = dir.appendingPathComponent("scene.actual.png").path
  let result = try Golden.assertImage(solid(8, 8, 50), matches: path, record: true)
  #expect(!result.passed)
  guard case .differs(let d, _, let written) = result else {
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
