import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// Keyframes and the engine's animations live in Swift, but what they hold is
/// charged to the plugin's memory cap as they are made (issue: a million
/// keyframes took 262 MB under a 64 MiB cap).
@Suite struct KeyframeMemoryTests {
  static let limits = ScriptLimits(
    memoryCapMiB: 16, instructionBudget: 50_000_000, wallClockSeconds: 30)

  static func run(_ state: LuaState, _ code: String) -> ScriptError? {
    do {
      _ = try state.evaluate(code, chunkName: "test.lua")
      return nil
    } catch {
      return error
    }
  }

  @Test func aKeyframeBombFailsBeforeItIsBuilt() throws {
    let state = try LuaState(limits: Self.limits)
    let error = Self.run(
      state,
      "local k, ks = morph.keyframe.linear(1, 0.01), {}\nfor i = 1, 5e5 do ks[i] = k end\n"
        + "return morph.keyframes { x = ks }")
    #expect(error?.description == "test.lua:3: not enough memory (cap 16 MiB)")
    #expect(state.memoryInUse <= 16 << 20)
    // What was reserved is given back: a timeline that fits is built.
    #expect(
      Self.run(
        state,
        "local k, ks = morph.keyframe.linear(1, 0.01), {}\nfor i = 1, 1e4 do ks[i] = k end\n"
          + "return morph.keyframes { x = ks }.duration") == nil)
  }

  @Test func keyframeObjectsAreCharged() throws {
    let state = try LuaState(limits: Self.limits)
    let before = state.memoryInUse
    #expect(
      Self.run(
        state, "kept = {} for i = 1, 1e4 do kept[i] = morph.keyframe.linear(i, 1) end") == nil)
    #expect(state.memoryInUse - before >= 10_000 * KeyframeBindings.bytes(components: 1))
    let error = Self.run(
      state, "local t = {}\nfor i = 1, 1e6 do t[i] = morph.keyframe.linear(i, 1) end")
    #expect(error?.kind == .memory)
    #expect(state.memoryInUse <= 16 << 20)
  }

  /// Played tracks stay in the engine after their timeline is collected:
  /// the engine's share is charged while it plays and given back after.
  @Test func playedTracksAreChargedUntilTheyEnd() throws {
    let keys = (1...200).map { "s\($0)" }
    let source = """
      local m = morph
      local taps = 0
      return m.component {
        state = { \(keys.map { "\($0) = 0" }.joined(separator: ", ")) },
        body = function(self) return m.rect():frame(10, 10) end,
        tap = function(self)
          taps = taps + 1
          local k = m.keyframe.linear(1, 0.001)
          for i = 1, taps == 1 and 1 or \(keys.count) do
            local ks = {}
            for j = 1, 5000 do ks[j] = k end
            self:play(m.keyframes { ["s" .. i] = ks })
          end
        end,
      }
      """
    let c = try ComponentInstance(
      path: "bomb.lua", source: source, options: ComponentOptions(limits: Self.limits))
    let idle = c.engine.heldBytes
    // One track of 5000 keyframes is charged while it plays.
    try c.handle(component: "tap", .tap(at: .zero, time: c.time))
    let playing = c.engine.heldBytes
    #expect(playing >= AnimationChannel.bytes(keyframes: 5000))
    #expect(c.state.memoryInUse >= playing)
    #expect(playing - idle >= AnimationChannel.bytes(keyframes: 5000))
    try c.advance(to: 10)
    #expect(c.engine.heldBytes == idle)
    // 200 of them, each timeline collected after it is played: refused at the play.
    do {
      try c.handle(component: "tap", .tap(at: .zero, time: c.time))
      Issue.record("200 tracks of 5000 keyframes fit under 16 MiB")
    } catch {
      #expect(error.description == "bomb.lua:12: not enough memory (cap 16 MiB)")
    }
    #expect(c.state.memoryInUse <= 16 << 20)
    try c.advance(to: 1000)
    #expect(c.engine.heldBytes == idle)
  }
}
