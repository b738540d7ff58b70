import Foundation

/// The outcome of comparing an image with its golden file.
public enum GoldenResult: Hashable, Sendable, CustomStringConvertible {
  /// Within tolerance.
  case matched(ImageDifference)
  /// There was no golden; the image was written as the new one.
  case recorded(path: String)
  /// There is no golden and recording is off.
  case missing(path: String)
  /// Sizes differ; the actual image was written to `actualPath`.
  case sizeMismatch(expected: String, actual: String, actualPath: String)
  /// Too many pixels differ; the actual image was written to `actualPath`.
  case differs(ImageDifference, allowedFraction: Double, actualPath: String)
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
    case .differs(let d, let allowed, let actualPath):
      return "differs from its golden beyond \(allowed * 100)% of pixels: \(d); "
        + "actual image in \(actualPath)"
    case .textDiffers(let line, let actualPath):
      return "text differs from its golden at line \(line); actual text in \(actualPath)"
    }
  }
}

/// Golden-image checks for tests. Goldens are PNGs in the source tree; a test finds them
/// from `#filePath`. To re-record one, delete it and run with `MORPH_RECORD_GOLDENS=1`.
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
  /// deterministic, so no tolerance); records or writes `NAME.actual.EXT` like images.
  public static func assertText(
    _ actual: String, matches path: String, record: Bool = Golden.recordFromEnvironment
  ) throws -> GoldenResult {
    let files = FileManager.default
    let actualPath = actualPath(for: path)
    guard let data = files.contents(atPath: path) else {
      guard record else { return .missing(path: path) }
      try files.createDirectory(
        at: URL(fileURLWithPath: path).deletingLastPathComponent(),
        withIntermediateDirectories: true)
      try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
      return .recorded(path: path)
    }
    let expected = String(decoding: data, as: UTF8.self)
    guard expected == actual else {
      try Data(actual.utf8).write(to: URL(fileURLWithPath: actualPath))
      let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
      let line =
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(a.count, b.count)
      return .textDiffers(line: line + 1, actualPath: actualPath)
    }
    try? files.removeItem(atPath: actualPath)
    return .matched(
      ImageDifference(maxChannelDelta: 0, meanDelta: 0, differingPixels: 0, pixelCount: 0))
  }

  /// Compares `actual` with the PNG at `path`. Throws only when a file cannot be read,
  /// decoded or written; check `passed` on the result (its description says why).
  public static func assertImage(
    _ actual: RasterImage, matches path: String, maxDifferingFraction: Double = 0.002,
    channelThreshold: Int = 16, record: Bool = Golden.recordFromEnvironment
  ) throws -> GoldenResult {
    let files = FileManager.default
    guard let data = files.contents(atPath: path) else {
      guard record else { return .missing(path: path) }
      try files.createDirectory(
        at: URL(fileURLWithPath: path).deletingLastPathComponent(),
        withIntermediateDirectories: true)
      try actual.writePNG(to: path)
      return .recorded(path: path)
    }
    let expected = try RasterImage.decodePNG([UInt8](data))
    let actualPath = actualPath(for: path)
    guard let difference = compare(expected, actual, channelThreshold: channelThreshold) else {
      try actual.writePNG(to: actualPath)
      return .sizeMismatch(
        expected: "\(expected.width)×\(expected.height)",
        actual: "\(actual.width)×\(actual.height)", actualPath: actualPath)
    }
    guard difference.differingFraction <= maxDifferingFraction else {
      try actual.writePNG(to: actualPath)
      return .differs(difference, allowedFraction: maxDifferingFraction, actualPath: actualPath)
    }
    // A stale image from an earlier failure would only mislead.
    try? files.removeItem(atPath: actualPath)
    return .matched(difference)
  }
}
