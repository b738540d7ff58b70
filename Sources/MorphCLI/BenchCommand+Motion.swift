import Foundation
import MorphCore
import MorphHost
import MorphScript

extension BenchCommand {
  /// How many of each kind of animation the motion bench runs at once.
  static let motionMix = (springs: 400, keyframes: 300, colours: 300)

  /// A component whose tap starts every animation of the mix, each its own:
  /// springs of assorted bounce, three-keyframe tracks, and colours (four
  /// OKLab channels each).
  static func motionBenchSource() -> String {
    let (springs, keyframes, colours) = motionMix
    return """
      local m, k = morph, morph.keyframe
      local state = {}
      for i = 1, \(springs) do state["s" .. i] = 0 end
      for i = 1, \(keyframes) do state["k" .. i] = 0 end
      for i = 1, \(colours) do state["c" .. i] = m.color "#FF2D55" end
      return m.component {
        state = state,
        body = function() return m.rect() end,
        tap = function(self)
          for i = 1, \(springs) do
            self:animate(m.spring { duration = 1 + (i % 7) / 10, bounce = (i % 5) / 10 }, { ["s" .. i] = 100 })
          end
          for i = 1, \(keyframes) do
            self:play(m.keyframes { ["k" .. i] = {
              k.linear(1, 0.3), k.spring(0, { duration = 0.6 }), k.cubic(2, 0.5), k.cubic(1, 0.5) } })
          end
          for i = 1, \(colours) do
            self:animate(m.spring { duration = 1.5, bounce = 0.2 }, { ["c" .. i] = m.color "#007AFF" })
          end
        end,
      }
      """
  }

  /// Ticks 1 000 running animations and reads every channel's presented
  /// value, as a frame does; against the same count of bare closed-form
  /// spring evaluations timed in the same run; with the Lua entries the
  /// ticks made (goal 0: the engine alone drives animations).
  static func motionCost(frames: Int) throws -> String {
    let component = try ComponentInstance(
      path: "motion-bench.lua", source: motionBenchSource(),
      options: ComponentOptions(output: { _ in }))
    try component.handle(component: "tap", .tap(at: .zero, time: 0))
    let channels = component.engine.channels.keys.sorted()
    let animations = motionMix.springs + motionMix.keyframes + motionMix.colours
    let entries = component.state.entryCount
    var tick = 0
    var sink = 0.0
    let engine = try time(frames) {
      tick += 1
      try component.advance(to: Double(tick) / 120)
      for key in channels { sink += component.engine.presented(key, at: component.time) ?? 0 }
    }
    let luaEntries = component.state.entryCount - entries
    let spring = Spring(duration: 1.2, bounce: 0.2)
    var t = 0.0
    let reference = time(frames) {
      t += 1.0 / 120
      for i in 0..<channels.count {
        sink += spring.value(target: 100, initial: Double(i % 3), time: t)
      }
    }
    return String(
      format:
        "motion: %d animations (%d springs, %d keyframe tracks, %d colours) on %d channels, "
        + "%d still moving after %d ticks: %.1f µs per frame (goal < 1000), %.1f× the same count of "
        + "bare closed-form springs (%.1f µs); Lua entries while ticking: %d (goal 0)%@",
      animations, motionMix.springs, motionMix.keyframes, motionMix.colours, channels.count,
      component.engine.animatingKeys.count, frames, engine * 1e6, engine / reference,
      reference * 1e6, luaEntries, sink.isNaN ? " (nan)" : "")
  }
}
