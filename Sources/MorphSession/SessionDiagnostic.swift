import Foundation
import MorphCore
import MorphScript

/// An error as every front end shows it: one line (`file:line: message`, or the
/// message alone), the offending line of source where there is one, and the
/// plugin's traceback. The terminal and the browser show the same text.
public struct SessionDiagnostic: Diagnostic, Equatable, Sendable {
  public var message: String
  public var location: FilePosition?
  /// The text of the line `location` points at.
  public var source: String?
  public var traceback: String?
  /// The lines around `location`'s, for a code frame: the first one's number and the lines.
  public var context: (first: Int, lines: [String])?

  /// `error` as the front ends show it; the source line comes from `sources`, which reads
  /// each version of a file once.
  public init(_ error: any Error, sources: SourceLines = .shared) {
    let diagnostic = error as? any Diagnostic
    message = diagnostic?.message ?? "\(error)"
    location = diagnostic?.location
    traceback = diagnostic?.traceback
    source = location.flatMap(sources.line)
    context = location.flatMap { sources.lines(around: $0, radius: Self.contextRadius) }
  }

  /// Lines shown above and below the broken one.
  public static let contextRadius = 3

  public static func == (a: Self, b: Self) -> Bool {
    a.message == b.message && a.location == b.location && a.source == b.source
      && a.traceback == b.traceback && a.context?.first == b.context?.first
      && a.context?.lines == b.context?.lines
  }

  public var description: String { locatedMessage }

  /// The whole of it, as the terminal's overlay shows it: the line, the source
  /// line under it and the traceback.
  public var detail: String {
    var text = locatedMessage
    if let source { text += "\n    " + source }
    if let traceback { text += "\n" + traceback }
    return text
  }
}

/// The lines of the files errors point at, each version of a file read once: a plugin
/// that fails on every frame is not read from disk on every frame. It keeps a few files,
/// and starts afresh when it has more.
public final class SourceLines: @unchecked Sendable {
  public static let shared = SourceLines()
  static let capacity = 16

  private let lock = NSLock()
  private var files: [String: (version: String, lines: [String])] = [:]
  /// Files read so far (a new version of a file counts again).
  private(set) var reads = 0

  public init() {}

  /// The lines from `radius` before the one `position` names to `radius` after it (as
  /// many as the file has), with the first one's number.
  public func lines(around position: FilePosition, radius: Int) -> (first: Int, lines: [String])? {
    guard let number = position.line, number > 0, line(position) != nil else { return nil }
    let version = Self.version(of: position.file)
    lock.lock()
    defer { lock.unlock() }
    guard let cached = files[position.file], cached.version == version else { return nil }
    let first = max(1, number - radius)
    let last = min(cached.lines.count, number + radius)
    return (first, Array(cached.lines[(first - 1)..<last]))
  }

  /// The line `position` names, read as the plugin loader reads files (a bundled
  /// plugin's name works too). Bytes that are not UTF-8 show as U+FFFD here, and only here.
  public func line(_ position: FilePosition) -> String? {
    guard let number = position.line, number > 0 else { return nil }
    let version = Self.version(of: position.file)
    lock.lock()
    defer { lock.unlock() }
    if let cached = files[position.file], cached.version == version {
      return cached.lines.indices.contains(number - 1) ? cached.lines[number - 1] : nil
    }
    guard let bytes = try? BundledPlugins.source(atPath: position.file) else { return nil }
    reads += 1
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    if files.count >= Self.capacity { files.removeAll() }
    files[position.file] = (version, lines)
    return lines.indices.contains(number - 1) ? lines[number - 1] : nil
  }

  /// What changes when the file does: its modification time and size ("" for a bundled
  /// plugin, which never changes, or a file that is gone).
  private static func version(of path: String) -> String {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
      return ""
    }
    let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return "\(date):\(attributes[.size] as? Int ?? 0)"
  }
}

/// The preview sends it as JSON: `line` is the one line, `source` and
/// `traceback` as above, `file` and `fileLine` the place.
extension SessionDiagnostic: Codable {
  private enum CodingKeys: String, CodingKey {
    case line, message, file, fileLine, source, traceback, contextFirst, context
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(locatedMessage, forKey: .line)
    try container.encode(message, forKey: .message)
    try container.encodeIfPresent(location?.file, forKey: .file)
    try container.encodeIfPresent(location?.line, forKey: .fileLine)
    try container.encodeIfPresent(source, forKey: .source)
    try container.encodeIfPresent(traceback, forKey: .traceback)
    try container.encodeIfPresent(context?.first, forKey: .contextFirst)
    try container.encodeIfPresent(context?.lines, forKey: .context)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    message = try container.decode(String.self, forKey: .message)
    location = try container.decodeIfPresent(String.self, forKey: .file).map {
      FilePosition(file: $0, line: try container.decodeIfPresent(Int.self, forKey: .fileLine))
    }
    source = try container.decodeIfPresent(String.self, forKey: .source)
    traceback = try container.decodeIfPresent(String.self, forKey: .traceback)
    if let first = try container.decodeIfPresent(Int.self, forKey: .contextFirst),
      let lines = try container.decodeIfPresent([String].self, forKey: .context)
    {
      context = (first, lines)
    }
  }
}

/// What a session refuses from its caller (not the plugin's errors, which
/// become `SessionDiagnostic`s).
public enum SessionError: Diagnostic, Equatable, Sendable {
  /// A playback speed outside `PluginSession.speeds`.
  case speedOutOfRange(Double)
  /// The request needs the plugin, which has not loaded.
  case notLoaded
  /// The plugin's path is a FIFO, device, folder or socket (`PluginFileCheck`).
  case notARegularFile(path: String, kind: String)

  public var message: String {
    switch self {
    case .speedOutOfRange:
      let speeds = PluginSession.speeds
      return "speed must be in \(speeds.lowerBound)…\(speeds.upperBound)"
    case .notLoaded: return "the plugin has not loaded"
    case .notARegularFile(let path, let kind):
      return "\(path) is \(kind), not a regular file: a plugin is read from a file"
    }
  }

  public var description: String { message }
  public var exitStatus: ExitStatus { .usage }
}
