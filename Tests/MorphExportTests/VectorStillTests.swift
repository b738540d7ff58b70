import Foundation
import MorphCore
import MorphRender
import Testing

@testable import MorphExport

/// SVG and PDF stills read back by programs that are not ours (librsvg's `rsvg-convert`,
/// poppler's `pdftoppm`) at the PNG's pixel size and compared with the PNG render within
/// the PNG goldens' tolerance, text included: the raster fills the same glyph outlines the
/// SVG and PDF hold (`TextEngine`), so no glyph lands elsewhere by a fraction of a pixel.
@Suite struct VectorStillTests {
  static let repository = ExporterTests.repository

  /// Each bundled plugin at a few points of its progress range.
  static let cases: [(plugin: String, progress: [Double])] = [
    ("deck_fan", [0, 0.4, 1]), ("card_stack", [0, 1.5, 5]), ("flip", [0, 0.3, 0.5]),
    ("ticket_tear", [0, 0.6, 1]),
  ]

  /// A scene that is mostly text: sizes, weights, italics, CJK and a rotated line.
  static let textScene = """
    local m = morph
    return {
      name = "Text sheet",
      size = { 360, 260 },
      body = m.vstack({
        m.text("Vector stills", { size = 28, weight = "bold", color = "#14161C" }),
        m.text("Glyphs drawn as outlines, no fonts needed.", { size = 15, color = "#3A3F4A" }),
        m.text("Light 13 pt italic, tabular 0123456789", { size = 13, weight = "light",
          italic = true, color = "#2F6FED" }),
        m.text("日本語 中文", { size = 17, color = "#14161C" }),
        m.text("Rotated", { size = 20, weight = "semibold", color = "#D9480F" }):rotate(-8),
      }, { spacing = 10 }),
    }
    """

  static func scratch() throws -> URL { try ExporterTests.scratch() }

  /// Read-backs of one moment: the PNG render, and its SVG and PDF drawn at the PNG's size
  /// by librsvg, poppler through Cairo (`pdftocairo`) and poppler's own Splash (`pdftoppm`).
  struct Renders {
    var png: RasterImage
    var svg: RasterImage
    var pdf: RasterImage
    var splash: RasterImage
    var svgText: String
  }

  /// Every document unit is one PNG pixel, so the PDF is read at 72 dpi.
  static func renders(_ exporter: Exporter, at moment: FrameMoment, in dir: URL) throws -> Renders {
    let png = try exporter.writeFrame(to: dir.appendingPathComponent("f.png"), at: moment)
    let svg = dir.appendingPathComponent("f.svg")
    let pdf = dir.appendingPathComponent("f.pdf")
    try exporter.writeVectorFrame(to: svg, at: moment, format: .svg)
    try exporter.writeVectorFrame(to: pdf, at: moment, format: .pdf)
    let (w, h) = ("\(png.width)", "\(png.height)")
    let svgPNG = dir.appendingPathComponent("svg.png")
    _ = try Probe.run("rsvg-convert", ["-w", w, "-h", h, "-o", svgPNG.path, svg.path])
    for tool in ["pdftocairo", "pdftoppm"] {
      _ = try Probe.run(
        tool, ["-png", "-singlefile", "-r", "72", pdf.path, dir.appendingPathComponent(tool).path])
    }
    func decode(_ name: String) throws -> RasterImage {
      try RasterImage.decodePNG([UInt8](try Data(contentsOf: dir.appendingPathComponent(name))))
    }
    return Renders(
      png: png, svg: try decode("svg.png"), pdf: try decode("pdftocairo.png"),
      splash: try decode("pdftoppm.png"), svgText: try String(contentsOf: svg, encoding: .utf8))
  }

  /// Poppler's Splash rasteriser antialiases edges its own way (a level or two of coverage
  /// along every edge), so only gross differences count.
  static let splashTolerance = ImageTolerance(maxDifferingFraction: 0.01, maxClusterPixels: 400)

  static func expectClose(
    _ expected: RasterImage, _ actual: RasterImage, _ what: String,
    tolerance: ImageTolerance = .standard
  ) {
    guard let d = ImageComparison.compare(expected: expected, actual: actual, tolerance: tolerance)
    else {
      Issue.record("\(what): read back at \(actual.width)×\(actual.height), not the PNG's size")
      return
    }
    print("vector still \(what): \(d)")
    #expect(tolerance.allows(d), "\(what): \(d)")
  }

  static func expectClose(_ r: Renders, _ what: String) {
    expectClose(r.png, r.svg, "\(what) as SVG")
    expectClose(r.png, r.pdf, "\(what) as PDF")
    expectClose(r.png, r.splash, "\(what) as PDF in Splash", tolerance: splashTolerance)
  }

  @Test(arguments: cases.map(\.plugin))
  func readsBackAsThePNG(plugin: String) throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let exporter = Exporter(
      plugin: Self.repository.appendingPathComponent("Plugins/\(plugin).lua").path)
    for progress in Self.cases.first(where: { $0.plugin == plugin })!.progress {
      let r = try Self.renders(exporter, at: .progress(progress), in: dir)
      Self.expectClose(r, "\(plugin) at \(progress)")
    }
  }

  @Test func textReadsBackAsThePNGAndNeedsNoFonts() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = dir.appendingPathComponent("text.lua")
    try Self.textScene.write(to: scene, atomically: true, encoding: .utf8)
    let exporter = Exporter(plugin: scene.path, scale: 2)
    let r = try Self.renders(exporter, at: .initial, in: dir)
    Self.expectClose(r, "text sheet")
    // Text is outlines: the PDF lists no font, the SVG has no text element or image.
    let fonts = try Probe.run("pdffonts", [dir.appendingPathComponent("f.pdf").path])
    #expect(fonts.split(separator: "\n").count == 2, "pdffonts lists only its header: \(fonts)")
    #expect(!r.svgText.contains("<text") && !r.svgText.contains("<image"))
    #expect(!r.svgText.contains("font-family"))
  }

  /// A plugin without images, shadows or blurs stays wholly vector.
  @Test func aPluginWithoutImagesEmbedsNone() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let exporter = Exporter(
      plugin: Self.repository.appendingPathComponent("Plugins/card_stack.lua").path)
    let r = try Self.renders(exporter, at: .progress(1.5), in: dir)
    #expect(r.svgText.contains("<path"))
    #expect(!r.svgText.contains("<image"))
    let pdf = try Data(contentsOf: dir.appendingPathComponent("f.pdf"))
    #expect(!pdf.contains(Data("/Subtype /Image".utf8)))
  }

  @Test func badPathsLeaveNothingBehind() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let exporter = Exporter(
      plugin: Self.repository.appendingPathComponent("Plugins/flip.lua").path)
    let missing = dir.appendingPathComponent("no/such/folder/f.svg")
    #expect(throws: ExportError.self) {
      try exporter.writeVectorFrame(to: missing, at: .initial, format: .svg)
    }
    #expect(throws: ExportError.self) {
      try exporter.writeVectorFrame(
        to: URL(fileURLWithPath: "/dev/null"), at: .initial, format: .pdf)
    }
    #expect(try ExporterTests.contents(dir).isEmpty)
  }
}
