import Foundation
import MorphRender
import MorphTestSupport
import Testing

/// `run --graphics kitty|iterm|sixel` in a pipe writes the escapes the live
/// view writes, one image a frame; decoded as a terminal would, the last one
/// is `render --time 5` at the same scale.
@Suite struct TerminalImageTests {
  static let flip = Subprocess.repository.appendingPathComponent("Plugins/flip.lua").path

  @Test(arguments: [
    (GraphicsProtocol.kitty, 0.99), (GraphicsProtocol.iterm, 0.99), (GraphicsProtocol.sixel, 0.95),
  ])
  func pipedRunWritesOneImageAFrameEndingOnTheSettledFrame(
    graphics: GraphicsProtocol, share: Double
  ) throws {
    let run = try Subprocess.run([
      "run", Self.flip, "--input", "tap", "--graphics", graphics.rawValue, "--scale", "2",
    ])
    #expect(run.status == 0, "\(run.err)")
    #expect(run.out.contains("settled at t="))
    let frames = run.out.split(separator: "\n").filter { $0.hasPrefix("t=") }.count
    let images = try TerminalImages.decode(run.out, as: graphics)
    #expect(frames > 1)
    #expect(images.count >= frames)
    let expected = try rendered(["--input", "tap", "--time", "5", "--scale", "2"])
    let last = try #require(images.last)
    #expect(last.width == expected.width && last.height == expected.height)
    guard last.width == expected.width, last.height == expected.height else { return }
    let close = Self.shareWithin(32, last, expected)
    #expect(close > share, "\(graphics): \(close) of pixels within 32 levels")
    // And the picture moved: the first frame is not the last.
    #expect(Self.shareWithin(32, images[0], last) < 0.99)
  }

  @Test func anUnknownGraphicsModeListsTheValidOnes() throws {
    let run = try Subprocess.run(["run", Self.flip, "--graphics", "png"])
    #expect(run.status == 2)
    #expect(run.err.contains("kitty, iterm, sixel, blocks"))
  }

  /// `render PLUGIN ARGUMENTS` as a PNG, decoded.
  func rendered(_ arguments: [String]) throws -> RasterImage {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "expected-\(UUID()).png")
    defer { try? FileManager.default.removeItem(at: file) }
    let render = try Subprocess.run(["render", Self.flip] + arguments + ["-o", file.path])
    #expect(render.status == 0, "\(render.err)")
    return try RasterImage.decodePNG(Array(try Data(contentsOf: file)))
  }

  /// The share of pixels whose every channel is within `levels` of the other image's.
  static func shareWithin(_ levels: Int, _ a: RasterImage, _ b: RasterImage) -> Double {
    guard a.width == b.width, a.height == b.height else { return 0 }
    var close = 0
    for i in 0..<(a.width * a.height) {
      let near = (0..<3).allSatisfy {
        abs(Int(a.pixels[4 * i + $0]) - Int(b.pixels[4 * i + $0])) <= levels
      }
      if near { close += 1 }
    }
    return Double(close) / Double(a.width * a.height)
  }
}
