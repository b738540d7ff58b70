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

  static let springOptions = [
    "response", "dampingRatio", "dampingFraction", "duration", "bounce", "mass", "stiffness",
    "damping", "allowOverDamping", "blendDuration",
  ]

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
    let blend = try o.number("blendDuration", default: 0)
    let ratio = try o.number("dampingRatio") ?? o.number("dampingFraction")
    if let stiffness = try o.number("stiffness") {
      let spring = Spring(
        mass: try positive(a, o.number("mass", default: 1), "mass"),
        stiffness: try positive(a, stiffness, "stiffness"),
        damping: try nonnegative(a, o.number("damping", default: 0), "damping"),
        allowOverDamping: try o.boolean("allowOverDamping", default: false))
      return SpringAnimation(spring, blendDuration: blend)
    }
    if let response = try o.number("response") {
      let spring = Spring(
        response: try positive(a, response, "response"), dampingRatio: ratio ?? 0.825)
      return SpringAnimation(spring, blendDuration: blend)
    }
    let duration = try positive(a, o.number("duration", default: 0.5), "duration")
    let bounce = try o.number("bounce", default: 0)
    guard bounce > -1, bounce < 1 else {
      throw a.error(1, "option 'bounce' must be in (-1, 1), got \(bounce)")
    }
    return SpringAnimation(Spring(duration: duration, bounce: bounce), blendDuration: blend)
  }

  static let functions: [HostFunction] = [
    HostFunction(
      name: "spring",
      doc: """
        `spring()` = duration 0.5, bounce 0; `spring{response=, dampingFraction=}`,
        `spring{duration=, bounce=}`, `spring{mass=, stiffness=, damping=}`, or a preset name.
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
