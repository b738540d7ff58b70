import CLua
import CMorphLua
import MorphCore

/// `morph.measureText` with the state's `textMeasure` (the engine layout draws with).
/// `Lua/nodes.lua` builds the same text record `morph.text` makes and calls
/// `measure(record, width?)`; the record is read as the scene reader reads a text node.
enum TextBindings {
  /// `(record, width?)` → width, height, baseline (from the top); or nil and a message for a
  /// text the frame budget refuses (Lua raises it at the plugin's line).
  static let measure: morph_hostfn = { lua in
    hostCall(lua, "measureText") { a in
      let textOp = NodeSchema.ops.first { $0.name == "text" }!
      let run = try SceneReader(lua: a.lua).readText(
        Record(table: 1, op: textOp, at: "measureText"))
      do {
        try FrameBudget.standard.checkText(run.string)
      } catch {
        lua_pushnil(a.lua)
        lua_pushstring(a.lua, String(describing: error))
        return 2
      }
      let width = lua_type(a.lua, 2) == LUA_TNUMBER ? morph_tonumber(a.lua, 2) : nil
      let metrics = LuaState.owner(of: a.lua).textMeasure.measure(
        run, in: ProposedSize(width: width, height: nil))
      lua_pushnumber(a.lua, metrics.size.width)
      lua_pushnumber(a.lua, metrics.size.height)
      lua_pushnumber(a.lua, metrics.baseline)
      return 3
    }
  }
}
