import Foundation
import MorphCore
import MorphExport
import Testing

/// Lottie exports of the drawing fixtures (images, masks, blurs) played in ThorVG against
/// the host's own frames; the plugins and examples play in every player in
/// `LottiePlayerTests`.
@Suite struct LottieThorVGTests {
  /// Every example in `Examples/plugins` (tests run from the package root), so a new
  /// one is checked without being listed.
  static let examples: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: "Examples/plugins")) ?? [])
    .filter { $0.hasSuffix(".lua") && !$0.hasSuffix(".test.lua") }.sorted()
    .map { "Examples/plugins/\($0)" }

  @Test func everyExampleIsListed() {
    #expect(Self.examples.count >= 7, "\(Self.examples)")
    #expect(Self.examples.contains("Examples/plugins/tab_bar.lua"))
  }

  /// Image nodes: a layer each over one embedded PNG asset per file, played in ThorVG.
  @Test func imagesAreEmbeddedAssets() throws {
    let fixture = "Tests/MorphHostTests/Fixtures/drawing/images.lua"
    let (animation, json) = try Self.written(fixture)
    let assets = try #require(json["assets"] as? [[String: Any]])
    let images = assets.filter { ($0["p"] as? String)?.hasPrefix("data:image/png;base64,") == true }
    #expect(images.count == 1)
    let layers = try #require(json["layers"] as? [[String: Any]])
    #expect(layers.count { $0["ty"] as? Int == 2 } == 5)
    #expect(animation.report.count(.dropped) == 0)
    // Three of the five sample nearest-neighbour (`interpolation = "none"`), which no
    // Lottie player does: the report says so, and their edges blur in ThorVG.
    #expect(animation.report.count(.approximated) == 3)
    let figures = try LottieVerification.verify(fixture, frames: 2)
    print(
      "lottie images: worst \(figures.worstFraction * 100)% off (rlottie "
        + "\(figures.rlottieWorstFraction * 100)%); \(figures.report.summary)")
    #expect(figures.worstFraction <= 0.08)
  }

  /// SwiftUI's `.mask`: the masked group's layer under an alpha track matte of the mask.
  @Test func masksAreTrackMattes() throws {
    let fixture = "Tests/MorphHostTests/Fixtures/drawing/effects.lua"
    let (animation, json) = try Self.written(fixture)
    // The masked-then-blurred one's matte is inside the blur's precomposition.
    let assets = try #require(json["assets"] as? [[String: Any]])
    let layerLists =
      [try #require(json["layers"] as? [[String: Any]])]
      + assets.compactMap { $0["layers"] as? [[String: Any]] }
    #expect(layerLists.joined().count { $0["td"] as? Int == 1 } == 3)
    // Each matte is listed just before (in front of) the layer it mattes.
    for layers in layerLists {
      for (n, layer) in layers.enumerated() where layer["td"] as? Int == 1 {
        #expect(layers[n + 1]["tt"] as? Int == 1)
      }
    }
    #expect(!animation.report.entries.contains { $0.mapping == .approximated })
    let figures = try LottieVerification.verify(fixture, frames: 2)
    print(
      "lottie effects (masks, blurs): worst \(figures.worstFraction * 100)% off (rlottie "
        + "\(figures.rlottieWorstFraction * 100)%); \(figures.report.summary)")
    // The mattes match; what differs (1.6 %) is the blurs, ThorVG's kernel against Cairo's.
    #expect(figures.worstFraction <= 0.02)
  }

  /// A fixture's first two frames written as Lottie, and the JSON read back.
  static func written(_ fixture: String) throws -> (LottieAnimation, [String: Any]) {
    let lists = try LottieVerification.frames(fixture, count: 2)
    let name = URL(fileURLWithPath: fixture).deletingPathExtension().lastPathComponent
    let animation = LottieWriter(fps: 30, name: name).write(lists)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(animation.json.utf8)) as? [String: Any])
    return (animation, json)
  }
}
