import Foundation
import MorphCore
import MorphScript

/// Finds a plugin from what a user typed: a path as given; the same path
/// matched case-insensitively (so `plugins/flip.lua` works on Linux too); or
/// a bare name (`flip`, `deck_fan`) of a plugin built into the binary. A file
/// beside the user always wins; a bare name that is no file is the built-in
/// copy, wherever the user is (name `Plugins/flip.lua` to edit and reload it).
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
      let typed = given.lowercased().replacingOccurrences(of: "-", with: "_")
      let wanted = typed.hasSuffix(".lua") ? String(typed.dropLast(4)) : typed
      if let found = bundled().first(where: { $0.name == wanted }) {
        return Resolved(path: found.path, note: nil)
      }
    }
    if files.fileExists(atPath: absolute, isDirectory: &isDirectory), isDirectory.boolValue {
      throw NotFound(
        description: "\(given) is a folder; give the plugin's .lua file inside it")
    }
    if given.contains("/") {
      throw NotFound(description: "\(given): no such file")
    }
    let names = bundled().map(\.name)
    let typed = given.hasSuffix(".lua") ? String(given.dropLast(4)) : given
    let hint = Suggestion.nearest(to: typed, in: names).map { "; did you mean '\($0)'?" } ?? ""
    throw NotFound(
      description: "no plugin '\(given)': no such file, and no bundled plugin of that name\(hint)"
        + (names.isEmpty ? "" : " (bundled: \(names.joined(separator: ", ")))"))
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

  /// The plugins built into the binary (see `BundledPlugins`), sorted by name.
  public static func bundled() -> [BundledPlugins.Plugin] { BundledPlugins.all }
}
