import CLua
import CMorphLua
import MorphCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
      // Pango works in C, out of the count hook's reach: its layouts are charged to this
      // call's wall clock, and a stop is the call's own (sticky, raised at the plugin's line).
      let work = HostWork(seconds: callSecondsLeft(a.lua))
      let metrics = work.run {
        LuaState.owner(of: a.lua).textMeasure.measure(
          run, in: ProposedSize(width: width, height: nil))
      }
      switch work.stop {
      case .time?: morph_stop(a.lua, Int32(MORPH_STOP_BUDGET))
      case .refused(let error)?:
        lua_pushnil(a.lua)
        lua_pushstring(a.lua, String(describing: error))
        return 2
      case nil: break
      }
      lua_pushnumber(a.lua, metrics.size.width)
      lua_pushnumber(a.lua, metrics.size.height)
      lua_pushnumber(a.lua, metrics.baseline)
      return 3
    }
  }

  /// Seconds left of the running call's wall clock (`.infinity` when it has none).
  private static func callSecondsLeft(_ lua: OpaquePointer) -> Double {
    let deadline = morph_getlimits(lua).pointee.deadline
    guard deadline > 0 else { return .infinity }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return deadline - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
  }
}
