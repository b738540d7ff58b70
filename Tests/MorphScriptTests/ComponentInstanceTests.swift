import MorphCore
import Testing

@testable import MorphScript

private func component(
  _ body: String = "", state: String = "p = 0, label = 'none', grab = false",
  props: String = "color = morph.color '#2F6FED', count = 3, items = { 'a' }",
  options: ComponentOptions = ComponentOptions()
) throws(ScriptError) -> ComponentInstance {
  let source = """
    local m = morph
    return m.component {
      name = "Test",
      props = { \(props) },
      state = { \(state) },
      progress = "p",
      body = function(self) return m.rect():frame(10, 10) end,
      \(body)
    }
    """
  return try ComponentInstance(path: "test.lua", source: source, options: options)
}

private func tapError(_ handler: String) -> String {
  do {
    let c = try component("tap = function(self) \(handler) end,")
    try c.handle(component: "tap", .tap(at: .zero, time: 0))
    return "no error"
  } catch {
    return error.description
  }
}

@Suite struct ComponentInstanceTests {
  @Test func stateChangesAreChecked() {
    #expect(
      tapError("self.nope = 1")
        == "test.lua:8: set: unknown state key 'nope'; declared: grab, label, p")
    #expect(tapError("self.p = 'high'") == "test.lua:8: set: state 'p' is a number; got string")
    #expect(tapError("self.p = 0/0") == "test.lua:8: set: state 'p' is a number; got nan")
    #expect(
      tapError("self.count = 4")
        == "test.lua:8: 'count' is a prop; props are read-only (declare it in state to change it)")
    #expect(
      tapError("self.target.p = 1") == "test.lua:8: self.target is read-only; "
        + "assign self.key or use self:animate")
    #expect(
      tapError("self:animate(42, { p = 1 })")
        == "test.lua:8: bad argument #1 to 'animate' (morph.Spring, morph.Timing or morph.Bezier "
        + "expected, got number)")
  }

  @Test func readingAnUndeclaredKeyNamesTheDeclaredOnes() {
    #expect(
      tapError("local _ = self.padding")
        == "test.lua:8: no prop or state key 'padding'; props: color, count, items; "
        + "state: grab, label, p")
    #expect(
      tapError("local _ = self.target.count")
        == "test.lua:8: no state key 'count'; state: grab, label, p")
    #expect(tapError("local _ = self[1]").hasPrefix("test.lua:8: no prop or state key '1'; "))
  }

  @Test func strictSelfKeepsBuiltInsPropsAndFalseState() {
    #expect(
      tapError(
        """
        assert(self.time >= 0 and self.reduceMotion == false and self.target.p == 0)
        assert(self.grab == false and self.count == 3 and type(self.animate) == 'function')
        """) == "no error")
  }

  @Test func undeclaredReadsInABodyListOnlyWhatIsDeclared() {
    func bodyError(props: String, state: String) -> String {
      let source = """
        return morph.component { props = { \(props) }, state = { \(state) },
          body = function(self)
            local _ = self.padding return morph.rect():frame(10, 10) end }
        """
      do {
        _ = try ComponentInstance(path: "b.lua", source: source).view()
        return "no error"
      } catch {
        return error.description
      }
    }
    #expect(
      bodyError(props: "accent = 1, cornerRadius = 2", state: "")
        == "b.lua:3: no prop 'padding'; props: accent, cornerRadius")
    #expect(bodyError(props: "", state: "x = 0") == "b.lua:3: no state key 'padding'; state: x")
    #expect(
      bodyError(props: "", state: "")
        == "b.lua:3: no prop or state key 'padding'; no props or state declared")
    #expect(bodyError(props: "padding = false", state: "") == "no error")
  }

  @Test func keysDeclaredFalseTakeAnyValue() throws {
    let c = try component(
      "tap = function(self) self.grab = 0.4 self.grab = false self.grab = 2 end,")
    try c.handle(component: "tap", .tap(at: .zero, time: 0))
    #expect(c.presented("grab") == nil)  // not an animated number
  }

  @Test func bodyMustNotChangeState() {
    let source = """
      return morph.component { state = { p = 0 }, body = function(self) self.p = 1 return morph.rect() end }
      """
    #expect(throws: ScriptError.self) {
      let c = try ComponentInstance(path: "b.lua", source: source)
      _ = try c.view()
    }
  }

  @Test func completionRunsOnceAfterTheAnimation() throws {
    let c = try component(
      "tap = function(self) self:animate(morph.easeIn(0.2), { p = 1 }, function(s) s.label = s.label .. '!' end) end,"
    )
    try c.handle(component: "tap", .tap(at: .zero, time: 0))
    try c.advance(to: 0.1)
    #expect(try c.state.evaluate("return 1", chunkName: "x").count == 1)
    try c.advance(to: 0.25)
    try c.advance(to: 1)
    let label = labelOf(c)
    #expect(label == "none!")
  }

  private func labelOf(_ c: ComponentInstance) -> String {
    guard case .string(let s) = c.stateValue("label") else { return "" }
    return s
  }

  @Test func numbersLiveOnlyInTheEngine() throws {
    // The tap records what Lua reads of `p` while Swift moves it: no copy
    // step runs between the engine and `self`.
    let c = try component("tap = function(self) self.label = tostring(self.p) end,")
    try c.setNumber("p", 0.7)
    try c.handle(component: "tap", .tap(at: .zero, time: 0))
    #expect(labelOf(c) == "0.7")
    c.engine.define("p", value: 0.25)
    try c.handle(component: "tap", .tap(at: .zero, time: 0))
    #expect(labelOf(c) == "0.25")
    // The Lua instance holds the non-numeric state only.
    let f = try c.state.load(
      "local inst = ... return inst.values.p, inst.values.label, inst.target, inst.presented",
      chunkName: "x", env: nil)
    let values = try c.state.call(f, [.table(c.instance)])
    guard case .nil = values[0], case .string("0.25") = values[1], case .nil = values[2],
      case .nil = values[3]
    else {
      Issue.record("Lua keeps a number: \(values)")
      return
    }
  }

  @Test func oldCodesSaveWritesReachTheEngine() throws {
    let source = """
      return morph.component {
        state = { p = 1 }, progress = "p",
        save = function(self) self.p = 999 return false end,
        body = function() return morph.rect() end,
      }
      """
    let c = try ComponentInstance(path: "save.lua", source: source)
    try c.reload(source: source)
    #expect(c.presented("p") == 999)
    #expect(c.target("p") == 999)
  }

  @Test func reduceMotionAppliesAtOnceAndStillCompletes() throws {
    let c = try component(
      "tap = function(self) self:animate(morph.spring(), { p = 1 }, function(s) s.label = 'done' end) end,",
      options: ComponentOptions(reduceMotion: true))
    try c.handle(component: "tap", .tap(at: .zero, time: 0))
    #expect(c.presented("p") == 1)
    #expect(!c.isAnimating)
    #expect(labelOf(c) == "done")
  }

  @Test func propsOverrideFromLuaJSONOrStrings() throws {
    let c = try component(
      "",
      options: ComponentOptions(props: [
        ("color", "#FF0000"), ("count", "5"), ("items", "[\"x\", \"y\"]"),
      ]))
    let f = try c.state.load(
      "local inst = ... return tostring(inst.props.color), inst.props.count, #inst.props.items",
      chunkName: "x", env: nil)
    let values = try c.state.call(f, [.table(c.instance)])
    guard case .string("#FF0000FF") = values[0], case .integer(5) = values[1],
      case .integer(2) = values[2]
    else {
      Issue.record("props not applied: \(values)")
      return
    }
  }

  @Test func badPropOverridesAreClear() {
    #expect(throws: ScriptError.self) {
      _ = try component("", options: ComponentOptions(props: [("count", "'many'")]))
    }
    do {
      _ = try component("", options: ComponentOptions(props: [("colour", "1")]))
      Issue.record("unknown prop accepted")
    } catch {
      #expect(error.message == "prop colour: unknown; the plugin's props: color, count, items")
    }
  }
}
