import Foundation
import MorphCore
import Testing

@testable import MorphScript

private func component(_ handlers: String) throws -> ComponentInstance {
  let source = """
    local m, k = morph, morph.keyframe
    return m.component {
      state = { pos = { x = 0, y = 0 }, box = { width = 10, height = 20 }, tint = m.color "#FFFFFF",
        bars = { 0, 0, 0 }, scale = 1, note = false },
      body = function(self) return m.rect():frame(10, 10) end,
      \(handlers)
    }
    """
  return try ComponentInstance(path: "composite.lua", source: source)
}

private func tap(_ c: ComponentInstance) throws {
  try c.handle(component: "tap", .tap(at: .zero, time: c.time))
}

private func note(_ c: ComponentInstance) -> String {
  if case .string(let s) = c.stateValue("note") { return s }
  return ""
}

/// Keyframe tracks whose values are points, sizes, colours and arrays, as a
/// SwiftUI `KeyframeAnimator` animates any `Animatable` value.
@Suite struct CompositeKeyframeBindingTests {
  @Test func aPointTrackScrubsToTheMidpoint() throws {
    let c = try component(
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
    let c = try component(
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
    let c = try component(
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
    let c = try component(
      "tap = function(self) self:play(m.keyframes { tint = { k.linear(m.color \"#000000\", 1) } }) end,"
    )
    try tap(c)
    try c.advance(to: 0.5)
    let white = Color.white.animatableChannels
    let black = Color.black.animatableChannels
    #expect(abs((c.presented("tint.l") ?? 0) - (white[0] + black[0]) / 2) < 1e-6)
  }

  /// Spring velocity per component, in the value's shape.
  @Test func springStartVelocityHasTheValuesShape() throws {
    let c = try component(
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
    for (code, message) in cases {
      let c = try component("tap = function(self) \(code) end,")
      do {
        try tap(c)
        Issue.record("no error for \(code)")
      } catch {
        #expect("\(error)".contains(message), "\(code): \("\(error)")")
        #expect("\(error)".hasPrefix("composite.lua:"), "\("\(error)")")
      }
    }
  }
}
