import Foundation
import MorphCore
import Testing

@testable import MorphScript

private func component(_ handlers: String, state: String = "x = 0, glow = 0, note = false")
  throws -> ComponentInstance
{
  let source = """
    local m = morph
    return m.component {
      state = { \(state) },
      body = function(self) return m.rect():frame(10, 10) end,
      \(handlers)
    }
    """
  return try ComponentInstance(path: "motion.lua", source: source)
}

private func tap(_ c: ComponentInstance) throws {
  try c.handle(component: "tap", .tap(at: .zero, time: c.time))
}

@Suite struct MotionVocabularyTests {
  @Test func curvesTakeSwiftUIsModifiers() throws {
    let c = try component(
      """
      tap = function(self)
        -- SwiftUI's order: speed first, so the delay is not scaled (wait 0.5 s, play 0.5 s).
        self:animate(morph.timing("linear", 1):speed(2):delay(0.5), { x = 10 })
      end,
      """)
    try tap(c)
    try c.advance(to: 0.25)
    #expect(c.presented("x") == 0)
    try c.advance(to: 0.75)
    #expect(abs((c.presented("x") ?? 0) - 5) < 1e-6)
    try c.advance(to: 1.0)
    #expect(!c.isAnimating)
  }

  @Test func repeatForeverIsDeliberateAndNeverSettles() throws {
    let c = try component(
      """
      tap = function(self)
        self:animate(morph.timing("easeInOut", 0.6):repeatForever { autoreverses = true }, { glow = 1 })
      end,
      """)
    try tap(c)
    try c.advance(to: 100)
    #expect(c.isAnimating)
    #expect(!c.isSettling)
    #expect(c.isContinuous)
  }

  @Test func aReleaseVelocityIsHandedToTheSpring() throws {
    // 1200 pt/s into a spring to 100: the curve starts with that slope.
    let c = try component(
      """
      tap = function(self)
        self:animate(morph.spring { duration = 0.4, bounce = 0 }, { x = 100 }, { velocity = { x = 1200 } })
      end,
      """)
    try tap(c)
    #expect(abs(c.engine.velocity("x", at: c.time) - 1200) < 1e-9)
    let s = Spring(duration: 0.4, bounce: 0)
    try c.advance(to: 0.1)
    let expected = s.value(target: 100, initial: 0, initialVelocity: 1200, time: 0.1)
    #expect(abs((c.presented("x") ?? 0) - expected) < 1e-9)
  }

  @Test func velocityIsReadableAndOptionsAreChecked() throws {
    let c = try component(
      """
      tap = function(self)
        self:animate(morph.spring(), { x = 1 })
        self.note = tostring(self:velocity("x"))
      end,
      """)
    try tap(c)
    #expect(c.stateValue("note").description == "0.0")
    let bad = try component(
      "tap = function(self) self:animate(morph.spring(), { x = 1 }, { speed = 2 }) end,")
    #expect(throws: ScriptError.self) { try tap(bad) }
    let stray = try component(
      "tap = function(self) self:animate(morph.spring(), { x = 1 }, { velocity = { glow = 3 } }) end,"
    )
    #expect(throws: ScriptError.self) { try tap(stray) }
  }

  @Test func aBodyThatReadsTheClockKeepsDrawing() throws {
    let source = """
      return morph.component {
        body = function(self) return morph.rect():rotate(self.time * 90) end,
      }
      """
    let c = try ComponentInstance(path: "spinner.lua", source: source)
    _ = try c.view()
    #expect(c.readsClock)
    #expect(c.isAnimating)
    #expect(!c.isSettling)
    try c.advance(to: 0.5)
    let rotation = try c.view().root.modifiers.first
    guard case .rotate(let degrees, _)? = rotation else {
      Issue.record("no rotation: \(String(describing: rotation))")
      return
    }
    #expect(degrees == 45)
  }
}
