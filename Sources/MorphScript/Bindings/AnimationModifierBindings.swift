import MorphCore

/// SwiftUI's animation modifiers as methods of every curve an animation can
/// follow (`morph.Spring`, `morph.Timing`; a `morph.Keyframes` timeline
/// takes delay and speed): `c:delay(s)`, `c:speed(f)`,
/// `c:repeatCount(n [, {autoreverses = true}])` and
/// `c:repeatForever([{autoreverses = true}])`. Each returns a modified copy;
/// the curve itself is immutable. As in SwiftUI, each applies to everything
/// written before it (`AnimationModifiers`).
enum AnimationModifierBindings {
  static let methods: [HostFunction] = [
    HostFunction(
      name: "delay",
      doc: """
        SwiftUI's `delay(_:)`: a copy that waits `seconds` before it starts; the value holds meanwhile.
        Inside a repeat (`c:delay(s):repeatForever()`) it waits before every pass; after one, once.
        @param seconds number
        @return {Self}
        """
    ) { lua in
      modify(lua, "delay") { m, a in
        let seconds = try a.finite(2)
        guard seconds >= 0 else { throw a.error(2, "delay must be >= 0, got \(seconds)") }
        return m.delayed(by: seconds)
      }
    },
    HostFunction(
      name: "speed",
      doc: """
        SwiftUI's `speed(_:)`: a copy that plays `factor` times as fast, with any delay written before it.
        @param factor number
        @return {Self}
        """
    ) { lua in
      modify(lua, "speed") { m, a in
        let factor = try a.finite(2)
        guard factor > 0 else { throw a.error(2, "speed must be > 0, got \(factor)") }
        let total = m.speed * factor
        guard total.isNormal, total < 1e12 else {
          throw a.error(2, "speed multiplies to \(total), outside (0, 1e12)")
        }
        return m.speed(factor)
      }
    },
    HostFunction(
      name: "repeatCount",
      doc: """
        SwiftUI's `repeatCount(_:autoreverses:)`: a copy that plays `count` times, every other play
        backwards when `autoreverses` (default true); when done it sits on the target.
        @param count integer
        @param options? { autoreverses?: boolean }
        @return {Self}
        """
    ) { lua in
      modify(lua, "repeatCount") { m, a in
        let count = try a.integer(2)
        guard count >= 1, count <= 1_000_000 else {
          throw a.error(2, "repeat count must be in 1…1000000, got \(count)")
        }
        return m.repeatCount(count, autoreverses: try autoreverses(a, at: 3))
      }
    },
    HostFunction(
      name: "repeatForever",
      doc: """
        SwiftUI's `repeatForever(autoreverses:)`: a copy that never ends (`check` accepts it).
        @param options? { autoreverses?: boolean }
        @return {Self}
        """
    ) { lua in
      modify(lua, "repeatForever") { m, a in
        m.repeatForever(autoreverses: try autoreverses(a, at: 2))
      }
    },
  ]

  /// `{autoreverses = bool}`, default true as in SwiftUI.
  static func autoreverses(_ a: LuaArgs, at i: Int32) throws -> Bool {
    guard !a.isNoneOrNil(i) else { return true }
    return try a.options(i, allowed: ["autoreverses"]).boolean("autoreverses", default: true)
  }

  /// A copy of the curve at argument 1 with its modifiers changed.
  static func modify(
    _ lua: OpaquePointer?, _ name: String,
    _ change: @escaping (AnimationModifiers, LuaArgs) throws -> AnimationModifiers
  ) -> Int32 {
    hostCall(lua, name, method: true) { a in
      let change = { (m: AnimationModifiers) throws -> AnimationModifiers in
        let changed = try change(m, a)
        guard changed.steps.count <= AnimationModifiers.maxSteps else {
          throw a.error(
            1,
            "a curve takes at most \(AnimationModifiers.maxSteps) delay, speed and repeat modifiers"
          )
        }
        if let note = changed.orderNote { LuaState.owner(of: a.lua).note(note) }
        return changed
      }
      if var spring = SpringBindings.type.value(a.lua, at: 1) {
        spring.modifiers = try change(spring.modifiers)
        a.push(spring, as: SpringBindings.type)
      } else if var timing = CurveBindings.timingType.value(a.lua, at: 1) {
        timing.modifiers = try change(timing.modifiers)
        a.push(timing, as: CurveBindings.timingType)
      } else if var timeline = KeyframeBindings.timelineType.value(a.lua, at: 1) {
        timeline.modifiers = try change(timeline.modifiers)
        try a.push(
          timeline, as: KeyframeBindings.timelineType,
          bytes: KeyframeBindings.bytes(of: timeline))
      } else {
        throw a.typeError(1, "morph.Spring or morph.Timing")
      }
      return 1
    }
  }
}
