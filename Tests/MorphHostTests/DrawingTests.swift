import Foundation
import MorphCore
import MorphRender
import MorphScript
import MorphTestSupport
import Testing

@testable import MorphHost

/// The drawing scenes in `Fixtures/drawing`, rendered through the whole stack (Lua, the
/// reader, layout, Cairo) at scale 2 and compared with their goldens.
@Suite struct DrawingGoldenTests {
  static func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/drawing/\(name)").path
  }

  @Test(arguments: ["gradients", "effects", "images", "custom_shape"])
  func scene(_ name: String) throws {
    let document = try DocumentHost(path: Self.fixture("\(name).lua"))
    let image = try CairoRenderer().render(try document.frame().list, scale: 2, background: .white)
    let result = try Golden.assertImage(image, matches: goldenPath("drawing-\(name)@2x.png"))
    #expect(result.passed, Comment(rawValue: result.description))
  }
}

/// Writes plugins and images into a scratch folder, for the tests that change them.
struct ScratchFolder {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("drawing-\(UUID())")

  init() throws {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
  }

  /// A PNG of one colour.
  func writePNG(_ name: String, width: Int, height: Int, _ rgba: [UInt8]) throws {
    let pixels = (0..<(width * height)).flatMap { _ in rgba }
    try RasterImage(width: width, height: height, pixels: pixels).writePNG(to: path(name))
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite(.serialized) struct ImageTests {
  static let plugin = """
    return morph.component {
      size = { 40, 40 },
      body = function() return morph.image("dot.png", { resizable = true }):id("dot") end,
    }
    """

  @Test func imagesAreDecodedOnceReloadedWhenSavedAndWatched() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    try folder.writePNG("dot.png", width: 4, height: 4, [255, 0, 0, 255])
    try folder.write("plugin.lua", Self.plugin)
    let host = ComponentHost(component: try ComponentInstance(path: folder.path("plugin.lua")))
    let renderer = CairoRenderer()
    let firstFrame = try host.frame()
    guard case .image(let firstPaint)? = try item(firstFrame, "dot").fill else {
      Issue.record("no image paint")
      return
    }
    // Counted for this file only: other tests decode images meanwhile.
    func decodes() -> Int { ImageCache.shared.decodeCount(ofPath: firstPaint.source.path) }
    let before = decodes()
    let first = try host.image(firstFrame, renderer: renderer)
    #expect(first.pixel(x: 44, y: 44) == (255, 0, 0, 255))
    _ = try host.image(try host.frame(), renderer: renderer)
    #expect(decodes() == before + 1, "decoded once for two frames")
    #expect(host.watchedFiles.contains(folder.path("dot.png")))
    // Saving the image (another size, so another version whatever the clock says) and
    // the reload the file watcher triggers draw the new pixels.
    try folder.writePNG("dot.png", width: 2, height: 2, [0, 0, 255, 255])
    try host.reload(source: Self.plugin)
    let frame = try host.frame()
    guard case .image(let paint)? = try item(frame, "dot").fill else {
      Issue.record("no image paint")
      return
    }
    #expect(paint.source.pixelWidth == 2)
    #expect(try host.image(frame, renderer: renderer).pixel(x: 44, y: 44) == (0, 0, 255, 255))
    #expect(paint.source.path == firstPaint.source.path)
    #expect(decodes() == before + 2)
  }

  /// One clear line at the plugin's line for each way an image name can be wrong.
  @Test func badImagesAreOneErrorAtThePluginsLine() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let outside = try ScratchFolder()
    defer { outside.remove() }
    try outside.writePNG("secret.png", width: 1, height: 1, [0, 0, 0, 255])
    try FileManager.default.createSymbolicLink(
      atPath: folder.path("link.png"), withDestinationPath: outside.path("secret.png"))
    try folder.write("text.png", "not a png at all, but long enough to have a header")
    let cases: [(String, String)] = [
      ("missing.png", "no image 'missing.png' in the plugin's folder"),
      ("../secret.png", "'../secret.png' must be a path inside the plugin's folder"),
      (outside.path("secret.png"), "must be a path inside the plugin's folder"),
      ("link.png", "'link.png' leads outside the plugin's folder"),
      ("text.png", "'text.png' is not a PNG file"),
      ("a\\nb.png", "an image name may not contain control characters"),
    ]
    for (name, message) in cases {
      try folder.write(
        "plugin.lua",
        "return morph.component {\n body = function()\n local n = morph.image('\(name)')\n return n end }"
      )
      let error = #expect(throws: ScriptError.self) {
        _ = try ComponentHost(component: ComponentInstance(path: folder.path("plugin.lua")))
          .frame()
      }
      #expect(error?.message.hasPrefix("bad argument #1 to 'image' (") == true, "\(name)")
      #expect(error?.message.contains(message) == true, "\(name): \(String(describing: error))")
      #expect(error?.line == 3, "\(name)")
    }
  }
}

extension ImageTests {
  /// CRC-32 as PNG uses it, to rewrite a chunk's after changing its data.
  static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  /// A PNG broken after it was written is refused by `morph.image` at the plugin's line
  /// with its cause, before the render layer hands it to Cairo (which said `out of
  /// memory`); the good file beside it still draws.
  @Test func brokenPNGsAreRefusedWithTheirCause() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    try folder.writePNG("good.png", width: 3, height: 2, [0, 128, 255, 255])
    let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("good.png"))))
    var badCRC = good
    badCRC[good.count - 13] ^= 0x40  // the last byte of IDAT's CRC, before IEND
    var depth7 = good
    depth7[24] = 7
    let crc = Self.crc32(depth7[12..<29])
    depth7.replaceSubrange(29..<33, with: (0..<4).map { UInt8(crc >> (24 - 8 * $0) & 255) })
    let cases: [(String, [UInt8], String)] = [
      ("crc.png", badCRC, "'crc.png' is not a valid PNG: bad CRC in chunk IDAT"),
      ("depth.png", depth7, "'depth.png' is not a valid PNG: unsupported bit depth 7"),
      ("cut.png", Array(good.dropLast(20)), "'cut.png' is not a valid PNG: truncated file"),
    ]
    for (name, bytes, message) in cases {
      try Data(bytes).write(to: URL(fileURLWithPath: folder.path(name)))
      try folder.write(
        "plugin.lua",
        "return morph.component {\n body = function()\n local n = morph.image('\(name)')\n return n end }"
      )
      let error = #expect(throws: ScriptError.self) {
        _ = try ComponentHost(component: ComponentInstance(path: folder.path("plugin.lua")))
          .frame()
      }
      #expect(error?.message == "bad argument #1 to 'image' (\(message))", "\(name)")
      #expect(error?.line == 3, "\(name)")
    }
    try folder.write(
      "plugin.lua",
      "return morph.component { size = { 6, 4 }, body = function() return morph.image('good.png') end }"
    )
    let host = ComponentHost(component: try ComponentInstance(path: folder.path("plugin.lua")))
    let image = try host.image(try host.frame(), renderer: CairoRenderer())
    #expect(image.width > 0)
  }

  /// An image in a frame so small (or large) that its pixels per point overflow draws
  /// nothing, not Cairo's `invalid matrix` for the whole frame.
  @Test func imagesInDegenerateFramesDrawNothing() throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    try folder.writePNG("dot.png", width: 4, height: 4, [255, 0, 0, 255])
    for frame in ["4.9e-324, 4.9e-324", "4.9e-324, 10", "1e300, 1e300", "1e-300, 1e300"] {
      try folder.write(
        "plugin.lua",
        """
        return morph.component { size = { 40, 40 }, body = function()
          return morph.image('dot.png', { resizable = true }):frame(\(frame)) end }
        """)
      let host = ComponentHost(component: try ComponentInstance(path: folder.path("plugin.lua")))
      #expect(throws: Never.self, "frame(\(frame))") {
        _ = try host.image(try host.frame(), renderer: CairoRenderer())
      }
    }
  }
}

/// Blur, custom shapes and gradient stops given what no plugin should give.
@Suite struct DrawingInputTests {
  func scene(_ body: String) throws -> (ScratchFolder, DocumentHost) {
    let folder = try ScratchFolder()
    try folder.write("scene.lua", "local m = morph\nreturn { size = {100, 100}, body =\n\(body)\n}")
    return (folder, try DocumentHost(path: folder.path("scene.lua")))
  }

  func error(_ body: String) -> (any Error)? {
    do {
      let (folder, document) = try scene(body)
      defer { folder.remove() }
      let list = try document.frame().list
      _ = try CairoRenderer().render(list, scale: 2)
      return nil
    } catch {
      return error
    }
  }

  @Test func aHugeBlurIsOneBudgetErrorAtOnce() throws {
    let start = Date()
    let failure = error("m.rect():frame(50, 50):blur(1e9)")
    #expect(
      "\(String(describing: failure))".contains(
        "frame's shadows and blurs blur more than 32 Mpx (the frame budget); the one that went over has radius 1000000000.0"
      ))
    #expect(Date().timeIntervalSince(start) < 60, "refused before blurring")
    // A blur that fits draws.
    #expect(error("m.rect():frame(50, 50):blur(20)") == nil)
  }

  @Test func aNaNBlurIsRefusedAtThePluginsLine() throws {
    let failure = try #require(error("m.rect():blur(0/0)") as? ScriptError)
    #expect(failure.line == 3)
    #expect(failure.message == "bad argument #1 to 'blur' (number expected, got nan)")
    let negative = try #require(error("m.rect():blur(-1)") as? ScriptError)
    #expect(negative.message == "bad argument #1 to 'blur' (radius must be >= 0, got -1)")
  }

  @Test func pathFunctionsThatReturnNoPathFailAtTheirShape() throws {
    for (result, got) in [("nil", "nothing"), ("42", "number, not a morph.Path")] {
      let failure = try #require(
        error("m.hstack {\n m.shape(function(r) return \(result) end) }") as? SceneError)
      #expect(failure.location?.line == 4, "\(result)")
      #expect(failure.message == "path function returned \(got)", "\(result)")
      #expect(failure.location?.file.hasSuffix("scene.lua") == true)
    }
    // An error inside the function is its own, at its own line.
    let inner = try #require(error("m.shape(function(r)\n return r.nope + 1 end)") as? SceneError)
    #expect(inner.location?.line == 4)
    #expect(inner.message.contains("attempt to perform arithmetic on a nil value"))
  }

  @Test func wrongGradientStopsAreOneError() throws {
    let cases: [(String, String)] = [
      ("stops = {{'red', 1.5}}", "stop 1's location must be in 0...1, got 1.5"),
      ("stops = {5}", "stop 1 must be {colour, location}, got number"),
      ("stops = {{'red'}}", "number expected, got nil"),
      ("stops = {}", "'colors' or 'stops' with at least one colour expected"),
      (
        "colors = {morph.linearGradient{colors = {'red'}}}",
        "option 'colors': colour expected, got morph.Gradient"
      ),
      ("colors = {'red'}", "option 'endRadius': number expected, got nil"),
    ]
    for (options, message) in cases {
      let failure = try #require(
        error("m.rect():fill(m.radialGradient{ \(options) })") as? ScriptError, "\(options)")
      #expect(failure.message.contains(message), "\(options): \(failure.message)")
      #expect(failure.message.hasPrefix("bad argument #1 to 'radialGradient'"), "\(options)")
      #expect(failure.line == 3, "\(options)")
    }
  }
}
