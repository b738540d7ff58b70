import Foundation
import MorphCore

/// Finds a plugin from what a user typed: a path as given; the same path
/// matched case-insensitively (so `plugins/flip.lua` works on Linux too); or
/// a bare name (`flip`, `deck_fan`) of a bundled plugin.
public enum PluginLocator {
  public struct Resolved: Equatable, Sendable {
    public var path: String
    /// Set when the path was not taken as given: says what it resolved to.
    public var note: String?
  }

  public struct NotFound: Diagnostic {
    public var description: String
    public var message: String { description }
  }

  public static func resolve(
    _ given: String, in directory: String = FileManager.default.currentDirectoryPath
  ) throws(NotFound) -> Resolved {
    let files = FileManager.default
    let absolute = given.hasPrefix("/") ? given : directory + "/" + given
    var isDirectory: ObjCBool = false
    if files.fileExists(atPath: absolute, isDirectory: &isDirectory), !isDirectory.boolValue {
      return Resolved(path: given, note: nil)
    }
    if let match = caseInsensitiveMatch(given, in: directory) {
      return Resolved(path: match, note: "'\(given)' resolved to '\(match)'")
    }
    if !given.contains("/") {
      let name = given.hasSuffix(".lua") ? String(given.dropLast(4)) : given
      let wanted = name.replacingOccurrences(of: "-", with: "_").lowercased()
      if let found = bundled().first(where: { $0.name.lowercased() == wanted }) {
        return Resolved(path: found.path, note: nil)
      }
    }
    if given.contains("/") {
      throw NotFound(description: "\(given): no such file")
    }
    let names = bundled().map(\.name).joined(separator: ", ")
    throw NotFound(
      description: "no plugin '\(given)': no such file, and no bundled plugin of that name"
        + (names.isEmpty ? "" : " (bundled: \(names))"))
  }

  /// Walks `path` one component at a time, matching names ignoring case.
  static func caseInsensitiveMatch(_ path: String, in directory: String) -> String? {
    let files = FileManager.default
    let relative = !path.hasPrefix("/")
    var current = relative ? directory : "/"
    var parts: [String] = []
    for component in path.split(separator: "/").map(String.init) where component != "." {
      guard let entries = try? files.contentsOfDirectory(atPath: current) else { return nil }
      guard let match = entries.first(where: { $0.lowercased() == component.lowercased() }) else {
        return nil
      }
      parts.append(match)
      current += (current.hasSuffix("/") ? "" : "/") + match
    }
    var isDirectory: ObjCBool = false
    guard files.fileExists(atPath: current, isDirectory: &isDirectory), !isDirectory.boolValue
    else { return nil }
    return relative ? parts.joined(separator: "/") : current
  }

  /// The bundled plugins folder: `./Plugins`, else the `Plugins` folder of
  /// the checkout the executable was built in (found walking up from it).
  public static func bundledDirectory() -> String? {
    let files = FileManager.default
    var candidates = [files.currentDirectoryPath + "/Plugins"]
    var url = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    for _ in 0..<6 {
      url.deleteLastPathComponent()
      candidates.append(url.appendingPathComponent("Plugins").path)
    }
    return candidates.first { dir in
      (try? files.contentsOfDirectory(atPath: dir))?.contains { $0.hasSuffix(".lua") } ?? false
    }
  }

  /// Bundled plugins, sorted by name.
  public static func bundled() -> [(name: String, path: String)] {
    guard let dir = bundledDirectory(),
      let names = try? FileManager.default.contentsOfDirectory(atPath: dir)
    else { return [] }
    return names.filter { $0.hasSuffix(".lua") }.sorted().map {
      (String($0.dropLast(4)), dir + "/" + $0)
    }
  }
}
