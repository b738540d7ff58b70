import CLua
import CMorphLua
import Foundation

/// The Lua sources the host runs in every state, embedded at build time from
/// `Sources/MorphScript/Lua/` (where luacheck sees them).
public enum LuaSources {
  static let sandbox = text(PackageResources.sandbox_lua)
  static let inspect = text(PackageResources.inspect_lua)
  static let paths = text(PackageResources.paths_lua)
  static let support = text(PackageResources.support_lua)
  static let nodes = text(PackageResources.nodes_lua)
  static let component = text(PackageResources.component_lua)
  /// The LuaLS definitions of `morph`, for `morphhost new` to hand to editors.
  public static let meta = text(PackageResources.morph_meta_lua)

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// The sandbox plugins run in (`Lua/sandbox.lua`, mostly table copying).
enum Sandbox {
  /// `read_module(name)` → source, path: a `.lua` file inside the plugin's
  /// folder, never above it.
  static let readModule: morph_hostfn = { lua in
    hostCall(lua, "import") { a in
      let state = LuaState.owner(of: a.lua)
      var name = try a.string(1)
      guard let directory = state.moduleDirectory else {
        throw a.error(1, "import is only available to plugins loaded from a file")
      }
      if !name.hasSuffix(".lua") { name += ".lua" }
      let parts = name.split(separator: "/")
      guard !name.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
        throw a.error(1, "'\(name)' must be a path inside the plugin's folder")
      }
      let path = directory + "/" + name
      guard let data = FileManager.default.contents(atPath: path) else {
        throw a.error(1, "cannot read '\(name)' beside the plugin (\(path))")
      }
      if !state.importedFiles.contains(path) { state.importedFiles.append(path) }
      a.push(String(decoding: data, as: UTF8.self))
      a.push(path)
      return 2
    }
  }

  /// `print` in a plugin ends here: one string argument, already formatted.
  static let hostWrite: morph_hostfn = { lua in
    guard let lua else { return 0 }
    let state = LuaState.owner(of: lua)
    state.output(state.stringValue(at: 1))
    return 0
  }
}
