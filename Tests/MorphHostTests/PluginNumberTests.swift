import Foundation
import MorphCore
import MorphRender
import MorphScript
import Testing

@testable import MorphHost

/// Every number a plugin or an input script hands the host, driven with the values that
/// trap a careless `Int(x)` or overflow: each call either works, and then the component
/// runs through a frame drawn by Cairo, or fails with one clear line. A trap would end the
/// test process. Here rather than in MorphScriptTests because a frame must be drawn too.
@Suite struct PluginNumberTests {
  /// As Lua literals: huge, tiny, signed zero, NaN, infinities, a denormal, 2^53, 2^63 and
  /// Lua's integer extremes.
  static let values = [
    "1e6", "1e300", "-1e300", "-0.0", "(0/0)", "math.huge", "-math.huge", "4.9e-324", "2^53",
    "2^63", "math.maxinteger", "math.mininteger",
  ]

  static let rect = "m.rect():fill(m.color'#f00')"

  /// The body's node, `V` standing for the value.
  static let bodies: [(String, String)] = [
    ("frame", "\(rect):frame(V, V)"),
    ("frame{}", "\(rect):frame{ width = V, height = V }"),
    ("frame{max}", "\(rect):frame{ minWidth = V, maxWidth = V, minHeight = V, maxHeight = V }"),
    ("padding", "\(rect):padding(V)"),
    ("padding{}", "\(rect):padding{ top = V, leading = V, horizontal = V }"),
    ("offset", "\(rect):frame(20, 20):offset(V, V)"),
    ("position", "\(rect):frame(20, 20):position(V, V)"),
    ("scale", "\(rect):frame(20, 20):scale(V)"),
    ("scale x y", "\(rect):frame(20, 20):scale(V, 1)"),
    ("rotate", "\(rect):frame(20, 20):rotate(V)"),
    ("rotate3d", "\(rect):frame(20, 20):rotate3d(V)"),
    ("rotate3d axis", "\(rect):frame(20, 20):rotate3d(30, { axis = { V, 1, 0 } })"),
    ("rotate3d perspective", "\(rect):frame(20, 20):rotate3d(30, { perspective = V })"),
    ("opacity", "\(rect):frame(20, 20):opacity(V)"),
    ("z", "m.zstack{ \(rect):z(V), m.circle():z(1) }"),
    ("stroke width", "m.circle():stroke(m.color'#00f', V):frame(20, 20)"),
    ("dash", "m.circle():stroke{ color = m.color'#00f', width = 2, dash = { V, V } }"),
    ("dashPhase", "m.circle():stroke{ color = m.color'#00f', dash = { 3, 2 }, dashPhase = V }"),
    ("shadow radius", "\(rect):frame(20, 20):shadow{ radius = V }"),
    ("shadow x y", "\(rect):frame(20, 20):shadow{ radius = 2, x = V, y = V }"),
    ("blur", "\(rect):frame(20, 20):blur(V)"),
    ("trim", "m.circle():trim(V, V):stroke(m.color'#00f', 2):frame(20, 20)"),
    ("cornerRadius", "m.roundedRect(V):fill(m.color'#0f0'):frame(30, 30)"),
    ("spacer", "m.hstack{ m.spacer(V), \(rect) }"),
    ("spacing", "m.vstack{ spacing = V, \(rect), \(rect) }"),
    (
      "radialGradient",
      "m.rect():fill(m.radialGradient{ colors = { m.color'#f00', "
        + "m.color'#00f' }, startRadius = V, endRadius = V })"
    ),
    (
      "angularGradient",
      "m.rect():fill(m.angularGradient{ colors = { m.color'#f00', "
        + "m.color'#00f' }, startAngle = V, endAngle = V })"
    ),
    (
      "gradient stop",
      "m.rect():fill(m.linearGradient{ stops = { { "
        + "m.color'#f00', 0 }, { m.color'#00f', V } } })"
    ),
    ("color", "m.rect():fill(m.color(V, V, V, V))"),
    ("color:opacity", "m.rect():fill(m.color'#f00':opacity(V))"),
    ("color:mix", "m.rect():fill(m.color'#f00':mix(m.color'#00f', V))"),
    (
      "path move",
      "m.shape(m.path():move(V, V):line(10, "
        + "10):line(V, 0):close()):fill(m.color'#f00')"
    ),
    ("path arc", "m.shape(m.path():arc(V, V, V, 0, V)):stroke(m.color'#f00', 1)"),
    (
      "path cubic",
      "m.shape(m.path():move(0, 0):cubic(V, V, "
        + "1, V, 10, 10)):stroke(m.color'#f00', 1)"
    ),
    ("path quad", "m.shape(m.path():move(0, 0):quad(V, V, 10, 10)):stroke(m.color'#f00', 1)"),
    ("path rect", "m.shape(m.path():rect(0, 0, V, V)):fill(m.color'#f00')"),
    (
      "path transforms",
      "m.shape(m.path():rect(0, 0, 10, "
        + "10):scaled(V):rotated(V):translated(V, V))"
    ),
    (
      "path flatten",
      "(function() m.path():move(0, 0):cubic(5, 5, 1, "
        + "9, 10, 10):flatten(V) return m.rect() end)()"
    ),
    (
      "path contains",
      "(function() m.path():rect(0, 0, 10, "
        + "10):contains(V, V) return m.rect() end)()"
    ),
    ("path function", "m.shape(function(r) return m.path():rect(0, 0, r.width * V, r.height) end)"),
    ("paths", "m.shape(m.paths.roundedRect(0, 0, V, V, V)):fill(m.color'#f00')"),
    ("hashInt", "(function() m.hashInt(V) m.hashInt(1, V) return m.rect() end)()"),
    (
      "scalars",
      "(function() m.hash(V) m.fract(V) m.wrapDegrees(V) "
        + "m.angleDelta(V, 1) return m.rect() end)()"
    ),
    ("remap clamp", "(function() m.remap(V, 0, V, 0, 1) m.clamp(V, 0, 1) return m.rect() end)()"),
    (
      "bezier",
      "(function() local b = m.bezier(0.2, V, 0.3, "
        + "V) b(V) b:solve(V) return m.rect() end)()"
    ),
    (
      "timing",
      "(function() m.timing(0.1, V, 0.3, V, V)(0.5) "
        + "m.timing('linear', 0.2)(V) return m.rect() end)()"
    ),
    (
      "spring",
      "(function() local s = m.spring{ duration = V } s:value(V) "
        + "s:velocity(V) s:settle() return m.rect() end)()"
    ),
    (
      "spring response",
      "(function() m.spring{ response = V, dampingFraction "
        + "= V }:settle() return m.rect() end)()"
    ),
    (
      "spring bounce",
      "(function() m.spring{ duration = 0.5, bounce "
        + "= V }:settle() return m.rect() end)()"
    ),
    (
      "interpolatingSpring",
      "(function() m.interpolatingSpring{ stiffness = V, "
        + "damping = V, mass = V }:settle() return m.rect() end)()"
    ),
    (
      "interactiveSpring",
      "(function() m.interactiveSpring{ response "
        + "= V }:settle() return m.rect() end)()"
    ),
    (
      "spring step",
      "(function() m.spring{ duration = 0.5 "
        + "}:step(V, 0, 1, 0) return m.rect() end)()"
    ),
    ("stagger", "(function() m.stagger(3, V, m.spring{}) return m.rect() end)()"),
    ("lineLimit", "m.text('hi there\\nand more', { lineLimit = V })"),
    ("text size", "m.text('hi', { size = V })"),
    ("measureText size", "m.text(tostring(m.measureText('hi', { size = V }).width))"),
    ("text tracking", "m.text('hi', { tracking = V, lineSpacing = math.abs(V) })"),
    ("state", "\(rect):frame(20, 20):offset(self.x, self.x)"),
  ]

  /// What the tap handler does with `V`; the component then plays a minute of ticks.
  static let taps: [(String, String)] = [
    ("animate target", "self:animate(m.spring{}, { x = V })"),
    ("delay", "self:animate(m.spring{}:delay(V), { x = 10 })"),
    ("speed", "self:animate(m.spring{}:speed(V), { x = 10 })"),
    ("repeatCount", "self:animate(m.timing('linear', 0.2):repeatCount(V), { x = 10 })"),
    ("timing duration", "self:animate(m.timing('linear', V), { x = 10 })"),
    ("spring duration", "self:animate(m.spring{ duration = V }, { x = 10 })"),
    ("assign", "self.x = V"),
    (
      "keyframes",
      "self:play(m.keyframes{ x = { m.keyframe.linear(V, 0.2), "
        + "m.keyframe.spring(V, { duration = V }), m.keyframe.cubic(V, V) } })"
    ),
    (
      "play repeat",
      "self:play(m.keyframes{ x = { m.keyframe.linear(1, "
        + "0.2) } }, { ['repeat'] = V })"
    ),
  ]

  /// The component's own definition.
  static let definitions: [(String, String)] = [
    ("size", "size = { V, V }"),
    ("progressRange", "progressRange = { 0, V }"),
  ]

  static func plugin(body: String = "m.rect()", tap: String = "", field: String = "") -> String {
    """
    local m = morph
    return m.component {
      \(field.isEmpty ? "size = { 100, 100 }" : field),
      state = { x = 0 },
      progress = "x",
      body = function(self)
        return \(body)
      end,
      tap = function(self)
        \(tap)
      end,
    }
    """
  }

  /// Loads, taps, plays `seconds` and draws; nil when it all worked, else the error's text.
  static func run(_ source: String, seconds: Double) -> String? {
    do {
      let folder = try ScratchFolder()
      defer { folder.remove() }
      try folder.write("plugin.lua", source)
      let host = ComponentHost(component: try ComponentInstance(path: folder.path("plugin.lua")))
      _ = try host.image(try host.frame(), renderer: CairoRenderer())
      try host.tap()
      try host.advance(by: seconds)
      _ = try host.image(try host.frame(), renderer: CairoRenderer())
      return nil
    } catch {
      return "\(error)"
    }
  }

  static func expectOneLine(_ error: String?, _ what: String) {
    guard let error else { return }
    #expect(!error.isEmpty && !error.contains("\n"), "\(what): \(error)")
  }

  @Test(arguments: bodies)
  func eachBody(_ name: String, _ template: String) {
    for v in Self.values {
      let source = Self.plugin(body: template.replacingOccurrences(of: "V", with: v))
      Self.expectOneLine(Self.run(source, seconds: 1), "\(name) with \(v)")
    }
  }

  @Test(arguments: taps)
  func eachTap(_ name: String, _ template: String) {
    var refused = 0
    for v in Self.values {
      let source = Self.plugin(tap: template.replacingOccurrences(of: "V", with: v))
      let error = Self.run(source, seconds: 60)
      Self.expectOneLine(error, "\(name) with \(v)")
      if error != nil { refused += 1 }
    }
    // NaN at least is refused: the tap handler did run.
    #expect(refused > 0, "\(name): no value refused")
  }

  @Test(arguments: definitions)
  func eachDefinition(_ name: String, _ template: String) {
    for v in Self.values {
      let source = Self.plugin(field: template.replacingOccurrences(of: "V", with: v))
      Self.expectOneLine(Self.run(source, seconds: 1), "\(name) with \(v)")
    }
  }

  /// A size that is not a finite number in (0, 16384] is refused where the component is
  /// defined, at the plugin's line, not when a frame is drawn.
  @Test func componentSizesAreCheckedWhereTheyAreGiven() {
    for v in ["(0/0)", "math.huge", "1e300", "16385", "0", "-1"] {
      let error = Self.run(Self.plugin(field: "size = { 100, \(v) }"), seconds: 0)
      #expect(
        error?.contains(
          "plugin.lua:2: component: field 'size' must be "
            + "{width, height}, each a number in (0, 16384]"
        ) == true, "\(v): \(error ?? "no error")")
    }
    #expect(Self.run(Self.plugin(field: "size = { 1000, 4.9e-324 }"), seconds: 0) == nil)
  }

  /// A scale whose matrix determinant overflows (1e300²) draws nothing, as a singular one
  /// does, rather than failing the frame with Cairo's `invalid matrix (not invertible)`.
  @Test func overflowingScalesDrawNothing() {
    for scale in ["1e300", "-1e300", "1e300, 1", "1e200, 1e200", "2^600, 2^-600"] {
      let body = "m.zstack{ \(Self.rect):frame(20, 20):scale(\(scale)), m.circle():frame(9, 9) }"
      #expect(Self.run(Self.plugin(body: body), seconds: 0) == nil, "scale(\(scale))")
    }
  }

  /// Input script numbers, as text: each script parses or fails with one line, and plays.
  @Test func inputScripts() throws {
    let texts = [
      "1e6", "1e300", "-1e300", "-0.0", "nan", "inf", "-inf", "4.9e-324", "9007199254740992",
      "9223372036854775808", "9223372036854775807", "-9223372036854775808",
    ]
    let folder = try ScratchFolder()
    defer { folder.remove() }
    try folder.write(
      "plugin.lua",
      Self.plugin(tap: "self:animate(m.spring{}, { x = 1 })")
        .replacingOccurrences(
          of: "tap = function",
          with: "drag = function(self, e) self.x = "
            + "e.translation.x end,\n  tap = function"))
    for v in texts {
      let lines = [
        "\(v) tap", "0 tap \(v),\(v)",
        "0 drag 0,0 -> "
          + "\(v),\(v) over 0.5", "0 drag 1,1 -> 2,2 over \(v)",
        "0 progress \(v)", "0 hover \(v),1", "0 longpress \(v),\(v)", "0 doubletap 1,\(v)",
      ]
      for line in lines {
        let script: InputScript
        do {
          script = try InputScript.parse(line + "\n", file: "in.txt")
        } catch {
          Self.expectOneLine("\(error)", line)
          continue
        }
        do {
          let host = ComponentHost(
            component: try ComponentInstance(path: folder.path("plugin.lua")))
          var player = ScriptPlayer(script)
          try player.play(until: 5, on: host)
          _ = try host.image(try host.frame(), renderer: CairoRenderer())
        } catch {
          Self.expectOneLine("\(error)", line)
        }
      }
    }
  }
}
