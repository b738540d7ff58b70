import CLua
import CMorphLua
import MorphCore

/// `morph.spring`, `morph.interactiveSpring`, `morph.interpolatingSpring`:
/// Apple's `Spring` type with value/velocity queries.
enum SpringBindings {
  static let type = ObjectType<SpringAnimation>(name: "morph.Spring")

  static let presets: [(String, Spring)] = [
    ("default", .defaultSpring), ("smooth", .smooth), ("snappy", .snappy),
    ("bouncy", .bouncy), ("interactive", .interactive),
  ]

  /// The parameter sets SwiftUI builds a spring from, each the keys one of its
  /// initialisers takes (`blendDuration` goes with any: `.spring(_:blendDuration:)`).
  /// A table must use one set: mixing them has no SwiftUI meaning, so an author
  /// who wrote `{response =, damping =}` meant something the host cannot guess.
  static let parameterSets: [(name: String, keys: [String])] = [
    ("duration/bounce", ["duration", "bounce"]),
    ("response/dampingRatio", ["response", "dampingRatio", "dampingFraction"]),
    ("mass/stiffness/damping", ["mass", "stiffness", "damping", "allowOverDamping"]),
    ("settlingDuration/dampingRatio", ["settlingDuration", "dampingRatio", "epsilon"]),
  ]

  static let springOptions =
    parameterSets.flatMap(\.keys).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    + ["blendDuration"]

  /// The valid sets, for messages.
  static let setsText =
    parameterSets.map { set in
      "{"
        + set.keys.joined(separator: ", ")
        .replacingOccurrences(
          of: "dampingRatio, dampingFraction", with: "dampingRatio | dampingFraction")
        + "}"
    }
    .joined(separator: ", ") + " (each may add blendDuration), or a preset name ("
    + presets.map(\.0).joined(separator: ", ") + ")"

  /// Which set the keys of `o` belong to; an error naming the sets when they mix
  /// or miss a required key.
  static func parameterSet(_ a: LuaArgs, _ o: LuaOptions) throws -> String {
    let given = springOptions.filter { $0 != "blendDuration" && o.has($0) }
    let fitting = parameterSets.filter { set in given.allSatisfy(set.keys.contains) }
    func refuse(_ what: String) -> ArgumentError {
      a.error(1, "\(what); a spring takes one of \(setsText)")
    }
    if given.contains("dampingRatio") && given.contains("dampingFraction") {
      throw refuse("'dampingRatio' and 'dampingFraction' are the same parameter: give one")
    }
    // {dampingRatio} alone fits two sets; it is the response form's (SwiftUI's
    // `.spring(dampingFraction:)`, with the default response).
    guard let set = fitting.first else {
      throw refuse(
        "options " + given.map { "'\($0)'" }.joined(separator: ", ") + " mix parameter sets")
    }
    switch set.name {
    case "mass/stiffness/damping":
      for key in ["stiffness", "damping"] where !o.has(key) {
        throw refuse(
          "option '\(key)' is required with \(given.map { "'\($0)'" }.joined(separator: ", "))")
      }
    case "settlingDuration/dampingRatio":
      for key in ["settlingDuration", "dampingRatio"] where !o.has(key) {
        throw refuse(
          "option '\(key)' is required with \(given.map { "'\($0)'" }.joined(separator: ", "))")
      }
    default: break
    }
    return set.name
  }

  static func open(_ lua: OpaquePointer) {
    type.define(
      lua, methods: methods + AnimationModifierBindings.methods, properties: properties,
      extra: meta)
    register(lua, functions)
  }

  static func positive(_ a: LuaArgs, _ value: Double, _ name: String) throws -> Double {
    guard value > 0, value.isFinite else {
      throw a.error(1, "option '\(name)' must be a finite number > 0, got \(value)")
    }
    return value
  }

  static func nonnegative(_ a: LuaArgs, _ value: Double, _ name: String) throws -> Double {
    guard value >= 0, value.isFinite else {
      throw a.error(1, "option '\(name)' must be a finite number >= 0, got \(value)")
    }
    return value
  }

  /// Reads one of the three ways Apple's `Spring` is specified.
  static func checkSpring(_ a: LuaArgs) throws -> SpringAnimation {
    if a.isNoneOrNil(1) { return SpringAnimation(.defaultSpring) }
    if lua_type(a.lua, 1) == LUA_TSTRING {
      let spring = try a.choice(1, presets)
      return SpringAnimation(spring, blendDuration: spring == .interactive ? 0.25 : 0)
    }
    let o = try a.options(1, allowed: springOptions)
    let blend = try nonnegative(a, o.number("blendDuration", default: 0), "blendDuration")
    let spring: Spring
    switch try parameterSet(a, o) {
    case "mass/stiffness/damping":
      spring = Spring(
        mass: try positive(a, o.number("mass", default: 1), "mass"),
        stiffness: try positive(a, o.number("stiffness", default: 1), "stiffness"),
        damping: try nonnegative(a, o.number("damping", default: 0), "damping"),
        allowOverDamping: try o.boolean("allowOverDamping", default: false))
    case "settlingDuration/dampingRatio":
      spring = try settling(a, o)
    case "response/dampingRatio":
      let ratio = try o.number("dampingRatio") ?? o.number("dampingFraction") ?? 0.825
      spring = Spring(
        response: try positive(a, o.number("response", default: 0.5), "response"),
        dampingRatio: try nonnegative(
          a, ratio, o.has("dampingRatio") ? "dampingRatio" : "dampingFraction"))
    default:
      let duration = try positive(a, o.number("duration", default: 0.5), "duration")
      let bounce = try o.number("bounce", default: 0)
      guard bounce > -1, bounce < 1 else {
        throw a.error(1, "option 'bounce' must be in (-1, 1), got \(bounce)")
      }
      spring = Spring(duration: duration, bounce: bounce)
    }
    return SpringAnimation(spring, blendDuration: blend)
  }

  /// SwiftUI's `Spring(settlingDuration:dampingRatio:epsilon:)`: the spring of that
  /// damping whose motion from rest settles (within `epsilon` of the change, 0.001 by
  /// default) after `settlingDuration` seconds. Settling time scales with the
  /// response at a fixed damping, so one settling time at response 1 gives it.
  static func settling(_ a: LuaArgs, _ o: LuaOptions) throws -> Spring {
    let settle = try positive(a, o.number("settlingDuration", default: 1), "settlingDuration")
    let ratio = try positive(a, o.number("dampingRatio", default: 1), "dampingRatio")
    let epsilon = try o.number("epsilon", default: 0.001)
    guard epsilon > 0, epsilon < 1 else {
      throw a.error(1, "option 'epsilon' must be in (0, 1), got \(epsilon)")
    }
    let unit = Spring(response: 1, dampingRatio: ratio).settlingDuration(epsilon: epsilon)
    let response = settle / unit
    guard unit > 0, unit.isFinite, response.isNormal, response.isFinite else {
      throw a.error(1, "no spring of dampingRatio \(ratio) settles in \(settle) s")
    }
    return Spring(response: response, dampingRatio: ratio)
  }

  static let functions: [HostFunction] = [
    HostFunction(
      name: "spring",
      doc: """
        `spring()` = duration 0.5, bounce 0; one of SwiftUI's parameter sets:
        `spring{duration=, bounce=}`, `spring{response=, dampingRatio=}` (or `dampingFraction=`),
        `spring{mass=, stiffness=, damping=, allowOverDamping=}`,
        `spring{settlingDuration=, dampingRatio=, epsilon=}`, each with `blendDuration=`;
        or a preset name. Keys of two sets together are an error.
        @param options? morph.SpringOptions|morph.SpringPreset
        @return morph.Spring
        """
    ) { lua in
      hostCall(lua, "spring") { a in
        a.push(try checkSpring(a), as: type)
        return 1
      }
    },
    HostFunction(
      name: "interactiveSpring",
      doc: """
        SwiftUI `interactiveSpring()`: response 0.15, dampingFraction 0.86, blendDuration 0.25.
        @param options? { response?: number, dampingFraction?: number, blendDuration?: number }
        @return morph.Spring
        """
    ) { lua in
      hostCall(lua, "interactiveSpring") { a in
        var response = 0.15
        var ratio = 0.86
        var blend = Spring.interactiveBlendDuration
        if !a.isNoneOrNil(1) {
          let o = try a.options(1, allowed: ["response", "dampingFraction", "blendDuration"])
          response = try positive(a, o.number("response", default: response), "response")
          ratio = try o.number("dampingFraction", default: ratio)
          blend = try o.number("blendDuration", default: blend)
        }
        let spring = Spring(response: response, dampingRatio: ratio)
        a.push(SpringAnimation(spring, blendDuration: blend), as: type)
        return 1
      }
    },
    HostFunction(
      name: "interpolatingSpring",
      doc: """
        SwiftUI `interpolatingSpring(mass:stiffness:damping:initialVelocity:)`; its animations add up.
        A damping at or above critical gives the critically damped curve, as SwiftUI samples it.
        `initialVelocity` is SwiftUI's relative velocity: fractions of the change per second.
        @param options { stiffness: number, damping?: number, mass?: number, initialVelocity?: number }
        @return morph.Spring
        """
    ) { lua in
      hostCall(lua, "interpolatingSpring") { a in
        let o = try a.options(1, allowed: ["mass", "stiffness", "damping", "initialVelocity"])
        guard let stiffness = try o.number("stiffness") else {
          throw a.error(1, "option 'stiffness' is required")
        }
        // SwiftUI samples the critically damped curve when ζ ≥ 1.
        let spring = Spring(
          mass: try positive(a, o.number("mass", default: 1), "mass"),
          stiffness: try positive(a, stiffness, "stiffness"),
          damping: try nonnegative(a, o.number("damping", default: 0), "damping"),
          allowOverDamping: false)
        let animation = SpringAnimation(
          spring, combination: .additive,
          initialVelocity: try o.number("initialVelocity", default: 0))
        a.push(animation, as: type)
        return 1
      }
    },
  ]

  /// `(t, from = 0, to = 1, velocity = 0)`, read from argument 2 on.
  static func motion(_ a: LuaArgs) throws -> (t: Double, from: Double, to: Double, v0: Double) {
    (
      try a.number(2), try a.number(3, default: 0), try a.number(4, default: 1),
      try a.number(5, default: 0)
    )
  }

  /// `s:value(...)` and `s:velocity(...)`: the same arguments, another query.
  static func query(
    _ lua: OpaquePointer?, _ name: String,
    _ f: @escaping (Spring) -> (Double, Double, Double, Double) -> Double
  ) -> Int32 {
    hostCall(lua, name, method: true) { a in
      let spring = try a.object(1, type).spring
      let m = try motion(a)
      a.push(f(spring)(m.to, m.from, m.v0, m.t))
      return 1
    }
  }

  static let methods: [HostFunction] = [
    HostFunction(
      name: "value",
      doc: """
        Value at time `t` of a spring moving `from` → `to` with initial velocity `velocity`.
        @param t number
        @param from? number default 0
        @param to? number default 1
        @param velocity? number default 0
        @return number
        """
    ) { query($0, "value", Spring.value) },
    HostFunction(
      name: "velocity",
      doc: """
        Velocity at time `t` (same arguments as `value`).
        @param t number
        @param from? number
        @param to? number
        @param velocity? number
        @return number
        """
    ) { query($0, "velocity", Spring.velocity) },
    HostFunction(
      name: "settle",
      doc: """
        Seconds until the motion stays within `epsilon` × |from − to| of `to`.
        @param from? number
        @param to? number
        @param velocity? number
        @param epsilon? number default 0.001
        @return number
        """
    ) { lua in
      hostCall(lua, "settle", method: true) { a in
        let spring = try a.object(1, type).spring
        let from = try a.number(2, default: 0)
        let to = try a.number(3, default: 1)
        let v0 = try a.number(4, default: 0)
        let epsilon = try a.number(5, default: 0.001)
        guard epsilon > 0 else { throw a.error(5, "epsilon must be > 0, got \(epsilon)") }
        a.push(
          spring.settlingDuration(
            target: to, initial: from, initialVelocity: v0, epsilon: epsilon))
        return 1
      }
    },
    HostFunction(
      name: "step",
      doc: """
        Advances (value, velocity) toward `target` by `dt` seconds (exact closed form).
        @param value number
        @param velocity number
        @param target number
        @param dt number
        @return number value
        @return number velocity
        """
    ) { lua in
      hostCall(lua, "step", method: true) { a in
        let spring = try a.object(1, type).spring
        let state = SpringState(value: try a.number(2), velocity: try a.number(3))
        let next = spring.step(state, target: try a.number(4), dt: try a.finite(5))
        a.push(next.value)
        a.push(next.velocity)
        return 2
      }
    },
  ]

  static let meta: [HostFunction] = [
    HostFunction(name: "__tostring") { lua in
      hostCall(lua, "tostring") { a in
        let s = try a.object(1, type).spring
        let r = (s.response * 1000).rounded() / 1000
        let z = (s.dampingRatio * 1000).rounded() / 1000
        a.push("spring(response: \(r), dampingRatio: \(z))")
        return 1
      }
    }
  ]

  static let properties: morph_hostfn = { lua in
    indexMethodsThenProperties(lua) { a, key in
      let animation = try a.object(1, type)
      let s = animation.spring
      switch key {
      case "mass": a.push(s.mass)
      case "stiffness": a.push(s.stiffness)
      case "damping": a.push(s.damping)
      case "response": a.push(s.response)
      case "dampingRatio": a.push(s.dampingRatio)
      case "bounce": a.push(s.bounce)
      case "duration": a.push(s.duration)
      case "settlingDuration": a.push(s.settlingDuration())
      case "blendDuration": a.push(animation.blendDuration)
      case "initialVelocity": a.push(animation.initialVelocity)
      case "additive": a.push(animation.combination == .additive)
      default: return false
      }
      return true
    }
  }
}
