import Foundation
import MorphCore
import Testing

@testable import MorphScript

private func component(_ handlers: String, state: String = "scale = 1, x = 0, y = 0, z = 0")
  throws -> ComponentInstance
{
  let source = """
    local m, k = morph, morph.keyframe
    return m.component {
      state = { \(state), note = false },
      body = function(self) return m.rect():frame(10, 10) end,
      \(handlers)
    }
    """
  return try ComponentInstance(path: "keyframes.lua", source: source)
}

private func tap(_ c: ComponentInstance) throws {
  try c.handle(component: "tap", .tap(at: .zero, time: c.time))
}

private func note(_ c: ComponentInstance) -> String {
  if case .string(let s) = c.stateValue("note") { return s }
  return ""
}

/// `morph.keyframes` as SwiftUI's KeyframeAnimator/KeyframeTimeline: tracks
/// per key, scrubbable with `value(t)`, played by the engine from a handler.
@Suite struct KeyframeBindingTests {
  @Test func aTimelineIsScrubbable() throws {
    let c = try component(
      """
      tap = function(self)
        local t = morph.keyframes({
          scale = { morph.keyframe.linear(2, 0.5), morph.keyframe.spring(1, { duration = 0.5 }) },
          x = { morph.keyframe.move(10), morph.keyframe.cubic(20, 1) },
        }, { scale = 1 })
        local v = t:value(0.25)
        self.note = string.format("%g %g %g %g %s", v.scale, v.x, t:value(1, "x"), t.duration,
          table.concat(t.keys, ","))
      end,
      """)
    try tap(c)
    #expect(note(c) == "1.5 11.5625 20 1 scale,x")
  }

  @Test func playingATimelineRunsInTheEngineWithNoLuaPerTick() throws {
    let c = try component(
      """
      tap = function(self)
        self:play(morph.keyframes { scale = { morph.keyframe.linear(2, 0.5), morph.keyframe.linear(1, 0.5) } },
          { done = function(s) s.note = "done" end })
      end,
      """)
    try tap(c)
    #expect(c.target("scale") == 1)
    let entries = c.state.entryCount
    try c.advance(to: 0.25)
    #expect(abs((c.presented("scale") ?? 0) - 1.5) < 1e-6)
    try c.advance(to: 0.75)
    #expect(abs((c.presented("scale") ?? 0) - 1.5) < 1e-6)
    #expect(c.state.entryCount == entries)
    #expect(note(c) == "")
    try c.advance(to: 1)
    #expect(note(c) == "done")
    #expect(!c.isAnimating)
  }

  /// SpringKeyframe's `startVelocity`: the segment starts at that speed.
  @Test func aSpringKeyframeStartsAtItsStartVelocity() throws {
    let c = try component(
      """
      tap = function(self)
        self:play(morph.keyframes { x = { morph.keyframe.spring(0, { duration = 1, startVelocity = 8,
          spring = morph.spring { duration = 0.5, bounce = 0.3 } }) } })
        self.note = string.format("%g", self:velocity("x"))
      end,
      """)
    try tap(c)
    #expect(note(c) == "8")
  }

  @Test func aTrackMayDriveOneFieldOfAComposite() throws {
    let c = try component(
      "tap = function(self) self:play(morph.keyframes { ['pos.y'] = { morph.keyframe.linear(10, 1) } }) end,",
      state: "pos = { x = 3, y = 0 }")
    try tap(c)
    try c.advance(to: 0.5)
    #expect(abs((c.presented("pos.y") ?? 0) - 5) < 1e-6)
    #expect(c.presented("pos.x") == 3)
  }

  @Test func aTimelineStartsFromThePresentedValue() throws {
    let c = try component(
      "tap = function(self) self:play(morph.keyframes { x = { morph.keyframe.linear(10, 1) } }) end,",
      state: "scale = 1, x = 4, y = 0, z = 0")
    try tap(c)
    try c.advance(to: 0.5)
    #expect(abs((c.presented("x") ?? 0) - 7) < 1e-6)
  }

  @Test func repeatTrueRestartsForeverAndRepeatNPlaysNTimes() throws {
    let c = try component(
      """
      tap = function(self)
        self:play(morph.keyframes { x = { morph.keyframe.move(0), morph.keyframe.linear(1, 1) } }, { ["repeat"] = true })
        self:play(morph.keyframes { y = { morph.keyframe.move(0), morph.keyframe.linear(1, 1) } }, { ["repeat"] = 2 })
      end,
      """)
    try tap(c)
    try c.advance(to: 1.5)
    #expect(abs((c.presented("x") ?? 0) - 0.5) < 1e-6)
    #expect(abs((c.presented("y") ?? 0) - 0.5) < 1e-6)
    try c.advance(to: 3.25)
    #expect(abs((c.presented("x") ?? 0) - 0.25) < 1e-6)
    #expect(c.presented("y") == 1)
    #expect(c.isContinuous && !c.isSettling)
  }

  @Test func staggerDelaysEachCopyByAStep() throws {
    let c = try component(
      """
      tap = function(self)
        local curves = morph.stagger(3, 0.25, morph.timing("linear", 1))
        self.note = tostring(#curves)
        for i, key in ipairs { "x", "y", "z" } do self:animate(curves[i], { [key] = 1 }) end
      end,
      """)
    try tap(c)
    #expect(note(c) == "3")
    try c.advance(to: 0.5)
    #expect(abs((c.presented("x") ?? 0) - 0.5) < 1e-6)
    #expect(abs((c.presented("y") ?? 0) - 0.25) < 1e-6)
    #expect(abs((c.presented("z") ?? 0) - 0) < 1e-6)
  }

  @Test func staggeredTimelinesStartOneStepApart() throws {
    let c = try component(
      """
      tap = function(self)
        local copies = morph.stagger(2, 0.5, morph.keyframes { x = { morph.keyframe.linear(1, 1) } })
        self:play(copies[1])
        self:play(morph.keyframes { y = { morph.keyframe.linear(1, 1) } }:delay(0.5))
        self.note = string.format("%d", #copies)
      end,
      """)
    try tap(c)
    try c.advance(to: 0.75)
    #expect(abs((c.presented("x") ?? 0) - 0.75) < 1e-6)
    #expect(abs((c.presented("y") ?? 0) - 0.25) < 1e-6)
    #expect(note(c) == "2")
  }

  @Test func reduceMotionPutsEveryTrackAtItsEndAtOnce() throws {
    let source = """
      return morph.component {
        state = { x = 0, note = false },
        body = function() return morph.rect() end,
        tap = function(self)
          self:play(morph.keyframes { x = { morph.keyframe.linear(5, 1), morph.keyframe.linear(3, 1) } },
            { done = function(s) s.note = "done" end })
        end,
      }
      """
    let c = try ComponentInstance(
      path: "reduced.lua", source: source, options: ComponentOptions(reduceMotion: true))
    try tap(c)
    #expect(c.presented("x") == 3)
    #expect(!c.isAnimating)
    #expect(note(c) == "done")
  }

  @Test func badUseReadsLikeLua() throws {
    let cases = [
      ("self:play(3)", "bad argument #1 to 'play' (morph.Keyframes expected, got number)"),
      (
        "self:play(morph.keyframes { note = { morph.keyframe.move(1) } })",
        "play: track 'note' must animate a number in state"
      ),
      (
        "morph.keyframes { x = { 3 } }", "track 'x' keyframe 1: morph.Keyframe expected, got number"
      ),
      ("morph.keyframe.linear(1, -1)", "duration must be >= 0, got -1.0"),
      (
        "self:play(morph.keyframes { x = { morph.keyframe.move(1) } }, { ['repeat'] = 0 })",
        "option 'repeat': true or an integer >= 1 expected"
      ),
      ("morph.stagger(2, 0.1, 5)", "bad argument #3 to 'stagger'"),
    ]
    for (code, message) in cases {
      let c = try component("tap = function(self) \(code) end,")
      do {
        try tap(c)
        Issue.record("no error for \(code)")
      } catch {
        #expect("\(error)".contains(message), "\(code): \("\(error)")")
        #expect("\(error)".hasPrefix("keyframes.lua:"), "\("\(error)")")
      }
    }
  }
}
