import CLua
import CMorphLua
import MorphCore

/// SwiftUI's keyframes: `morph.keyframe.linear/spring/cubic/move` build one
/// keyframe; `morph.keyframes(tracks [, initial])` a timeline of tracks by
/// state key, which `t:value(time [, key])` scrubs and a component plays
/// with `self:play(t)`; `morph.stagger(n, step, curve)` delays copies.
enum KeyframeBindings {
  static let keyframeType = ObjectType<ValueKeyframe>(name: "morph.Keyframe")
  static let timelineType = ObjectType<KeyframeTimeline>(name: "morph.Keyframes")

  /// What a timeline holds outside Lua's heap for each keyframe of each
  /// component: the keyframe and the segment worked out from it.
  static let bytesPerComponent =
    MemoryLayout<Keyframe>.stride + MemoryLayout<ResolvedKeyframes.Segment>.stride

  /// What one track costs beyond its keyframes (its arrays' headers, its key).
  static let bytesPerTrack = 256

  /// What a timeline holds outside Lua's heap, charged to the plugin while it lives.
  static func bytes(of timeline: KeyframeTimeline) -> Int {
    timeline.keyframeCount * bytesPerComponent + timeline.tracks.count * bytesPerTrack
  }

  /// What a keyframe object holds in Swift: its box and an array of `components` keyframes.
  static func bytes(components: Int) -> Int { 96 + components * MemoryLayout<Keyframe>.stride }

  /// Pushes a keyframe, charged to the plugin's memory cap.
  static func push(_ a: LuaArgs, _ keyframe: ValueKeyframe) throws(ArgumentError) {
    try a.push(keyframe, as: keyframeType, bytes: bytes(components: keyframe.components.count))
  }

  static func open(_ lua: OpaquePointer) {
    keyframeType.define(lua, methods: [], properties: keyframeProperties, extra: keyframeMeta)
    timelineType.define(
      lua, methods: timelineMethods + modifiers, properties: timelineProperties)
    morph_newtable(lua)
    register(lua, keyframeFunctions)
    morph_rawsetfield(lua, -2, "keyframe")
    register(lua, functions)
  }

  /// A timeline takes the delay and speed every curve takes (for stagger);
  /// `play` options say how often it repeats.
  static let modifiers = AnimationModifierBindings.methods.filter {
    ["delay", "speed"].contains($0.name)
  }

  /// The value a keyframe reaches: any animatable kind.
  static func target(_ a: LuaArgs) throws -> (AnimatableKind, [Double]) {
    guard let value = AnimatableValues.read(a.lua, at: 1) else {
      throw a.typeError(1, AnimatableValues.expected)
    }
    return value
  }

  /// A velocity option in the target's shape (nil: not given), one per component.
  static func velocity(_ o: LuaOptions, _ key: String, of kind: AnimatableKind) throws -> [Double?]
  {
    morph_rawgetfield(o.lua, o.index, key)
    defer { morph_pop(o.lua, 1) }
    if lua_type(o.lua, -1) == LUA_TNIL { return Array(repeating: nil, count: kind.count) }
    guard let values = AnimatableValues.components(o.lua, at: -1, of: kind) else {
      let shape = kind == .color ? "a table {l, a, b, alpha} (OKLab per second)" : "\(kind)"
      throw o.args.error(
        o.index, "option '\(key)': \(shape) like the target expected, got \(o.args.typeName(-1))")
    }
    return values
  }

  static func duration(_ a: LuaArgs, _ i: Int32) throws -> Double {
    let d = try a.finite(i)
    guard d >= 0 else { throw a.error(i, "duration must be >= 0, got \(d)") }
    return d
  }

  /// A timing curve for a linear keyframe: a `morph.Bezier`, a preset name, or linear.
  static func bezier(_ a: LuaArgs, _ i: Int32) throws -> UnitBezier {
    if a.isNoneOrNil(i) { return .linear }
    if let b = CurveBindings.bezierType.value(a.lua, at: i) { return b }
    if lua_type(a.lua, i) == LUA_TSTRING { return try a.choice(i, CurveBindings.presets) }
    throw a.typeError(i, "morph.Bezier or curve name")
  }

  static let keyframeFunctions: [HostFunction] = [
    HostFunction(
      name: "linear",
      doc: """
        `LinearKeyframe`: to `to` over `duration` seconds along `curve` (default linear).
        @param to morph.Animatable
        @param duration number
        @param curve? morph.Bezier|morph.BezierPreset
        @return morph.Keyframe
        """
    ) { lua in
      hostCall(lua, "linear") { a in
        let (kind, to) = try target(a)
        let (d, curve) = (try duration(a, 2), try bezier(a, 3))
        let components = to.map { Keyframe.linear(to: $0, duration: d, curve: curve) }
        try push(a, ValueKeyframe(kind: kind, components: components))
        return 1
      }
    },
    HostFunction(
      name: "spring",
      doc: """
        `SpringKeyframe`: a spring towards `to`, cut after `duration` (default: until
        it settles); the next keyframe starts where and as fast as it was cut.
        `startVelocity` (default: the velocity carried in) is how fast it starts, in
        the value's shape (`{x =, y =}` for a point). A composite without a `duration`
        runs the spring's `settlingDuration` on every component, so they stay in step.
        @param to morph.Animatable
        @param options? { duration?: number, spring?: morph.Spring, startVelocity?: number|table }
        @return morph.Keyframe
        """
    ) { lua in
      hostCall(lua, "spring") { a in
        let (kind, to) = try target(a)
        var spring = Spring.defaultSpring
        var length: Double?
        var velocities = [Double?](repeating: nil, count: to.count)
        if !a.isNoneOrNil(2) {
          let o = try a.options(2, allowed: ["duration", "spring", "startVelocity"])
          length = try o.number("duration")
          if let d = length, !(d >= 0 && d.isFinite) {
            throw a.error(2, "option 'duration' must be a finite number >= 0, got \(d)")
          }
          velocities = try velocity(o, "startVelocity", of: kind)
          morph_rawgetfield(a.lua, o.index, "spring")
          defer { morph_pop(a.lua, 1) }
          if let s = SpringBindings.type.value(a.lua, at: -1) {
            spring = s.spring
          } else if lua_type(a.lua, -1) != LUA_TNIL {
            throw a.error(2, "option 'spring': morph.Spring expected, got \(a.typeName(-1))")
          }
        }
        let k = ValueKeyframe.spring(
          kind: kind, to: to, duration: length, spring: spring, startVelocity: velocities)
        try push(a, k)
        return 1
      }
    },
    HostFunction(
      name: "cubic",
      doc: """
        `CubicKeyframe`: a cubic through the values. Adjacent cubics without velocities
        form a Catmull-Rom spline; next to another kind, a cubic matches its velocity;
        the track's last cubic comes to rest. Velocities are in the value's shape.
        @param to morph.Animatable
        @param duration number
        @param options? { startVelocity?: number|table, endVelocity?: number|table }
        @return morph.Keyframe
        """
    ) { lua in
      hostCall(lua, "cubic") { a in
        let (kind, to) = try target(a)
        let d = try duration(a, 2)
        var start = [Double?](repeating: nil, count: to.count)
        var end = start
        if !a.isNoneOrNil(3) {
          let o = try a.options(3, allowed: ["startVelocity", "endVelocity"])
          start = try velocity(o, "startVelocity", of: kind)
          end = try velocity(o, "endVelocity", of: kind)
        }
        let components = to.indices.map {
          Keyframe.cubic(to: to[$0], duration: d, startVelocity: start[$0], endVelocity: end[$0])
        }
        try push(a, ValueKeyframe(kind: kind, components: components))
        return 1
      }
    },
    HostFunction(
      name: "move",
      doc: """
        `MoveKeyframe`: jumps to `to` at once.
        @param to morph.Animatable
        @return morph.Keyframe
        """
    ) { lua in
      hostCall(lua, "move") { a in
        let (kind, to) = try target(a)
        try push(a, ValueKeyframe(kind: kind, components: to.map(Keyframe.move)))
        return 1
      }
    },
  ]

  static let functions: [HostFunction] = [
    HostFunction(
      name: "keyframes",
      doc: """
        A timeline of keyframe tracks by state key; `initial` gives each key's value
        before the timeline starts, for scrubbing (default 0 for every component). A
        component plays it with `self:play(timeline)`, each track from its key's
        presented value. A keyframe of another kind than its track's first is an
        error naming it (`track 'pos' keyframe 2 is a size {width, height}, but …`).
        @param tracks table<string, morph.Keyframe[]>
        @param initial? table<string, morph.Animatable>
        @return morph.Keyframes
        """
    ) { lua in
      hostCall(lua, "keyframes") { a in
        // What building the timeline takes is charged before it is built,
        // track by track, and handed over to the timeline once it is.
        var reserved = 0
        defer { morph_charge(a.lua, -Int64(reserved)) }
        let tracks = try readTracks(a, 1, reserved: &reserved)
        let initial = a.isNoneOrNil(2) ? [:] : try readInitial(a, 2)
        for key in initial.keys where tracks[key] == nil {
          throw a.error(2, "initial value for '\(key)', which has no track")
        }
        let timeline: KeyframeTimeline
        do {
          timeline = try KeyframeTimeline(values: tracks, initial: initial)
        } catch {
          throw a.error(1, "\(error)")
        }
        morph_charge(a.lua, -Int64(reserved))
        reserved = 0
        try a.push(timeline, as: timelineType, bytes: bytes(of: timeline))
        return 1
      }
    }
  ]

  /// `{ key = { keyframe, … }, … }`. Each track's cost (the list read here,
  /// the timeline's keyframes and segments) is added to `reserved`, charged
  /// to the memory cap before the track is read.
  static func readTracks(_ a: LuaArgs, _ i: Int32, reserved: inout Int) throws -> [String:
    [ValueKeyframe]]
  {
    try a.checkType(i, LUA_TTABLE, "table")
    let lua = a.lua
    var tracks: [String: [ValueKeyframe]] = [:]
    lua_pushnil(lua)
    while lua_next(lua, i) != 0 {
      defer { morph_pop(lua, 1) }
      guard lua_type(lua, -2) == LUA_TSTRING else {
        throw a.error(i, "track keys must be state key names, got \(a.typeName(-2))")
      }
      let key = LuaState.owner(of: lua).stringValue(at: -2)
      guard lua_type(lua, -1) == LUA_TTABLE else {
        throw a.error(i, "track '\(key)' must be a list of keyframes, got \(a.typeName(-1))")
      }
      let count = Int(lua_rawlen(lua, -1))
      guard count > 0 else { throw a.error(i, "track '\(key)' has no keyframes") }
      // The first keyframe's kind says how many components each holds.
      lua_rawgeti(lua, -1, 1)
      let components = keyframeType.value(lua, at: -1)?.components.count ?? 1
      morph_pop(lua, 1)
      let perKeyframe = MemoryLayout<ValueKeyframe>.stride + components * bytesPerComponent
      let (bytes, overflow) = perKeyframe.multipliedReportingOverflow(by: count)
      let cost = bytes + bytesPerTrack
      guard !overflow, morph_charge(lua, Int64(cost)) != 0 else { throw a.outOfMemory() }
      reserved += cost
      var keyframes: [ValueKeyframe] = []
      keyframes.reserveCapacity(count)
      for n in 1...count {
        lua_rawgeti(lua, -1, lua_Integer(n))
        defer { morph_pop(lua, 1) }
        guard let k = keyframeType.value(lua, at: -1) else {
          throw a.error(
            i, "track '\(key)' keyframe \(n): morph.Keyframe expected, got \(a.typeName(-1))")
        }
        keyframes.append(k)
      }
      tracks[key] = keyframes
    }
    return tracks
  }

  /// `{ key = value, … }`: each key's value (of its track's kind) before the timeline starts.
  static func readInitial(_ a: LuaArgs, _ i: Int32) throws -> [String: (AnimatableKind, [Double])] {
    try a.checkType(i, LUA_TTABLE, "table")
    let lua = a.lua
    var values: [String: (AnimatableKind, [Double])] = [:]
    lua_pushnil(lua)
    while lua_next(lua, i) != 0 {
      defer { morph_pop(lua, 1) }
      guard lua_type(lua, -2) == LUA_TSTRING, let value = AnimatableValues.read(lua, at: -1)
      else { throw a.error(i, "initial values must be { key = \(AnimatableValues.expected) }") }
      values[LuaState.owner(of: lua).stringValue(at: -2)] = value
    }
    return values
  }

  static let timelineMethods: [HostFunction] = [
    HostFunction(
      name: "value",
      doc: """
        Scrubs the timeline from its initial values: all tracks at `t` seconds as
        `{key = value}`, or one track's value when `key` is given (a point track's
        as `{x =, y =}`, a colour track's as a morph.Color).
        @param t number
        @param key? string
        @return table<string, morph.Animatable>|morph.Animatable
        """
    ) { lua in
      hostCall(lua, "value", method: true) { a in
        let timeline = try a.object(1, timelineType)
        let time = try a.number(2)
        if !a.isNoneOrNil(3) {
          let key = try a.string(3)
          guard let v = timeline.components(key, at: time), let kind = timeline.kind(key) else {
            throw a.error(3, "no track '\(key)'; tracks: \(timeline.keys.joined(separator: ", "))")
          }
          AnimatableValues.push(a.lua, kind, v)
          return 1
        }
        lua_createtable(a.lua, 0, Int32(timeline.keys.count))
        for track in timeline.tracks {
          AnimatableValues.push(a.lua, track.kind, timeline.components(track.key, at: time) ?? [])
          morph_rawsetfield(a.lua, -2, track.key)
        }
        return 1
      }
    }
  ]

  static let timelineProperties: morph_hostfn = { lua in
    indexMethodsThenProperties(lua) { a, key in
      let timeline = try a.object(1, timelineType)
      switch key {
      case "duration": a.push(timeline.duration)
      case "keys":
        lua_createtable(a.lua, Int32(timeline.keys.count), 0)
        for (i, k) in timeline.keys.enumerated() {
          a.push(k)
          lua_rawseti(a.lua, -2, lua_Integer(i + 1))
        }
      default: return false
      }
      return true
    }
  }

  static let keyframeProperties: morph_hostfn = { lua in
    indexMethodsThenProperties(lua) { a, key in
      let k = try a.object(1, keyframeType)
      guard key == "to" else { return false }
      AnimatableValues.push(a.lua, k.kind, k.target)
      return true
    }
  }

  static let keyframeMeta: [HostFunction] = [
    HostFunction(name: "__tostring") { lua in
      hostCall(lua, "tostring") { a in
        let k = try a.object(1, keyframeType)
        let shown = k.components.map { "\($0)" }.joined(separator: ", ")
        a.push(k.kind == .number ? "keyframe(\(shown))" : "keyframe(\(k.kind.name): \(shown))")
        return 1
      }
    }
  ]
}
