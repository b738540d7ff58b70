import CLua
import CMorphLua
import MorphCore

/// `morph.bezier`, `morph.timing` and SwiftUI's timing presets.
enum CurveBindings {
  static let bezierType = ObjectType<UnitBezier>(name: "morph.Bezier")
  static let timingType = ObjectType<TimingCurve>(name: "morph.Timing")

  /// SwiftUI's default animation duration.
  static let defaultDuration = 0.35

  static let presets = UnitBezier.presets

  static func open(_ lua: OpaquePointer) {
    bezierType.define(lua, methods: bezierMethods, properties: bezierProperties, extra: bezierMeta)
    timingType.define(
      lua, methods: timingMethods + AnimationModifierBindings.methods,
      properties: timingProperties, extra: timingMeta)
    register(lua, functions)
    for preset in presetFunctions {
      lua_pushstring(lua, preset.name)
      morph_pushhostfn(lua, preset.function, 1)
      morph_rawsetfield(lua, -2, preset.name)
    }
  }

  /// `morph.easeIn(duration)` and friends, each with its name as upvalue 1.
  /// `morph.ease` is the easing table, so the CSS `ease` preset is only
  /// reachable as `morph.timing("ease", d)`.
  static var presetFunctions: [HostFunction] {
    presets.map(\.0).filter { $0 != "ease" }.map { name in
      HostFunction(
        name: name,
        doc: """
          SwiftUI `.\(name)(duration:)` (default \(MetaFile.format(defaultDuration)) s).
          @param duration? number
          @return morph.Timing
          """,
        function: presetTiming)
    }
  }

  /// `morph.bezier(x1, y1, x2, y2)` or `morph.bezier("easeIn")`.
  static func checkBezier(_ a: LuaArgs, at i: Int32) throws -> UnitBezier {
    if lua_type(a.lua, i) == LUA_TSTRING { return try a.choice(i, presets) }
    let x1 = try a.finite(i)
    let y1 = try a.finite(i + 1)
    let x2 = try a.finite(i + 2)
    let y2 = try a.finite(i + 3)
    for (offset, x) in [(0, x1), (2, x2)] where !(0...1).contains(x) {
      throw a.error(i + Int32(offset), "control point x must be in [0, 1], got \(x)")
    }
    return UnitBezier(x1, y1, x2, y2)
  }

  static func checkDuration(_ a: LuaArgs, at i: Int32) throws -> Double {
    let duration = try a.number(i, default: defaultDuration)
    guard duration >= 0, duration.isFinite else {
      throw a.error(i, "duration must be a finite number >= 0, got \(duration)")
    }
    return duration
  }

  static let functions: [HostFunction] = [
    HostFunction(
      name: "bezier",
      doc: """
        A Bézier curve from its control points (x in [0, 1]) or a preset name.
        @param x1 number|morph.BezierPreset
        @param y1? number
        @param x2? number
        @param y2? number
        @return morph.Bezier
        """
    ) { lua in
      hostCall(lua, "bezier") { a in
        a.push(try checkBezier(a, at: 1), as: bezierType)
        return 1
      }
    },
    HostFunction(
      name: "timing",
      doc: """
        `timing(x1, y1, x2, y2, duration)` or `timing("easeInOut", duration)`;
        duration defaults to \(MetaFile.format(defaultDuration)) s.
        @param x1 number|morph.BezierPreset
        @param y1? number
        @param x2? number
        @param y2? number
        @param duration? number
        @return morph.Timing
        """
    ) { lua in
      hostCall(lua, "timing") { a in
        let bezier = try checkBezier(a, at: 1)
        let durationIndex: Int32 = lua_type(a.lua, 1) == LUA_TSTRING ? 2 : 5
        a.push(
          TimingCurve(bezier: bezier, duration: try checkDuration(a, at: durationIndex)),
          as: timingType)
        return 1
      }
    },
  ]

  /// The body of every `presetFunctions` entry; upvalue 1 is the preset's name.
  private static let presetTiming: morph_hostfn = { lua in
    guard let lua else { return 0 }
    let name = LuaState.owner(of: lua).stringValue(at: morph_upvalueindex(1))
    return hostCall(lua, name) { a in
      let bezier = presets.first { $0.0 == name }?.1 ?? .linear
      a.push(TimingCurve(bezier: bezier, duration: try checkDuration(a, at: 1)), as: timingType)
      return 1
    }
  }

  static let bezierMethods: [HostFunction] = [
    HostFunction(
      name: "solve",
      doc: """
        y for progress x; outside [0, 1] it follows the end tangents, as WebKit and CSS do.
        @param x number
        @return number
        """
    ) { lua in
      hostCall(lua, "solve", method: true) { a in
        let curve = try a.object(1, bezierType)
        a.push(curve(try a.number(2)))
        return 1
      }
    }
  ]

  static let bezierMeta: [HostFunction] = [
    HostFunction(name: "__call") { lua in
      hostCall(lua, "bezier", method: true) { a in
        a.push(try a.object(1, bezierType)(try a.number(2)))
        return 1
      }
    },
    HostFunction(name: "__tostring") { lua in
      hostCall(lua, "tostring") { a in
        let c = try a.object(1, bezierType)
        a.push("bezier(\(c.p1x), \(c.p1y), \(c.p2x), \(c.p2y))")
        return 1
      }
    },
  ]

  static let bezierProperties: morph_hostfn = { lua in
    indexMethodsThenProperties(lua) { a, key in
      let c = try a.object(1, bezierType)
      let values = ["x1": c.p1x, "y1": c.p1y, "x2": c.p2x, "y2": c.p2y]
      guard let value = values[key] else { return false }
      a.push(value)
      return true
    }
  }

  static let timingMethods: [HostFunction] = [
    HostFunction(
      name: "at",
      doc: """
        Progress (0 to 1, before the curve's overshoot) at time `t` seconds.
        @param t number
        @return number
        """
    ) { lua in
      hostCall(lua, "at", method: true) { a in
        let timing = try a.object(1, timingType)
        a.push(timing.progress(at: try a.number(2)))
        return 1
      }
    }
  ]

  static let timingMeta: [HostFunction] = [
    HostFunction(name: "__call") { lua in
      hostCall(lua, "timing", method: true) { a in
        a.push(try a.object(1, timingType).progress(at: try a.number(2)))
        return 1
      }
    },
    HostFunction(name: "__tostring") { lua in
      hostCall(lua, "tostring") { a in
        let t = try a.object(1, timingType)
        let c = t.bezier
        a.push("timing(\(c.p1x), \(c.p1y), \(c.p2x), \(c.p2y), \(t.duration))")
        return 1
      }
    },
  ]

  static let timingProperties: morph_hostfn = { lua in
    indexMethodsThenProperties(lua) { a, key in
      let timing = try a.object(1, timingType)
      switch key {
      case "duration": a.push(timing.duration)
      case "bezier": a.push(timing.bezier, as: bezierType)
      default: return false
      }
      return true
    }
  }
}
