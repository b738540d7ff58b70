import Foundation
import Testing

@testable import MorphScript

/// Runs `code` and returns its first result as a number.
private func number(_ code: String) throws -> Double {
  let state = try LuaState()
  switch try state.evaluate(code, chunkName: "b.lua").first {
  case .number(let n)?: return n
  case .integer(let i)?: return Double(i)
  case let other:
    throw ScriptError(kind: .value, message: "not a number: \(String(describing: other))")
  }
}

private func string(_ code: String) throws -> String {
  let state = try LuaState()
  guard case .string(let s)? = try state.evaluate(code, chunkName: "b.lua").first else {
    throw ScriptError(kind: .value, message: "not a string")
  }
  return s
}

/// The one-line error `code` raises.
private func errorText(_ code: String) throws -> String {
  let state = try LuaState()
  do {
    _ = try state.evaluate(code, chunkName: "b.lua")
  } catch {
    return error.description
  }
  return "no error"
}

@Suite struct ScalarBindingTests {
  @Test func scalars() throws {
    #expect(try number("return morph.lerp(10, 20, 0.25)") == 12.5)
    #expect(try number("return morph.clamp(5, 0, 1)") == 1)
    #expect(try number("return morph.clamp(-0.5)") == 0)
    #expect(try number("return morph.remap(5, 0, 10, 100, 200)") == 150)
    #expect(try number("return morph.smoothstep(0, 1, 0.5)") == 0.5)
    #expect(try number("return morph.deg(math.pi)") == 180)
    #expect(try number("return morph.angleDelta(350, 10)") == 20)
  }

  @Test func hashMatchesTheTicketSeed() throws {
    let x = sin(3 * 12.9898) * 43758.5453
    #expect(try number("return morph.hash(3)") == x - x.rounded(.down))
  }

  @Test func badArgumentsReadLikeLua() throws {
    #expect(
      try errorText("return morph.lerp(1, 'x', 2)")
        == "b.lua:1: bad argument #2 to 'lerp' (number expected, got string)")
    #expect(
      try errorText("return morph.lerp(1, 2)")
        == "b.lua:1: bad argument #3 to 'lerp' (number expected, got no value)")
    #expect(
      try errorText("return morph.lerp(0/0, 1, 0)")
        == "b.lua:1: bad argument #1 to 'lerp' (number expected, got nan)")
    #expect(
      try errorText("return morph.clamp(1, 2, 0)")
        == "b.lua:1: bad argument #3 to 'clamp' (upper bound 0.0 is below lower bound 2.0)")
  }
}

@Suite struct EasingBindingTests {
  @Test func easingsAreCallableBothWays() throws {
    #expect(abs(try number("return morph.ease.outBack(0.5)") - 1.0876975) < 1e-9)
    #expect(abs(try number("return morph.ease.outBack(0.5, 10, 20, 1)") - 31.75395) < 1e-6)
    #expect(try number("local n = 0 for _ in pairs(morph.ease) do n = n + 1 end return n") == 41)
  }

  @Test func bezierAndTiming() throws {
    #expect(try number("return morph.bezier(0, 0, 1, 1)(0.3)") - 0.3 < 1e-6)
    #expect(try number("return morph.timing('easeIn', 2):at(2)") == 1)
    #expect(try number("return morph.easeInOut(0.5).duration") == 0.5)
    #expect(try number("return morph.linear().duration") == 0.35)
    #expect(try string("return tostring(morph.bezier('easeOut'))") == "bezier(0.0, 0.0, 0.58, 1.0)")
    #expect(
      try errorText("return morph.bezier(1.5, 0, 1, 1)")
        == "b.lua:1: bad argument #1 to 'bezier' (control point x must be in [0, 1], got 1.5)")
    #expect(
      try errorText("return morph.timing('fast', 1)")
        == "b.lua:1: bad argument #1 to 'timing' (invalid option 'fast'; expected one of "
        + "'linear', 'ease', 'easeIn', 'easeOut', 'easeInOut')")
  }
}

@Suite struct SpringBindingTests {
  @Test func appleSpringParameters() throws {
    #expect(
      abs(try number("return morph.spring{duration = 0.5, bounce = 0.3}.stiffness") - 157.91) < 0.01
    )
    #expect(
      abs(try number("return morph.spring{duration = 0.5, bounce = 0.3}.damping") - 17.59) < 0.01)
    #expect(
      abs(
        try number("return morph.spring{response = 0.46, dampingFraction = 0.74}.dampingRatio")
          - 0.74) < 1e-12)
    #expect(try number("return morph.interactiveSpring().blendDuration") == 0.25)
    #expect(
      try string(
        "return tostring(morph.interpolatingSpring{stiffness = 300, damping = 40}.additive)")
        == "true")
  }

  @Test func valueVelocityStepAndSettle() throws {
    let value = try number("return morph.spring('smooth'):value(5)")
    #expect(abs(value - 1) < 1e-6)
    let stepped = try number(
      "local s = morph.spring() local v, u = 0, 0 for _ = 1, 60 do v, u = s:step(v, u, 1, 1/60) end "
        + "return v - s:value(1)")
    #expect(abs(stepped) < 1e-9)
    let settle = try number(
      "return morph.spring{response = 0.5, dampingRatio = 1}.settlingDuration")
    #expect(settle > 0.73 && settle < 0.75)
  }

  /// SwiftUI's `Spring(mass:stiffness:damping:allowOverDamping:)` treats a
  /// damping above critical (2√(km)) as critical unless over-damping is
  /// allowed, and `interpolatingSpring` samples the critical curve when
  /// ζ ≥ 1. Critical from rest: x(t) = 1 − (1 + ω₀t)e^(−ω₀t).
  @Test func overdampedSpringsFollowSwiftUI() throws {
    func critical(_ w0: Double, _ t: Double) -> Double { 1 - (1 + w0 * t) * exp(-w0 * t) }
    let clamped = try number(
      "return morph.spring{mass = 1, stiffness = 100, damping = 30}:value(0.32, 0, 1, 0)")
    #expect(abs(clamped - critical(10, 0.32)) < 1e-12)
    #expect(abs(clamped - 0.828_80) < 1e-5)
    // Allowed: the overdamped curve, roots −(15 ± 5√5).
    let over = try number(
      "return morph.spring{stiffness = 100, damping = 30, allowOverDamping = true}:value(0.32)")
    let r1 = -15 + 5 * 5.0.squareRoot()
    let r2 = -15 - 5 * 5.0.squareRoot()
    let expected = 1 - (r2 * exp(r1 * 0.32) - r1 * exp(r2 * 0.32)) / (r2 - r1)
    #expect(abs(over - expected) < 1e-12)
    #expect(abs(over - 0.655_17) < 1e-5)
    let snap = try number(
      "return morph.interpolatingSpring{stiffness = 300, damping = 40}:value(0.18, 0, 1, 0)")
    #expect(abs(snap - critical(300.0.squareRoot(), 0.18)) < 1e-12)
    #expect(abs(snap - 0.817_75) < 1e-5)
    // Under critical nothing changes.
    #expect(
      try number("return morph.spring{stiffness = 100, damping = 10}.dampingRatio") == 0.5)
  }

  @Test func springOptionsAreChecked() throws {
    #expect(
      try errorText("return morph.spring{respons = 1}").hasPrefix(
        "b.lua:1: bad argument #1 to 'spring' (unknown option 'respons' (did you mean 'response'?); "
          + "valid options: duration,"))
    #expect(
      try errorText("return morph.spring{response = -1}")
        == "b.lua:1: bad argument #1 to 'spring' (option 'response' must be a finite number > 0, got -1.0)"
    )
    #expect(
      try errorText("return morph.interpolatingSpring{damping = 1}")
        == "b.lua:1: bad argument #1 to 'interpolatingSpring' (option 'stiffness' is required)")
    #expect(
      try errorText("return morph.spring():value('x')")
        == "b.lua:1: bad argument #1 to 'value' (number expected, got string)")
  }

  /// Only SwiftUI's parameter sets (issue 34): `{response, damping}` ran at ζ 0.825 and
  /// `{duration, dampingFraction}` at ζ 1, silently; now each is an error naming the sets.
  @Test func springParameterSetsDoNotMix() throws {
    let sets =
      "a spring takes one of {duration, bounce}, {response, dampingRatio | dampingFraction}, "
      + "{mass, stiffness, damping, allowOverDamping}, {settlingDuration, dampingRatio, epsilon} "
      + "(each may add blendDuration), or a preset name (default, smooth, snappy, bouncy, interactive))"
    #expect(
      try errorText("local s = 1\nreturn morph.spring{response = 0.5, damping = 0.8}")
        == "b.lua:2: bad argument #1 to 'spring' (options 'response', 'damping' mix parameter sets; "
        + sets)
    #expect(
      try errorText("return morph.spring{duration = 0.5, dampingFraction = 0.5}")
        == "b.lua:1: bad argument #1 to 'spring' (options 'duration', 'dampingFraction' mix parameter sets; "
        + sets)
    #expect(
      try errorText("return morph.spring{dampingRatio = 0.5, dampingFraction = 0.5}").contains(
        "are the same parameter"))
    #expect(
      try errorText("return morph.spring{mass = 2}").contains("option 'stiffness' is required"))
    // Each set alone, with blendDuration.
    #expect(try number("return morph.spring{dampingFraction = 0.5}.dampingRatio") == 0.5)
    let response = try number(
      "return morph.spring{response = 0.3, dampingRatio = 0.7, blendDuration = 0.1}.response")
    #expect(abs(response - 0.3) < 1e-12)
    #expect(try number("return morph.spring{bounce = 0.2}.dampingRatio") == 0.8)
  }

  /// `Spring(settlingDuration:dampingRatio:epsilon:)`: the spring that settles then.
  @Test func aSpringFromItsSettlingDuration() throws {
    let settle = try number(
      "return morph.spring{settlingDuration = 0.8, dampingRatio = 0.6}.settlingDuration")
    #expect(abs(settle - 0.8) < 1e-9)
    let ratio = try number(
      "return morph.spring{settlingDuration = 1, dampingRatio = 0.6}.dampingRatio")
    #expect(abs(ratio - 0.6) < 1e-12)
    #expect(
      try errorText("return morph.spring{settlingDuration = 1}").contains(
        "option 'dampingRatio' is required"))
  }

  @Test func metatablesAreProtected() throws {
    #expect(try string("return getmetatable(morph.spring())") == "morph.Spring")
    #expect(
      try errorText("return morph.spring().value(42, 1)")
        == "b.lua:1: calling 'value' on bad self (morph.Spring expected, got number)")
  }
}

@Suite struct ColorBindingTests {
  @Test func coloursFromEveryForm() throws {
    #expect(try string("return tostring(morph.color('#2F6FED'))") == "#2F6FEDFF")
    #expect(try string("return morph.color(1, 0, 0, 0.5).hex") == "#FF000080")
    #expect(try string("return tostring(morph.color('red'):opacity(0.5))") == "#FF3B3080")
    #expect(try string("return tostring(morph.color('#000'):mix('#FFF', 0.5))") == "#808080FF")
    #expect(try string("return tostring(morph.color(1, 1) == morph.color('#FFF'))") == "true")
  }

  @Test func badColoursListTheForms() throws {
    #expect(
      try errorText("return morph.color('#12')").contains("expected #RGB, #RRGGBB, #RRGGBBAA"))
    #expect(
      try errorText("return morph.color(2, 0, 0)")
        == "b.lua:1: bad argument #1 to 'color' (colour component must be in [0, 1], got 2.0)")
  }
}

@Suite struct PathBindingTests {
  @Test func builderChainsAndMeasures() throws {
    let code = """
      local p = morph.path(function(p) p:move(0, 0):line(10, 0):quad(10, 10, 0, 10):close() end)
      local x, y, w, h = p:bounds()
      return x + y * 10 + w * 100 + h * 1000
      """
    #expect(try number(code) == 10 * 100 + 10 * 1000)
  }

  @Test func shapesAndQueries() throws {
    #expect(
      try number("return select(4, morph.paths.roundedRect(0, 0, 96, 132, 16):bounds())") == 132)
    #expect(try number("return select(3, morph.paths.circle(10, 10, 5):bounds())") == 10)
    #expect(try string("return tostring(morph.paths.rect(0, 0, 10, 10):contains(5, 5))") == "true")
    #expect(try number("return #morph.paths.rect(0, 0, 4, 4):flatten()[1]") == 5)
    #expect(
      try number("return select(1, morph.paths.rect(0, 0, 4, 4):translated(3, 0):bounds())") == 3)
  }

  @Test func trimmedAndLength() throws {
    #expect(try number("return morph.paths.rect(0, 0, 10, 30):length()") == 80)
    #expect(try number("return morph.paths.rect(0, 0, 10, 30):trimmed(0, 0.5):length()") == 40)
    #expect(
      try number("return select(4, morph.paths.rect(0, 0, 10, 30):trimmed(0, 0.5):bounds())") == 30)
    #expect(try number("return morph.paths.rect(0, 0, 10, 30):trimmed(0.75):length()") == 20)
    #expect(try number("return morph.paths.rect(0, 0, 10, 30):trimmed(0.6, 0.2):length()") == 0)
    #expect(
      try errorText("local p = morph.paths.rect(0, 0, 1, 1):trimmed(0/0)")
        == "b.lua:1: bad argument #1 to 'trimmed' (number expected, got nan)")
  }

  @Test func pathErrors() throws {
    #expect(
      try errorText("local p = morph.path(3)")
        == "b.lua:1: bad argument #1 to 'path' (function expected, got number)")
    #expect(
      try errorText("return morph.paths.roundedRect(0, 0, 10, 10, 2, 'squircle')")
        == "b.lua:1: bad argument #6 to 'roundedRect' (invalid option 'squircle'; expected one of "
        + "'continuous', 'circular')")
    #expect(
      try errorText("return morph.paths.rect(0, 0, -1, 10)")
        == "b.lua:1: bad argument #3 to 'rect' (width must be >= 0, got -1.0)")
    #expect(
      try errorText("morph.path(function(p) p:line(1, math.huge) end)")
        == "b.lua:1: bad argument #2 to 'line' (finite number expected, got inf)")
  }
}

@Suite struct MeasureTextBindingTests {
  /// A plain LuaState measures with the 0.6 em per character approximation.
  @Test func measuresWithTheStatesMeasure() throws {
    #expect(try number("return morph.measureText('abc', {size = 10}).width") == 18)
    #expect(try number("return morph.measureText('abc', {size = 10}).height") == 12)
    #expect(try number("return morph.measureText('abc', {size = 10}).baseline") == 10)
    #expect(try number("return morph.measureText(12345).width") == 5 * 17 * 0.6)
  }

  @Test func aBadStyleReadsLikeText() throws {
    #expect(
      try errorText("morph.measureText('a', {weight = 'extraBold'})").hasPrefix(
        "b.lua:1: bad argument #2 to 'measureText' (option 'weight': "))
    #expect(
      try errorText("morph.measureText('a', {font = 1})").hasPrefix(
        "b.lua:1: bad argument #2 to 'measureText' (unknown option 'font'"))
    #expect(
      try errorText("morph.measureText({})")
        == "b.lua:1: bad argument #1 to 'measureText' (string expected, got table)")
  }
}
