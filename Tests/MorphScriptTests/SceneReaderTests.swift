import MorphCore
import Testing

@testable import MorphScript

/// Builds the node `code` returns and reads it into Swift.
private func view(_ code: String) throws(ScriptError) -> SceneView {
  // A generous clock: 50 000 nodes take seconds on a loaded machine, and
  // these tests are about reading, not limits.
  var limits = ScriptLimits.standard
  limits.wallClockSeconds = 120
  let state = try LuaState(limits: limits)
  let value = try state.evaluate(code, chunkName: "scene.lua").first ?? .nil
  return try state.readView(value, path: "scene.lua")
}

private func errorText(_ code: String) -> String {
  do {
    _ = try view(code)
    return "no error"
  } catch {
    return error.description
  }
}

@Suite struct SceneReaderTests {
  @Test func modifiersArriveInWrittenOrder() throws {
    let root = try view(
      "return morph.roundedRect(16):fill('#2F6FED'):frame(96, 132):scale(0.9)"
        + ":rotate(10, 'bottom'):offset(5, -3):z(2):id('card')"
    ).root
    guard case .shape(.roundedRect(16, .continuous)) = root.content else {
      Issue.record("wrong content \(root.content)")
      return
    }
    try #require(root.modifiers.count == 7)
    #expect(root.modifiers[1] == .frame(FrameSpec(width: 96, height: 132)))
    #expect(root.modifiers[2] == .scale(x: 0.9, y: 0.9, anchor: .center))
    #expect(root.modifiers[3] == .rotate(degrees: 10, anchor: .bottom))
    #expect(root.modifiers[4] == .offset(Point(5, -3)))
    #expect(root.modifiers[5] == .zIndex(2))
    #expect(root.modifiers[6] == .id("card"))
  }

  @Test func stacksSpliceArraysAndSkipFalse() throws {
    let root = try view(
      "return morph.vstack{ spacing = 10, alignment = 'leading', morph.rect(), false, "
        + "{ morph.circle(), morph.capsule() } }"
    ).root
    guard case .stack(.vertical, 10, .leading, let children) = root.content else {
      Issue.record("wrong content \(root.content)")
      return
    }
    #expect(children.count == 3)
  }

  @Test func handlersAreCollected() throws {
    let scene = try view("return morph.zstack{ morph.rect():onTap(function() end) }:onDrag(print)")
    #expect(scene.handlers.count == 2)
  }

  @Test func badArgumentsPointAtThePluginLine() {
    #expect(
      errorText("local n = morph.rect()\nn = n:offset(0/0, 1)\nreturn n")
        == "scene.lua:2: bad argument #1 to 'offset' (number expected, got nan)")
    #expect(
      errorText("local n = morph.rect():offset(math.huge, 1) return n")
        == "scene.lua:1: bad argument #1 to 'offset' (finite number expected, got inf)")
    #expect(
      errorText("local n = morph.rect():frame(-5, 10) return n")
        == "scene.lua:1: bad argument #1 to 'frame' (width must be >= 0, got -5)")
    #expect(
      errorText("local n = morph.rect():blend('dodge') return n").hasPrefix(
        "scene.lua:1: bad argument #1 to 'blend' (invalid option 'dodge'; expected one of 'normal',"
      ))
    #expect(
      errorText("local n = morph.rect():shadow{ radius = 4, blur = 2 } return n")
        == "scene.lua:1: bad argument #1 to 'shadow' (unknown option 'blur'; "
        + "valid options: color, radius, x, y)")
    #expect(
      errorText("local n = morph.rect():rotate3d(45, { axis = {0, 0, 0} }) return n")
        == "scene.lua:1: bad argument #2 to 'rotate3d' (option 'axis' must not be zero)")
    #expect(
      errorText("local n = morph.rect():rotate(10, 'middle') return n").hasPrefix(
        "scene.lua:1: bad argument #2 to 'rotate' (invalid option 'middle'; expected one of"))
  }

  @Test func aNodeInsideItselfIsAClearError() {
    #expect(
      errorText("local z = morph.zstack{} z.children[1] = z return z").hasSuffix(
        "node tree is deeper than 200 levels (a node inside itself?)"))
  }

  @Test func tamperedTreesFailWithoutRunningCode() {
    func tampered(_ record: String) -> String {
      errorText("local n = morph.rect() n.mods[1] = \(record) return n")
    }
    #expect(tampered("{ op = 'explode' }") == "scene.lua: body:explode: unknown modifier 'explode'")
    #expect(tampered("{ 'frame', 10 }") == "scene.lua: body:: unknown modifier ''")
    #expect(
      tampered("{ op = 'frame', width = 0/0 }")
        == "scene.lua: body:frame: field 'width': finite number >= 0 expected, got nan")
    #expect(
      tampered("{ op = 'offset', x = 1 }")
        == "scene.lua: body:offset: field 'y': finite number expected, got nil")
    #expect(
      tampered("{ op = 'blend', mode = 'dodge' }")
        == "scene.lua: body:blend: field 'mode': one of 'normal', 'multiply', 'screen', 'overlay', "
        + "'darken', 'lighten', 'colorDodge', 'colorBurn', 'softLight', 'hardLight', 'difference', "
        + "'exclusion', 'plusLighter', 'destinationOut', 'destinationOver', 'sourceAtop' expected, "
        + "got string")
    #expect(
      tampered("{ op = 'stroke', dash = { 1, 'x' } }")
        == "scene.lua: body:stroke: field 'dash': array of lengths >= 0 expected, got table")
    #expect(
      tampered("{ op = 'clip', shape = {} }")
        == "scene.lua: body:clip: field 'shape': shape node expected, got table")
    #expect(
      tampered("{ op = 'clip', shape = morph.text('x') }")
        == "scene.lua: body:clip: field 'shape': shape node expected, got table")
    #expect(
      tampered(
        "{ op = 'fill', paint = { op = 'linearGradient', stops = { 1 }, from = 'top', to = 'top' } }"
      )
        == "scene.lua: body:fill.paint: field 'stops': array of {colour, location} expected, got table"
    )
    #expect(
      tampered("{ op = 'fill', paint = {} }")
        == "scene.lua: body:fill.paint: colour or gradient expected, got table")
    #expect(
      tampered("{ op = 'rotate3d', degrees = 1, axis = { 0, 0, 0 }, perspective = 1 }")
        == "scene.lua: body:rotate3d: field 'axis': non-zero {x, y, z} expected, got table")
    #expect(
      tampered("{ op = 'onTap', handler = 'f' }")
        == "scene.lua: body:onTap: field 'handler': function expected, got string")
    #expect(
      errorText("local n = morph.rect() n.op = 'frame' return n")
        == "scene.lua: body: unknown node 'frame'")
    #expect(errorText("return {}") == "scene.lua: body: node expected, got table")
    #expect(errorText("return 42") == "scene.lua: body must return a node, got number")
  }

  @Test func fiftyThousandNodesRead() throws {
    let root = try view(
      "local c = {} for i = 1, 50000 do c[i] = morph.rect():frame(2, 2):offset(i % 200, i // 200) end "
        + "return morph.zstack(c)"
    ).root
    guard case .stack(_, _, _, let children) = root.content else {
      Issue.record("not a stack")
      return
    }
    #expect(children.count == 50_000)
  }
}
