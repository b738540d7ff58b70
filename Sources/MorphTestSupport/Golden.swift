import Foundation
import MorphRender

/// The outcome of comparing an image, filmstrip or text with its golden file.
public enum GoldenResult: Hashable, Sendable, CustomStringConvertible {
  /// Within tolerance (for a filmstrip: the frame that came closest to failing).
  case matched(ImageDifference)
  /// There was no golden; the actual image or text was written as the new one.
  case recorded(path: String)
  /// There is no golden and recording is off.
  case missing(path: String)
  /// Sizes differ; the actual image was written to `actualPath`.
  case sizeMismatch(expected: String, actual: String, actualPath: String)
  /// Frame `frame` (0-based) of `frames` differs beyond tolerance; the actual
  /// image was written to `actualPath`.
  case differs(frame: Int, frames: Int, ImageDifference, actualPath: String)
  /// A text golden differs from `line` on (1-based); the actual text is in `actualPath`.
  case textDiffers(line: Int, actualPath: String)

  /// True when a test should pass.
  public var passed: Bool {
    switch self {
    case .matched, .recorded: return true
    case .missing, .sizeMismatch, .differs, .textDiffers: return false
    }
  }

  public var description: String {
    switch self {
    case .matched(let d): return "matches its golden: \(d)"
    case .recorded(let path): return "recorded new golden \(path)"
    case .missing(let path):
      return "golden \(path) is missing; run with \(Golden.recordVariable)=1 to record it"
    case .sizeMismatch(let expected, let actual, let actualPath):
      return "size \(actual) differs from the golden's \(expected); actual image in \(actualPath)"
    case .differs(let frame, let frames, let d, let actualPath):
      let which = frames == 1 ? "" : "frame \(frame + 1) of \(frames) "
      return "\(which)differs from its golden: \(d); actual image in \(actualPath)"
    case .textDiffers(let line, let actualPath):
      return "text differs from its golden at line \(line); actual text in \(actualPath)"
    }
  }
}

/// Golden files for tests: PNGs and text in the source tree, found from
/// `#filePath`. A mismatch writes `NAME.actual.EXT` beside `NAME.EXT`; to
/// record a missing golden, run with `MORPH_RECORD_GOLDENS=1`.
public enum Golden {
  public static let recordVariable = "MORPH_RECORD_GOLDENS"

  /// True when the environment asks for missing goldens to be recorded.
  public static var recordFromEnvironment: Bool {
    ProcessInfo.processInfo.environment[recordVariable] == "1"
  }

  /// Where a mismatching file is written: `NAME.actual.EXT` beside `NAME.EXT`.
  public static func actualPath(for path: String) -> String {
    let url = URL(fileURLWithPath: path)
    let ext = url.pathExtension.isEmpty ? "png" : url.pathExtension
    let name = url.deletingPathExtension().lastPathComponent + ".actual." + ext
    return url.deletingLastPathComponent().appendingPathComponent(name).path
  }

  /// Compares text with the file at `path` byte for byte (text output is
  /// deterministic, so no tolerance).
  public static func assertText(
    _ actual: String, matches path: String, record: Bool = Golden.recordFromEnvironment
  ) throws -> GoldenResult {
    guard let data = FileManager.default.contents(atPath: path) else {
      return try recordOrMiss(Data(actual.utf8), at: path, record: record)
    }
    let expected = String(decoding: data, as: UTF8.self)
    let actualPath = actualPath(for: path)
    guard expected == actual else {
      try Data(actual.utf8).write(to: URL(fileURLWithPath: actualPath))
      let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
      let line =
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(a.count, b.count)
      return .textDiffers(line: line + 1, actualPath: actualPath)
    }
    try? FileManager.default.removeItem(atPath: actualPath)
    return .matched(.identical)
  }

  /// Compares one image with the PNG at `path` (a filmstrip of one frame).
  public static func assertImage(
    _ actual: RasterImage, matches path: String, tolerance: ImageTolerance = .standard,
    record: Bool = Golden.recordFromEnvironment
  ) throws -> GoldenResult {
    try assertFilmstrip([actual], matches: path, tolerance: tolerance, record: record)
  }

  /// Composes `frames` into a filmstrip (`Filmstrip.compose`) and compares it
  /// with the PNG at `path` frame by frame, so a mistake in one frame cannot
  /// hide in the average of all of them. Throws only when a file cannot be
  /// read, decoded or written; check `passed` on the result.
  public static func assertFilmstrip(
    _ frames: [RasterImage], matches path: String, columns: Int? = nil,
    tolerance: ImageTolerance = .standard, record: Bool = Golden.recordFromEnvironment
  ) throws -> GoldenResult {
    let strip = try Filmstrip.compose(frames, columns: columns)
    guard let data = FileManager.default.contents(atPath: path) else {
      return try recordOrMiss(Data(try strip.pngData()), at: path, record: record)
    }
    let expected = try RasterImage.decodePNG([UInt8](data))
    let actualPath = actualPath(for: path)
    guard expected.width == strip.width, expected.height == strip.height else {
      try strip.writePNG(to: actualPath)
      return .sizeMismatch(
        expected: "\(expected.width)×\(expected.height)",
        actual: "\(strip.width)×\(strip.height)", actualPath: actualPath)
    }
    let layout = Filmstrip.Layout(
      count: frames.count, frameWidth: frames[0].width, frameHeight: frames[0].height,
      columns: columns)
    var closest = ImageDifference.identical
    for (n, frame) in frames.enumerated() {
      let golden = Filmstrip.frame(n, of: expected, layout: layout)
      guard let d = ImageComparison.compare(expected: golden, actual: frame, tolerance: tolerance)
      else { continue }
      if !tolerance.allows(d) {
        try strip.writePNG(to: actualPath)
        return .differs(frame: n, frames: frames.count, d, actualPath: actualPath)
      }
      if d.differingPixels >= closest.differingPixels { closest = d }
    }
    // A stale image from an earlier failure would only mislead.
    try? FileManager.default.removeItem(atPath: actualPath)
    return .matched(closest)
  }

  private static func recordOrMiss(_ bytes: Data, at path: String, record: Bool) throws
    -> GoldenResult
  {
    guard record else { return .missing(path: path) }
    try FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(),
      withIntermediateDirectories: true)
    try bytes.write(to: URL(fileURLWithPath: path))
    return .recorded(path: path)
  }
}

extension Filmstrip {
  /// Frame `n` cut out of a strip laid out as `layout` says.
  public static func frame(_ n: Int, of strip: RasterImage, layout: Layout) -> RasterImage {
    let (x0, y0) = layout.origin(of: n)
    var pixels: [UInt8] = []
    pixels.reserveCapacity(layout.frameWidth * layout.frameHeight * 4)
    for y in y0..<(y0 + layout.frameHeight) {
      let start = (y * strip.width + x0) * 4
      pixels += strip.pixels[start..<(start + layout.frameWidth * 4)]
    }
    return RasterImage(width: layout.frameWidth, height: layout.frameHeight, pixels: pixels)
  }
}
