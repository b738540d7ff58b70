import CLua
import CMorphLua
import MorphCore

/// `morph.color`: sRGB colours from hex strings, names or components.
enum ColorBindings {
  static let type = ObjectType<Color>(name: "morph.Color")

  static func open(_ lua: OpaquePointer) {
    type.define(lua, methods: methods, properties: properties, extra: meta)
    // `morph.color` is a table that calls like the function and holds `p3`: a C
    // `__call`, so an error still names the plugin's line.
    morph_newtable(lua)
    register(lua, spaces)
    morph_newtable(lua)
    morph_pushhostfn(lua, callColor, 0)
    morph_rawsetfield(lua, -2, "__call")
    lua_pushstring(lua, "morph.color")
    morph_rawsetfield(lua, -2, "__metatable")
    lua_setmetatable(lua, -2)
    morph_rawsetfield(lua, -2, "color")
  }

  /// `morph.color(…)` through the table's `__call`: the table itself, argument 1, dropped.
  static let callColor: morph_hostfn = { lua in
    guard let lua else { return 0 }
    lua_rotate(lua, 1, -1)
    lua_settop(lua, -2)
    return makeColor(lua)
  }

  static let makeColor: morph_hostfn = { lua in
    hostCall(lua, "color") { a in
      switch a.count {
      case 1: a.push(try check(a, 1), as: type)
      case 2: a.push(Color(white: try component(a, 1), alpha: try component(a, 2)), as: type)
      case 3, 4:
        let alpha = a.isNoneOrNil(4) ? 1 : try component(a, 4)
        let color = Color(
          red: try component(a, 1), green: try component(a, 2), blue: try component(a, 3),
          alpha: alpha)
        a.push(color, as: type)
      default:
        throw a.error(1, "expected a hex string, a name, (white, alpha) or (r, g, b [, a])")
      }
      return 1
    }
  }

  /// `morph.color.NAME`: colours given in other spaces.
  static let spaces: [HostFunction] = [
    HostFunction(
      name: "p3",
      doc: """
        A colour given in Display P3 (SwiftUI's `Color(.displayP3, red:green:blue:opacity:)`),
        components in [0, 1], drawn as the sRGB colour nearest it (P3's reds and greens beyond
        sRGB clamp: the renderers draw in sRGB).
        @param r number
        @param g number
        @param b number
        @param a? number
        @return morph.Color
        """
    ) { lua in
      hostCall(lua, "p3") { a in
        let alpha = a.isNoneOrNil(4) ? 1 : try component(a, 4)
        a.push(
          Color(
            displayP3Red: try component(a, 1), green: try component(a, 2),
            blue: try component(a, 3), alpha: alpha), as: type)
        return 1
      }
    }
  ]

  /// A colour argument: a `morph.Color`, or a string `parse` accepts.
  static func check(_ a: LuaArgs, _ i: Int32) throws -> Color {
    if let color = type.value(a.lua, at: i) { return color }
    guard lua_type(a.lua, i) == LUA_TSTRING else { throw a.typeError(i, "morph.Color or string") }
    do {
      return try Color.parse(try a.string(i))
    } catch {
      throw a.error(i, String(describing: error))
    }
  }

  static func component(_ a: LuaArgs, _ i: Int32) throws -> Double {
    let value = try a.finite(i)
    guard (0...1).contains(value) else {
      throw a.error(i, "colour component must be in [0, 1], got \(value)")
    }
    return value
  }

  static let functions: [HostFunction] = [
    HostFunction(
      name: "color",
      doc: """
        `color("#RRGGBB[AA]")`, `color("red")`, `color(white, alpha)` or `color(r, g, b [, a])`;
        components are in [0, 1]. The names are Apple's system colours in light mode (`red` is
        #FF3B30), listed in docs/lua-api.md, Colour names; `morph.color.p3` takes Display P3.
        @param a number|string
        @param b? number
        @param c? number
        @param d? number
        @return morph.Color
        """
    ) { lua in makeColor(lua) }
  ]

  static let methods: [HostFunction] = [
    HostFunction(
      name: "opacity",
      doc: """
        The colour with its alpha multiplied by `alpha` (SwiftUI `.opacity`).
        @param alpha number
        @return morph.Color
        """
    ) { lua in
      hostCall(lua, "opacity", method: true) { a in
        let color = try check(a, 1)
        a.push(color.opacity(try a.finite(2)), as: type)
        return 1
      }
    },
    HostFunction(
      name: "mix",
      doc: """
        Linear mix toward `other` by `amount` in sRGB components.
        @param other morph.Color|string
        @param amount number
        @return morph.Color
        """
    ) { lua in
      hostCall(lua, "mix", method: true) { a in
        let color = try check(a, 1)
        a.push(color.mix(with: try check(a, 2), amount: try a.finite(3)), as: type)
        return 1
      }
    },
  ]

  static let meta: [HostFunction] = [
    HostFunction(name: "__tostring") { lua in
      hostCall(lua, "tostring") { a in
        a.push(try a.object(1, type).hex)
        return 1
      }
    },
    HostFunction(name: "__eq") { lua in
      hostCall(lua, "==") { a in
        a.push(type.value(a.lua, at: 1) == type.value(a.lua, at: 2))
        return 1
      }
    },
  ]

  static let properties: morph_hostfn = { lua in
    indexMethodsThenProperties(lua) { a, key in
      let c = try a.object(1, type)
      switch key {
      case "r": a.push(c.red)
      case "g": a.push(c.green)
      case "b": a.push(c.blue)
      case "a": a.push(c.alpha)
      case "hex": a.push(c.hex)
      default: return false
      }
      return true
    }
  }
}
