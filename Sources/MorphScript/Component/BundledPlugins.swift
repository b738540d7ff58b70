import Foundation

/// The plugins built into the binary: `Plugins/*.lua` (a link to
/// `Sources/MorphScript/Plugins`), embedded at build time, so an installed
/// `morphhost` runs them from any folder.
///
/// A bundled plugin has no file. Its path is `NAME.lua (bundled)`: that is
/// also its chunk name, so errors read `flip.lua (bundled):12: …`, and no
/// file watcher can ever see it change (edit and hot-reload a copy named by
/// its path instead).
public enum BundledPlugins {
  public struct Plugin: Sendable, Equatable {
    /// The bare name a user types: `flip`, `deck_fan`.
    public var name: String
    public var source: String
    /// What stands for a file path: `flip.lua (bundled)`.
    public var path: String { name + ".lua" + BundledPlugins.pathSuffix }
  }

  /// Marks a path as a bundled plugin's; no path a user types ends so.
  static let pathSuffix = " (bundled)"

  /// Every bundled plugin, sorted by name.
  public static let all: [Plugin] = [
    Plugin(name: "card_stack", source: text(PackageResources.card_stack_lua)),
    Plugin(name: "deck_fan", source: text(PackageResources.deck_fan_lua)),
    Plugin(name: "flip", source: text(PackageResources.flip_lua)),
    Plugin(name: "ticket_tear", source: text(PackageResources.ticket_tear_lua)),
  ]

  /// The bundled plugin a path stands for, if it is one.
  public static func plugin(atPath path: String) -> Plugin? {
    guard path.hasSuffix(pathSuffix) else { return nil }
    return all.first { $0.path == path }
  }

  /// A plugin's name before it declares one: `flip` for `flip.lua (bundled)`
  /// and for `Plugins/flip.lua`.
  public static func baseName(ofPath path: String) -> String {
    plugin(atPath: path)?.name
      ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
  }

  /// A plugin's source bytes: a bundled plugin's from the binary, any other from its
  /// file (measured against the memory cap before it is read).
  public static func source(atPath path: String, limits: ScriptLimits = .standard)
    throws(ScriptError) -> [UInt8]
  {
    if let plugin = plugin(atPath: path) { return Array(plugin.source.utf8) }
    return try SourceFile.read(path, limits: limits)
  }

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
