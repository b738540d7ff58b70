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
    try expectErrors(cases) { try component($0) }
  }
}

/// Each case's code, run in a tap, fails with its message at a line of the plugin.
private func expectErrors(
  _ cases: [(String, String)], _ make: (String) throws -> ComponentInstance
) throws {
  for (code, message) in cases {
    let c = try make("tap = function(self) \(code) end,")
    do {
      try tap(c)
      Issue.record("no error for \(code)")
    } catch {
      #expect("\(error)".contains(message), "\(code): \("\(error)")")
      #expect("\(error)".hasPrefix("keyframes.lua:"), "\("\(error)")")
    }
  }
}

/// The state every composite-keyframe case animates.
private func composite(_ handlers: String) throws -> ComponentInstance {
  try component(
    handlers,
    state: """
      pos = { x = 0, y = 0 }, box = { width = 10, height = 20 }, tint = m.color "#FFFFFF",
      bars = { 0, 0, 0 }, scale = 1
      """)
}

/// Keyframe tracks whose values are points, sizes, colours and arrays, as a
/// SwiftUI `KeyframeAnimator` animates any `Animatable` value.
@Suite struct CompositeKeyframeBindingTests {
  @Test func aPointTrackScrubsToTheMidpoint() throws {
    let c = try composite(
      """
      tap = function(self)
        local t = m.keyframes({ pos = { k.linear({ x = 100, y = 50 }, 1) } }, { pos = { x = 0, y = 0 } })
        local p, all = t:value(0.5, "pos"), t:value(0.5)
        self.note = string.format("%g %g %g %g %g", p.x, p.y, all.pos.x, k.linear({ x = 1, y = 2 }, 1).to.y,
          t.duration)
      end,
      """)
    try tap(c)
    #expect(note(c) == "50 25 50 2 1")
  }

  @Test func aColourTrackScrubsToAColour() throws {
    let c = try composite(
      """
      tap = function(self)
        local red = m.color "#FF0000"
        local t = m.keyframes({ tint = { k.cubic(red, 0.5), k.cubic(m.color "#0000FF", 0.5) } },
          { tint = m.color "#FFFFFF" })
        local v = t:value(0.5, "tint")
        self.note = string.format("%s %.3f %.3f %.3f", tostring(v):sub(1, 7), v.r, v.g, v.b)
      end,
      """)
    try tap(c)
    #expect(note(c) == "#FF0000 1.000 0.000 0.000")
  }

  /// Playing a composite track drives every channel of the state key, each
  /// from its own presented value, as `animate` does.
  @Test func playingAPointTrackMovesTheWholePoint() throws {
    let c = try composite(
      """
      tap = function(self)
        self:play(m.keyframes { pos = { k.linear({ x = 100, y = 50 }, 1) },
          bars = { k.linear({ 3, 6, 9 }, 1) }, box = { k.move({ width = 1, height = 2 }) } })
      end,
      """)
    try tap(c)
    try c.advance(to: 0.5)
    #expect(abs((c.presented("pos.x") ?? 0) - 50) < 1e-6)
    #expect(abs((c.presented("pos.y") ?? 0) - 25) < 1e-6)
    #expect(abs((c.presented("bars.2") ?? 0) - 3) < 1e-6)
    #expect(c.presented("box.height") == 2)
    try c.advance(to: 1)
    #expect(c.target("pos.x") == 100 && c.target("bars.3") == 9)
  }

  @Test func aColourTrackPlaysThroughTheSameChannelsAsAnimate() throws {
    let c = try composite(
      "tap = function(self) self:play(m.keyframes { tint = { k.linear(m.color \"#000000\", 1) } }) end,"
    )
    try tap(c)
    try c.advance(to: 0.5)
    let white = Color.white.animatableChannels
    let black = Color.black.animatableChannels
    #expect(abs((c.presented("tint.l") ?? 0) - (white[0] + black[0]) / 2) < 1e-6)
  }

  @Test func reduceMotionPutsACompositeTrackAtItsEndAtOnce() throws {
    let source = """
      return morph.component {
        state = { pos = { x = 0, y = 0 } },
        body = function() return morph.rect() end,
        tap = function(self)
          self:play(morph.keyframes { pos = { morph.keyframe.linear({ x = 5, y = 6 }, 1),
            morph.keyframe.cubic({ x = 3, y = 4 }, 1) } })
        end,
      }
      """
    let c = try ComponentInstance(
      path: "reduced.lua", source: source, options: ComponentOptions(reduceMotion: true))
    try tap(c)
    #expect(c.presented("pos.x") == 3 && c.presented("pos.y") == 4)
    #expect(!c.isAnimating)
  }

  /// Spring velocity per component, in the value's shape.
  @Test func springStartVelocityHasTheValuesShape() throws {
    let c = try composite(
      """
      tap = function(self)
        self:play(m.keyframes { pos = { k.spring({ x = 0, y = 0 }, { duration = 1,
          startVelocity = { x = 300, y = -40 } }) } })
        local v = self:velocity("pos")
        self.note = string.format("%g %g", v.x, v.y)
      end,
      """)
    try tap(c)
    #expect(note(c) == "300 -40")
  }

  @Test func mistakesNameTheKeyframeAndTheKinds() throws {
    let cases = [
      (
        "m.keyframes { pos = { k.linear({ x = 1, y = 2 }, 1), k.linear({ width = 1, height = 2 }, 1) } }",
        "track 'pos' keyframe 2 is a size {width, height}, but keyframe 1 is a point {x, y}"
      ),
      (
        "self:play(m.keyframes { box = { k.linear({ x = 1, y = 2 }, 1) } })",
        "play: track 'box' animates a point {x, y}; state 'box' is a size {width, height}"
      ),
      (
        "self:play(m.keyframes { pos = { k.linear(5, 1) } })",
        "play: track 'pos' animates a number; state 'pos' is a point {x, y}"
      ),
      (
        "self:play(m.keyframes { scale = { k.linear({ x = 1, y = 2 }, 1) } })",
        "play: track 'scale' animates a point {x, y}; state 'scale' is a number"
      ),
      (
        "self:play(m.keyframes { note = { k.linear({ x = 1, y = 2 }, 1) } })",
        "play: track 'note' animates a point {x, y}; state 'note' is not animatable"
      ),
      (
        "self:play(m.keyframes { bars = { k.linear({ 1, 2 }, 1) } })",
        "play: track 'bars' animates an array of 2 numbers; state 'bars' is an array of 3 numbers"
      ),
      ("k.linear({ x = 1 }, 1)", "bad argument #1 to 'linear' (number, point {x, y}"),
      (
        "k.spring({ x = 1, y = 2 }, { startVelocity = 3 })",
        "option 'startVelocity': a point {x, y} like the target expected, got number"
      ),
      (
        "m.keyframes({ pos = { k.move({ x = 1, y = 2 }) } }, { pos = 3 })",
        "initial value for 'pos' is a number; its track animates a point {x, y}"
      ),
    ]
    try expectErrors(cases, composite)
  }
}
