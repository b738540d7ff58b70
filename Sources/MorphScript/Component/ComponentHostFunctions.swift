import CLua
import CMorphLua
import MorphCore

/// The owner of a component's numbers: reads and writes of numeric state
/// from Lua land here, and nowhere else keeps them.
protocol AnimationHost: AnyObject {
  var reduceMotion: Bool { get }
  func presentedValue(_ key: String) -> Double?
  func targetValue(_ key: String) -> Double?
  func velocityValue(_ key: String) -> Double
  /// The virtual clock, read by a component (which then keeps drawing).
  func readClock() -> Double
  /// The size offered to the body, read by a component (which is then laid out again
  /// when the offer changes).
  func readOfferedSize() -> Size
  func setState(_ key: String, to value: Double)
  /// A state key that is not a number changed (`self.flag = true`), or `animate` set one
  /// (`byAnimate`; its `animate` call follows).
  func noteValueChange(byAnimate: Bool)
  func animate(
    _ changes: [(key: String, value: Double)], with curve: AnimationCurve,
    velocities: [String: Double]
  ) -> Int
  /// Plays a timeline's tracks as one animation, `plays` times (nil: forever).
  func play(_ timeline: KeyframeTimeline, plays: Int?, channels: [String: [String]]) -> Int
  /// Animation `id` has a `done` callback: its completion needs Lua.
  func awaitCompletion(_ id: Int)
  /// Starts a timer of `delay` seconds on the virtual clock (`self:after`); its id
  /// completes, as an animation's does, when it falls due.
  func schedule(after delay: Double) -> Int
  /// Charges what the engine holds now to the plugin's memory account (or
  /// gives back what it no longer holds).
  func settleEngineMemory()
}

/// The `host` table `Lua/component.lua` receives: `host.presented(key)`,
/// `host.target(key)`, `host.velocity(key)`, `host.set(key, number)`, `host.changed(byAnimate)` (a key that is not a number changed),
/// `host.animate(curve, keys, values [, velocities]) -> id`,
/// `host.play(timeline, plays) -> id` (plays 0: forever), `host.awaits(id)` (it
/// has a `done` callback), `host.after(seconds) -> id` (a timer), `host.reduceMotion()`,
/// `host.time()`, `host.size() -> width, height` (the size offered), and a colour's animatable channels both ways:
/// `host.colorChannels(c) -> l, a, b, alpha` and `host.color(l, a, b, alpha)`; and
/// `host.maxCanvasSide`, the largest component side (the display list's limit).
enum ComponentHostFunctions {
  static func push(_ lua: OpaquePointer) {
    morph_newtable(lua)
    register(lua, functions)
    lua_pushnumber(lua, SceneError.maxCanvasSide)
    morph_rawsetfield(lua, -2, "maxCanvasSide")
  }

  static func host(_ a: LuaArgs) throws -> AnimationHost {
    guard let host = LuaState.owner(of: a.lua).animationHost else {
      throw ArgumentError(description: "state can only change in a running component")
    }
    return host
  }

  /// A spring, a timing curve, or a bare Bézier (SwiftUI's default 0.35 s).
  static func curve(_ a: LuaArgs, _ i: Int32) throws -> AnimationCurve {
    if let spring = SpringBindings.type.value(a.lua, at: i) { return .spring(spring) }
    if let timing = CurveBindings.timingType.value(a.lua, at: i) { return .timing(timing) }
    if let bezier = CurveBindings.bezierType.value(a.lua, at: i) {
      return .timing(TimingCurve(bezier: bezier, duration: CurveBindings.defaultDuration))
    }
    throw a.typeError(i, "morph.Spring, morph.Timing or morph.Bezier")
  }

  /// Runs `change` with `bound` bytes (at least what the engine can grow by)
  /// reserved on the plugin's memory cap: over the cap nothing changes and
  /// the call fails with the memory error; then the engine is charged what it holds.
  static func charging<T>(_ a: LuaArgs, upTo bound: Int, _ change: (AnimationHost) throws -> T)
    throws -> T
  {
    let host = try host(a)
    guard morph_charge(a.lua, Int64(bound)) != 0 else { throw a.outOfMemory() }
    defer {
      morph_charge(a.lua, -Int64(bound))
      host.settleEngineMemory()
    }
    return try change(host)
  }

  /// What playing `timeline` on `channels` can add to the engine.
  static func bytes(playing timeline: KeyframeTimeline, on channels: [String: [String]]) -> Int {
    var tracks: [(key: String, track: KeyframeTrack)] = []
    for track in timeline.tracks {
      for (channel, component) in zip(channels[track.key] ?? [], track.components) {
        tracks.append((channel, component))
      }
    }
    return AnimationEngine.bytes(playing: tracks)
  }

  /// `{ key = { channel, … } }`: the engine channels of each track's components.
  static func channelNames(_ a: LuaArgs, _ i: Int32) throws -> [String: [String]] {
    try a.checkType(i, LUA_TTABLE, "table")
    let lua = a.lua
    var names: [String: [String]] = [:]
    lua_pushnil(lua)
    while lua_next(lua, i) != 0 {
      defer { morph_pop(lua, 1) }
      let state = LuaState.owner(of: lua)
      var list: [String] = []
      for n in 0..<Int(lua_rawlen(lua, -1)) {
        lua_rawgeti(lua, -1, lua_Integer(n + 1))
        list.append(state.stringValue(at: -1))
        morph_pop(lua, 1)
      }
      names[state.stringValue(at: -2)] = list
    }
    return names
  }

  static let functions: [HostFunction] =
    numbers + [
      HostFunction(name: "play") { lua in
        hostCall(lua, "play") { a in
          let timeline = try a.object(1, KeyframeBindings.timelineType)
          let plays = try a.integer(2)
          let channels = try channelNames(a, 3)
          let id = try charging(a, upTo: bytes(playing: timeline, on: channels)) {
            $0.play(timeline, plays: plays > 0 ? plays : nil, channels: channels)
          }
          lua_pushinteger(a.lua, lua_Integer(id))
          return 1
        }
      },
      HostFunction(name: "trackKind") { lua in
        hostCall(lua, "trackKind") { a in
          let timeline = try a.object(1, KeyframeBindings.timelineType)
          let kind = timeline.kind(try a.string(2)) ?? .number
          a.push(kind.name)
          lua_pushinteger(a.lua, lua_Integer(kind.count))
          a.push(kind.description)
          return 3
        }
      },
      HostFunction(name: "shapes") { lua in
        hostCall(lua, "shapes") { a in
          // The composite kinds as component.lua's shapes: { name =, fields = {…} }.
          let kinds = AnimatableKind.namedTables + [.color]
          lua_createtable(a.lua, Int32(kinds.count), 0)
          for (i, kind) in kinds.enumerated() {
            lua_createtable(a.lua, 0, 2)
            a.push(kind.name)
            morph_rawsetfield(a.lua, -2, "name")
            lua_createtable(a.lua, Int32(kind.fields.count), 0)
            for (j, field) in kind.fields.enumerated() {
              a.push(field)
              lua_rawseti(a.lua, -2, lua_Integer(j + 1))
            }
            morph_rawsetfield(a.lua, -2, "fields")
            lua_rawseti(a.lua, -2, lua_Integer(i + 1))
          }
          return 1
        }
      },
      HostFunction(name: "awaits") { lua in
        hostCall(lua, "awaits") { a in
          try host(a).awaitCompletion(try a.integer(1))
          return 0
        }
      },
      HostFunction(name: "after") { lua in
        hostCall(lua, "after") { a in
          let delay = try a.finite(1)
          let id = try charging(a, upTo: AnimationEngine.timerBytes) {
            $0.schedule(after: delay)
          }
          lua_pushinteger(a.lua, lua_Integer(id))
          return 1
        }
      },
      HostFunction(name: "colorChannels") { lua in
        hostCall(lua, "colorChannels") { a in
          for c in try a.object(1, ColorBindings.type).animatableChannels { a.push(c) }
          return 4
        }
      },
      HostFunction(name: "color") { lua in
        hostCall(lua, "color") { a in
          let channels = try (1...4).map { i throws(ArgumentError) in try a.number(Int32(i)) }
          a.push(Color(animatableChannels: channels), as: ColorBindings.type)
          return 1
        }
      },
    ]

  static let numbers: [HostFunction] = [
    HostFunction(name: "presented") { lua in
      hostCall(lua, "presented") { a in
        lua_pushnumber(a.lua, try host(a).presentedValue(try a.string(1)) ?? .nan)
        return 1
      }
    },
    HostFunction(name: "target") { lua in
      hostCall(lua, "target") { a in
        lua_pushnumber(a.lua, try host(a).targetValue(try a.string(1)) ?? .nan)
        return 1
      }
    },
    HostFunction(name: "velocity") { lua in
      hostCall(lua, "velocity") { a in
        lua_pushnumber(a.lua, try host(a).velocityValue(try a.string(1)))
        return 1
      }
    },
    HostFunction(name: "time") { lua in
      hostCall(lua, "time") { a in
        lua_pushnumber(a.lua, try host(a).readClock())
        return 1
      }
    },
    HostFunction(name: "size") { lua in
      hostCall(lua, "size") { a in
        let size = try host(a).readOfferedSize()
        lua_pushnumber(a.lua, size.width)
        lua_pushnumber(a.lua, size.height)
        return 2
      }
    },
    HostFunction(name: "reduceMotion") { lua in
      hostCall(lua, "reduceMotion") { a in
        lua_pushboolean(a.lua, try host(a).reduceMotion ? 1 : 0)
        return 1
      }
    },
    HostFunction(name: "changed") { lua in
      hostCall(lua, "changed") { a in
        try host(a).noteValueChange(byAnimate: lua_toboolean(a.lua, 1) != 0)
        return 0
      }
    },
    HostFunction(name: "set") { lua in
      hostCall(lua, "set") { a in
        let (key, value) = (try a.string(1), try a.number(2))
        try charging(a, upTo: AnimationEngine.bytes(key: key)) { $0.setState(key, to: value) }
        return 0
      }
    },
    HostFunction(name: "animate") { lua in
      hostCall(lua, "animate") { a in
        let curve = try curve(a, 1)
        try a.checkType(2, LUA_TTABLE, "table")
        try a.checkType(3, LUA_TTABLE, "table")
        var changes: [(key: String, value: Double)] = []
        for i in 1...max(1, Int(lua_rawlen(a.lua, 2))) where lua_rawlen(a.lua, 2) > 0 {
          lua_rawgeti(a.lua, 2, lua_Integer(i))
          lua_rawgeti(a.lua, 3, lua_Integer(i))
          let key = LuaState.owner(of: a.lua).stringValue(at: -2)
          let value = morph_tonumber(a.lua, -1)
          morph_pop(a.lua, 2)
          changes.append((key, value))
        }
        var velocities: [String: Double] = [:]
        if lua_type(a.lua, 4) == LUA_TTABLE {
          for (key, _) in changes {
            if morph_rawgetfield(a.lua, 4, key) == LUA_TNUMBER {
              velocities[key] = morph_tonumber(a.lua, -1)
            }
            morph_pop(a.lua, 1)
          }
        }
        let id = try charging(a, upTo: AnimationEngine.bytes(animating: changes.map(\.key))) {
          $0.animate(changes, with: curve, velocities: velocities)
        }
        lua_pushinteger(a.lua, lua_Integer(id))
        return 1
      }
    },
  ]
}
