import CLua
import CMorphLua
import MorphCore

/// Text measuring for `morph.measureText`, with the state's `textMeasure` (the
/// font layout draws with). `Lua/nodes.lua` checks the style as `morph.text`
/// does and calls `measure(s, size, weight)`; nil size and weight are the
/// text node's defaults.
enum TextBindings {
  /// `(string, size?, weight?)` → width, height, baseline (from the top).
  static let measure: morph_hostfn = { lua in
    hostCall(lua, "measureText") { a in
      let weightName = lua_type(a.lua, 3) == LUA_TSTRING ? try a.string(3) : nil
      let run = TextRun(
        string: try a.string(1), size: try a.number(2, default: TextRun.defaultSize),
        weight: weightName.flatMap(FontWeight.init(rawValue:)) ?? .regular, color: .black)
      let measurer = LuaState.owner(of: a.lua).textMeasure
      let size = measurer.size(of: run)
      lua_pushnumber(a.lua, size.width)
      lua_pushnumber(a.lua, size.height)
      lua_pushnumber(a.lua, measurer.baseline(of: run))
      return 3
    }
  }
}
