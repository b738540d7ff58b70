import Foundation

/// The one owner of how a file's path is named inside Lua and shown to users.
///
/// Lua cuts a chunk's name to `LUA_IDSIZE` (60 bytes) in messages and
/// tracebacks, keeping only the tail after `...`, so a plugin in a deep folder
/// would report a location no editor can open. A path that fits is its own
/// chunk name; a longer one gets a short alias inside Lua, and every message
/// that leaves the state has its aliases expanded back to the full path.
struct ChunkNames {
  /// Bytes a chunk name may have and still come out of Lua whole: the
  /// `LUA_IDSIZE` of 60 less the terminating NUL, with room to spare.
  static let longestWhole = 56
  /// Starts every alias; a character no path the host makes begins with.
  static let aliasMark = "…"

  private var pathByAlias: [String: String] = [:]
  private var aliasByPath: [String: String] = [:]

  /// The name to give Lua for `path` (without Lua's `@`).
  mutating func chunkName(for path: String) -> String {
    if path.utf8.count <= Self.longestWhole, !path.hasPrefix(Self.aliasMark) { return path }
    if let alias = aliasByPath[path] { return alias }
    // `…N/name.lua`: the number keeps aliases of files with one name apart.
    let serial = pathByAlias.count + 1
    let prefix = "\(Self.aliasMark)\(serial)/"
    let room = Self.longestWhole - prefix.utf8.count
    let base = path.split(separator: "/").last.map(String.init) ?? path
    let alias = prefix + Self.suffix(of: base, bytes: room)
    pathByAlias[alias] = path
    aliasByPath[path] = alias
    return alias
  }

  /// `text` with every alias replaced by the path it stands for.
  func expand(_ text: String) -> String {
    guard !pathByAlias.isEmpty, text.contains(Self.aliasMark) else { return text }
    // No alias is part of another: each ends its serial with a slash.
    var result = text
    for (alias, path) in pathByAlias {
      result = result.replacingOccurrences(of: alias, with: path)
    }
    return result
  }

  /// The last `bytes` bytes of `text`, cut at a character boundary.
  private static func suffix(of text: String, bytes: Int) -> String {
    var kept = Substring(text)
    while kept.utf8.count > bytes { kept = kept.dropFirst() }
    return String(kept)
  }
}
