import CLua
import CMorphLua
import MorphCore

/// `morph.ease.<name>`: every Penner easing, callable as `f(x)` on [0, 1] or
/// Playdate-style as `f(t, b, c, d)`.
enum EasingBindings {
  /// What the meta file says of `morph.ease`, above a field per easing.
  static let doc = """
    The easings.net (Penner) set, named like Playdate: `linear`, and
    in/out/inOut/outIn of Quad, Cubic, Quart, Quint, Sine, Expo, Circ, Back, Elastic, Bounce.
    """

  static func open(_ lua: OpaquePointer) {
    morph_newtable(lua)
    for easing in Easing.allCases {
      lua_pushstring(lua, easing.rawValue)
      morph_pushhostfn(lua, callEasing, 1)
      morph_rawsetfield(lua, -2, easing.rawValue)
    }
    morph_rawsetfield(lua, -2, "ease")
  }

  /// Upvalue 1 holds the easing's name.
  private static let callEasing: morph_hostfn = { lua in
    guard let lua else { return 0 }
    let name = LuaState.owner(of: lua).stringValue(at: morph_upvalueindex(1))
    return hostCall(lua, name) { a in
      guard let easing = Easing(rawValue: name) else { throw a.error(1, "unknown easing") }
      if a.count >= 4 {
        let d = try a.number(4)
        a.push(easing.value(t: try a.number(1), b: try a.number(2), c: try a.number(3), d: d))
      } else {
        a.push(easing(try a.number(1)))
      }
      return 1
    }
  }
}
