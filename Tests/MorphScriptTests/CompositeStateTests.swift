import Foundation
import MorphCore
import Testing

@testable import MorphScript

private func component(_ handlers: String, state: String) throws -> ComponentInstance {
  let source = """
    local m = morph
    return m.component {
      state = { \(state), note = false },
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

/// Points, sizes, rects, colours and arrays animate like numbers, one engine
/// channel per field, each with its own velocity (SwiftUI's
/// `AnimatablePair`/`VectorArithmetic`: every component interpolates alike).
@Suite struct CompositeStateTests {
  @Test func aPointAnimatesAsTwoChannels() throws {
    let c = try component(
      """
      tap = function(self)
        self:animate(morph.timing("linear", 1), { pos = { x = 100, y = 50 } })
      end,
      drag = function(self)
        self.note = string.format("%g %g %g", self.pos.x, self.pos.y, self.target.pos.x)
      end,
      """, state: "pos = { x = 0, y = 0 }")
    #expect(c.engine.channels.keys.sorted() == ["pos.x", "pos.y"])
    try tap(c)
    try c.advance(to: 0.5)
    #expect(abs((c.presented("pos.x") ?? 0) - 50) < 1e-6)
    #expect(abs((c.presented("pos.y") ?? 0) - 25) < 1e-6)
    try c.handle(component: "drag", .tap(at: .zero, time: c.time))
    #expect(note(c) == "50 25 100")
  }

  @Test func sizesRectsAndArraysAreDeclaredByTheirShape() throws {
    let c = try component(
      """
      tap = function(self)
        self.box = { x = 1, y = 2, width = 3, height = 4 }
        self:animate(morph.timing("linear", 1), { bars = { 10, 20, 30 }, frame = { width = 8, height = 6 } })
      end,
      """,
      state:
        "box = { x = 0, y = 0, width = 0, height = 0 }, bars = { 0, 0, 0 }, frame = { width = 0, height = 0 }"
    )
    #expect(
      c.engine.channels.keys.sorted() == [
        "bars.1", "bars.2", "bars.3", "box.height", "box.width", "box.x", "box.y", "frame.height",
        "frame.width",
      ])
    try tap(c)
    #expect(c.target("box.width") == 3)
    try c.advance(to: 0.5)
    #expect(abs((c.presented("bars.3") ?? 0) - 15) < 1e-6)
    #expect(abs((c.presented("frame.width") ?? 0) - 4) < 1e-6)
  }

  @Test func aValueOfAnotherShapeIsRefused() throws {
    let c = try component(
      "tap = function(self) self.pos = { x = 1 } end,", state: "pos = { x = 0, y = 0 }")
    #expect(throws: ScriptError.self) { try tap(c) }
    do {
      try tap(c)
    } catch {
      #expect("\(error)".contains("state 'pos' is a point {x, y}; got table"))
    }
    let d = try component(
      "tap = function(self) self.tint = 3 end,", state: "tint = morph.color(\"red\")")
    #expect(throws: ScriptError.self) { try tap(d) }
  }

  @Test func aColourAnimatesThroughPremultipliedOKLab() throws {
    let c = try component(
      """
      tap = function(self) self:animate(morph.timing("linear", 1), { tint = morph.color("#00FF00") }) end,
      drag = function(self) self.note = self.tint.hex end,
      """, state: "tint = morph.color(\"#FF0000\")")
    try tap(c)
    try c.advance(to: 0.5)
    let red = Color(red: 1, green: 0, blue: 0).animatableChannels
    let green = Color(red: 0, green: 1, blue: 0).animatableChannels
    let mid = Color(animatableChannels: zip(red, green).map { ($0 + $1) / 2 })
    try c.handle(component: "drag", .tap(at: .zero, time: c.time))
    #expect(note(c) == mid.hex)
    // Not the sRGB blend, which dips to a dark olive.
    #expect(note(c) != Color(red: 0.5, green: 0.5, blue: 0).hex)
  }

  @Test func velocityHasTheKeysShapeAndAReleaseVelocityIsPerField() throws {
    let c = try component(
      """
      tap = function(self)
        self:animate(morph.spring { duration = 0.5 }, { pos = { x = 100, y = 0 } },
          { velocity = { pos = { x = 900, y = -300 } } })
        local v = self:velocity("pos")
        self.note = string.format("%g %g", v.x, v.y)
      end,
      """, state: "pos = { x = 0, y = 0 }")
    try tap(c)
    #expect(note(c) == "900 -300")
    #expect(c.engine.velocity("pos.y", at: c.time) == -300)
  }

  @Test func hotReloadCarriesCompositeKeys() throws {
    let source = """
      return morph.component {
        state = { pos = { x = 0, y = 0 } },
        body = function() return morph.rect() end,
        tap = function(self) self:animate(morph.timing("linear", 1), { pos = { x = 100, y = 100 } }) end,
      }
      """
    let c = try ComponentInstance(path: "reload.lua", source: source)
    try tap(c)
    try c.advance(to: 0.25)
    try c.reload(source: source.replacingOccurrences(of: "morph.rect()", with: "morph.circle()"))
    #expect(abs((c.presented("pos.x") ?? 0) - 25) < 1e-6)
    #expect(c.target("pos.y") == 100)
    try c.advance(to: 0.5)
    #expect(abs((c.presented("pos.y") ?? 0) - 50) < 1e-6)
  }
}
