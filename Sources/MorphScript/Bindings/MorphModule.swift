import CLua
import CMorphLua

/// Builds the `morph` table every plugin sees, one binding file per area, in
/// the manner of Lua's `luaL_openlibs`.
enum MorphModule {
  static let version = "0.1.0"

  /// Leaves the module table on top of the stack.
  static func open(_ state: LuaState) {
    let lua = state.lua
    morph_newtable(lua)
    lua_pushstring(lua, version)
    morph_rawsetfield(lua, -2, "version")
    for open in openers() { open(lua) }
  }

  /// Each opener adds its functions to the table on top of the stack.
  static func openers() -> [(OpaquePointer) -> Void] {
    [
      ScalarBindings.open, EasingBindings.open, CurveBindings.open, SpringBindings.open,
      ColorBindings.open, PathBindings.open, KeyframeBindings.open,
    ]
  }

}

/// Facts about the scripting layer for the command line.
public enum MorphScriptInfo {
  public static let version = MorphModule.version
}
