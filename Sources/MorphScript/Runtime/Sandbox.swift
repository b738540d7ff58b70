import CLua

/// The Lua sources the host runs in every state, embedded at build time from
/// `Sources/MorphScript/Lua/` (where luacheck sees them).
public enum LuaSources {
  static let sandbox = text(PackageResources.sandbox_lua)
  static let inspect = text(PackageResources.inspect_lua)
  static let paths = text(PackageResources.paths_lua)
  static let nodes = text(PackageResources.nodes_lua)
  static let component = text(PackageResources.component_lua)
  /// The LuaLS definitions of `morph`, for `morphhost new` to hand to editors.
  public static let meta = text(PackageResources.morph_meta_lua)

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// The sandbox plugins run in (`Lua/sandbox.lua`, mostly table copying).
enum Sandbox {
  /// `print` in a plugin ends here: one string argument, already formatted.
  static let hostWrite: morph_hostfn = { lua in
    guard let lua else { return 0 }
    let state = LuaState.owner(of: lua)
    state.output(state.stringValue(at: 1))
    return 0
  }
}
