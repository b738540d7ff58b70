import Foundation
import MorphCore
import MorphExport
import MorphHost
import MorphRender
import MorphTestSupport

/// Reads Lottie files back with the Python helpers beside this file: the lottie-specs
/// schema, ThorVG, rlottie and lottie-web.
enum LottieVerification {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let helper = repository.appendingPathComponent("Tests/MorphExportTests/lottie_check.py")

  /// Runs the helper; returns its exit status and standard output.
  static func python(_ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", helper.path] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// A bundled plugin's file by name, or any other by its path in the repository
  /// (`Examples/plugins/spinner.lua`).
  static func pluginPath(_ plugin: String) -> String {
    repository.appendingPathComponent(plugin.contains("/") ? plugin : "Plugins/\(plugin).lua").path
  }

  /// The display lists of a plugin over its progress range.
  static func frames(_ plugin: String, count: Int) throws -> [DisplayList] {
    let document = try DocumentHost(path: pluginPath(plugin))
    let range = document.progressRange
    return try (0..<count).map { i in
      let p =
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(i) / Double(count - 1)
      return try document.frame(progress: p).list
    }
  }

  /// The display lists of a bundled plugin played from one tap, `fps` frames a second
  /// for `count` frames (export's `--duration` timeline).
  static func playedFrames(_ plugin: String, count: Int, fps: Double) throws -> [DisplayList] {
    let document = try DocumentHost(path: pluginPath(plugin))
    let host = try document.componentHost(for: "--duration")
    var player = ScriptPlayer(.defaultTap)
    return try (0..<count).map { i in
      try player.play(until: Double(i) / fps, on: host)
      return try host.frame().list
    }
  }

  static func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("lottie-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Schema errors (empty when the file validates).
  static func schemaErrors(_ file: URL) throws -> String? {
    let (status, out) = try python(["validate", file.path])
    return status == 0 ? nil : out
  }

  /// Every frame as ThorVG draws it, composited over white.
  static func thorvgFrames(_ file: URL, width: Int, height: Int) throws -> [RasterImage] {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (status, out) = try python(["render", file.path, folder.path, "\(width)", "\(height)"])
    guard status == 0, let count = Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw VerificationError("ThorVG could not render \(file.path): \(out)")
    }
    return try (0..<count).map { i in
      let data = try Data(
        contentsOf: folder.appendingPathComponent(String(format: "%04d.rgba", i)))
      return overWhite(RasterImage(width: width, height: height, pixels: Array(data)))
    }
  }

  /// Every frame as rlottie draws it (premultiplied BGRA), composited over white.
  static func rlottieFrames(_ file: URL, width: Int, height: Int) throws -> [RasterImage] {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (status, out) = try python(["rlottie", file.path, folder.path, "\(width)", "\(height)"])
    guard status == 0, let count = Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw VerificationError("rlottie could not render \(file.path): \(out)")
    }
    return try (0..<count).map { i in
      var pixels = [UInt8](
        try Data(contentsOf: folder.appendingPathComponent(String(format: "%04d.bgra", i))))
      for p in stride(from: 0, to: pixels.count, by: 4) {
        let clear = 255 - Int(pixels[p + 3])
        let (b, g, r) = (Int(pixels[p]), Int(pixels[p + 1]), Int(pixels[p + 2]))
        pixels[p] = UInt8(min(255, r + clear))
        pixels[p + 1] = UInt8(min(255, g + clear))
        pixels[p + 2] = UInt8(min(255, b + clear))
        pixels[p + 3] = 255
      }
      return RasterImage(width: width, height: height, pixels: pixels)
    }
  }

  static func overWhite(_ image: RasterImage) -> RasterImage {
    var pixels = image.pixels
    for p in stride(from: 0, to: pixels.count, by: 4) {
      let a = Double(pixels[p + 3]) / 255
      for c in 0..<3 {
        pixels[p + c] = UInt8((Double(pixels[p + c]) * a + 255 * (1 - a)).rounded())
      }
      pixels[p + 3] = 255
    }
    return RasterImage(width: image.width, height: image.height, pixels: pixels)
  }

  /// Every frame as lottie-web (its `renderer`, svg or canvas, in Debian's chromium) draws
  /// it, over white: on each frame's first visit (one load, the frames in order) and on a
  /// second pass.
  static func lottieWebFrames(_ file: URL, width: Int, height: Int, renderer: String = "svg")
    throws -> (first: [RasterImage], second: [RasterImage])
  {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (status, out) = try python([
      "web", file.path, folder.path, "\(width)", "\(height)", renderer,
    ])
    guard status == 0, let count = Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw VerificationError("lottie-web could not render \(file.path): \(out)")
    }
    func read(_ prefix: String) throws -> [RasterImage] {
      try (0..<count).map { i in
        let name = String(format: "%@%04d.png", prefix, i)
        let png = try Data(contentsOf: folder.appendingPathComponent(name))
        return try RasterImage.decodePNG([UInt8](png))
      }
    }
    return (try read("first-"), try read(""))
  }

  /// A plugin exported to Lottie (validated against the schema) beside the host's own
  /// frames over white.
  struct Export {
    var name: String
    var file: URL
    var animation: LottieAnimation
    var host: [RasterImage]
    var width: Int
    var height: Int
  }

  /// Exports `plugin` into `folder`: `count` frames over its progress range, or played
  /// from one tap at 30 frames a second.
  static func export(_ plugin: String, frames count: Int, played: Bool, into folder: URL) throws
    -> Export
  {
    let lists =
      played ? try playedFrames(plugin, count: count, fps: 30) : try frames(plugin, count: count)
    let animation = LottieWriter(fps: 30, name: plugin, textOutline: PangoTextMeasure.outline)
      .write(lists)
    let name = URL(fileURLWithPath: plugin).deletingPathExtension().lastPathComponent
    let file = folder.appendingPathComponent("\(name).json")
    try Data(animation.json.utf8).write(to: file)
    if let errors = try schemaErrors(file) {
      throw VerificationError("\(plugin): schema errors:\n\(errors)")
    }
    let renderer = CairoRenderer()
    let host = try lists.map { try renderer.render($0, background: .white) }
    return Export(
      name: name, file: file, animation: animation, host: host,
      width: Int(lists[0].canvas.width), height: Int(lists[0].canvas.height))
  }

  /// The frame a player draws furthest from the host's (the edge-tolerant comparison's
  /// fraction of pixels off), comparing the frames both have. With MORPH_LOTTIE_FRAMES
  /// set to a folder, every frame is written there as NAME-N-host.png and NAME-N-PLAYER.png.
  static func worstFrame(
    _ export: Export, _ frames: [RasterImage], player: String
  ) throws -> (fraction: Double, frame: Int) {
    var worst = (fraction: 0.0, frame: 0)
    for (i, (host, played)) in zip(export.host, frames).enumerated() {
      let fraction = ImageComparison.compare(expected: host, actual: played)!.differingFraction
      if fraction > worst.fraction { worst = (fraction, i) }
      if let keep = ProcessInfo.processInfo.environment["MORPH_LOTTIE_FRAMES"] {
        let folder = URL(fileURLWithPath: keep)
        try Data(try host.pngData()).write(
          to: folder.appendingPathComponent("\(export.name)-\(i)-host.png"))
        try Data(try played.pngData()).write(
          to: folder.appendingPathComponent("\(export.name)-\(i)-\(player).png"))
      }
    }
    return worst
  }

  struct Figures {
    var frames: Int
    var worstFraction: Double
    var worstFrame: Int
    /// The worst frame in rlottie, which draws no effects (shadows, blurs).
    var rlottieWorstFraction: Double
    var bytes: Int
    var report: LottieFidelityReport
  }

  /// Exports `plugin`, validates it, plays it in ThorVG and rlottie and compares every
  /// frame with the host's own (both over white).
  static func verify(_ plugin: String, frames count: Int = 24, played: Bool = false) throws
    -> Figures
  {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let export = try export(plugin, frames: count, played: played, into: folder)
    let thorvg = try thorvgFrames(export.file, width: export.width, height: export.height)
    guard thorvg.count == export.host.count else {
      throw VerificationError(
        "\(plugin): ThorVG played \(thorvg.count) frames of \(export.host.count)")
    }
    let rlottie = try rlottieFrames(export.file, width: export.width, height: export.height)
    let worst = try worstFrame(export, thorvg, player: "thorvg")
    return Figures(
      frames: count, worstFraction: worst.fraction, worstFrame: worst.frame,
      rlottieWorstFraction: try worstFrame(export, rlottie, player: "rlottie").fraction,
      bytes: export.animation.json.utf8.count, report: export.animation.report)
  }

  /// Whether lottie-web can run: Debian's chromium, Playwright and PyPI's pylottie (which
  /// carries the player).
  static var lottieWebAvailable: Bool {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else { return false }
    let probe = try? python(["has-web"])
    return probe?.0 == 0
  }
}

struct VerificationError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
