import MorphCore
import Testing

@testable import MorphScript

/// `:onAppear(fn)` and `:onDisappear(fn)` on nodes, and the component's `disappear`,
/// against SwiftUI's semantics: appear after the body that first shows a node and before
/// its frame; disappear after the body that removes it, or, when a transition removes
/// it, once the removal ends; a node back during its removal never left; handlers run as
/// transactions. Each hook appends to `log`.
@Suite struct NodeLifecycleTests {
  static let source = """
    local m = morph
    local function note(tag) return function(self) self.log = self.log .. tag .. ";" end end
    return m.component {
      name = "Hooks",
      size = { 200, 200 },
      props = { fade = false },
      state = { show = true, swap = false, log = "", dim = 1, turn = 0 },
      tap = function(self)
        if self.fade then
          self:animate(m.linear(1), { show = not self.show })
        else
          self.show = not self.show
        end
      end,
      longPress = function(self) self.swap = not self.swap end,
      disappear = note("-component"),
      body = function(self)
        local children = {
          m.rect():frame(10, 10):id("a"):onAppear(note("+a")):onDisappear(note("-a")),
        }
        if self.show then
          children[2] = m.circle():frame(10, 10):id("b"):transition(m.transition.opacity)
            :onAppear(note("+b")):onDisappear(note("-b"))
        end
        -- No id: the same place and kind is the same node.
        children[#children + 1] = self.swap and m.circle():onAppear(note("+circle")):onDisappear(note("-circle"))
          or m.rect():onAppear(note("+rect")):onDisappear(note("-rect"))
        return m.vstack(children):opacity(self.dim):onAppear(note("+root"))
      end,
    }
    """

  func make(_ text: String = source, fade: Bool = false) throws -> ComponentInstance {
    try ComponentInstance(
      path: "hooks.lua", source: text,
      options: ComponentOptions(props: fade ? [(key: "fade", value: "true")] : []))
  }

  func log(_ c: ComponentInstance) -> String {
    guard case .string(let s) = c.stateValue("log") else { return "?" }
    return s
  }

  /// The log since the last call.
  func fresh(_ c: ComponentInstance, after seen: inout String) -> String {
    let all = log(c)
    defer { seen = all }
    return String(all.dropFirst(seen.count))
  }

  func tap(_ c: ComponentInstance) throws {
    try c.handle(component: "tap", .tap(at: .zero, time: c.time))
  }

  /// SwiftUI runs the first body, and its `onAppear`, before the first frame: at load, so
  /// a host that draws later (or never) sees the same.
  @Test func appearRunsAfterTheFirstBodyAtLoadInTreeOrderOnce() throws {
    let c = try make()
    #expect(log(c) == "+root;+a;+b;+rect;")
    _ = try c.view()
    #expect(log(c) == "+root;+a;+b;+rect;")
    try c.advance(to: 0.5)
    _ = try c.view()
    #expect(log(c) == "+root;+a;+b;+rect;", "a node shown again is no new appearance")
  }

  /// SwiftUI's `onAppear` completes before the first frame is drawn: the frame shows what
  /// it set.
  @Test func theFirstFrameShowsWhatOnAppearChanged() throws {
    let text = Self.source.replacingOccurrences(
      of: "onAppear(note(\"+root\"))",
      with: "onAppear(function(self) self.dim = 0.5 end)")
    let view = try make(text).view()
    #expect(view.root.modifiers.contains(.opacity(0.5)))
  }

  /// `onAppear { withAnimation { show = true } }`: the insertion it causes runs under its
  /// curve from the first frame, and the inserted node's own `onAppear` runs before it.
  @Test func aChangeOfStructureInOnAppearRunsUnderItsCurve() throws {
    let text = Self.source.replacingOccurrences(of: "show = true", with: "show = false")
      .replacingOccurrences(
        of: "onAppear(note(\"+root\"))",
        with: "onAppear(function(self) self:animate(m.linear(1), { show = true }) end)")
    let c = try make(text)
    _ = try c.view()
    #expect(log(c) == "+a;+rect;+b;")
    #expect(c.transitions.movingIDs == ["b"])
    try c.advance(to: 0.5)
    #expect(abs(try #require(c.transitions.engine.presented("b", at: 0.5)) - 0.5) < 1e-6)
  }

  @Test func aBodyThatRemovesANodeRunsItsDisappearAndOneThatInsertsItItsAppear() throws {
    let c = try make()
    var seen = ""
    _ = try c.view()
    _ = fresh(c, after: &seen)
    try tap(c)
    _ = try c.view()
    #expect(fresh(c, after: &seen) == "-b;")
    try tap(c)
    _ = try c.view()
    #expect(fresh(c, after: &seen) == "+b;")
  }

  /// SwiftUI keeps a view removed under a transition until its removal animation ends, and
  /// calls its disappear action then.
  @Test func underATransitionDisappearRunsWhenTheRemovalEnds() throws {
    let c = try make(fade: true)
    var seen = ""
    _ = try c.view()
    _ = fresh(c, after: &seen)
    try tap(c)
    _ = try c.view()
    #expect(c.transitions.leavingIDs == ["b"])
    try c.advance(to: 0.5)
    _ = try c.view()
    #expect(fresh(c, after: &seen) == "", "still drawing its removal")
    try c.advance(to: 1.01)
    #expect(c.transitions.leavingIDs.isEmpty)
    #expect(fresh(c, after: &seen) == "-b;", "when the removal ends, with no body needed")
  }

  /// A node inserted again while its removal still draws never left: neither hook runs.
  @Test func aNodeBackDuringItsRemovalRunsNeither() throws {
    let c = try make(fade: true)
    var seen = ""
    _ = try c.view()
    _ = fresh(c, after: &seen)
    try tap(c)
    try c.advance(to: 0.3)
    _ = try c.view()
    try tap(c)
    _ = try c.view()
    try c.advance(to: 3)
    _ = try c.view()
    #expect(fresh(c, after: &seen) == "")
  }

  /// Without an id a node is known by its place among the children without one, and its
  /// kind: siblings with ids coming and going leave it be; another kind in its place is
  /// a new node (disappear runs before appear).
  @Test func aNodeWithoutAnIdIsItsPlaceAndKind() throws {
    let c = try make()
    var seen = ""
    _ = try c.view()
    _ = fresh(c, after: &seen)
    try tap(c)
    _ = try c.view()
    #expect(fresh(c, after: &seen) == "-b;")
    try c.handle(component: "longPress", .tap(at: .zero, time: c.time))
    _ = try c.view()
    #expect(fresh(c, after: &seen) == "-rect;+circle;")
  }

  /// The spinner's case: `repeatForever` from a node's `onAppear` runs from the first frame.
  @Test func onAppearAnimatesAsAHandlerDoes() throws {
    let text = Self.source.replacingOccurrences(
      of: "onAppear(note(\"+root\"))",
      with: """
        onAppear(function(self)
          self:animate(m.linear(1):repeatForever { autoreverses = false }, { turn = 1 })
        end)
        """)
    let c = try make(text)
    _ = try c.view()
    try c.advance(to: 0.25)
    #expect(abs(try #require(c.presented("turn")) - 0.25) < 1e-6)
    try c.advance(to: 1.5)
    #expect(abs(try #require(c.presented("turn")) - 0.5) < 1e-6)
    #expect(c.isContinuous)
  }

  /// A hook runs once: one that reads `self.time` does not make the picture follow the
  /// clock (only a body that reads it does).
  @Test func aHookReadingTheClockIsNoContinuousMotion() throws {
    let text = Self.source.replacingOccurrences(
      of: "onAppear(note(\"+root\"))",
      with: "onAppear(function(self) self.log = self.log .. self.time .. \";\" end)")
    let c = try make(text)
    _ = try c.view()
    #expect(log(c).hasPrefix("0"), "the hook ran: \(log(c))")
    #expect(!c.readsClock && !c.isContinuous && !c.isAnimating)
  }

  /// A removal's `onDisappear` outlives the body's handler list with its own reference,
  /// released once it ran: many cycles leave the registry as it was.
  @Test func handlerReferencesDoNotPileUp() throws {
    let c = try make(fade: true)
    _ = try c.view()
    func cycles(_ n: Int) throws {
      for _ in 0..<n {
        try tap(c)
        _ = try c.view()
        try c.advance(to: c.time + 0.4)
        _ = try c.view()
        try tap(c)  // back mid-removal half the time
        _ = try c.view()
        try c.advance(to: c.time + 1.1)
        _ = try c.view()
        try tap(c)
        _ = try c.view()
        try c.advance(to: c.time + 1.1)
        try tap(c)
        _ = try c.view()
        try c.advance(to: c.time + 1.1)
      }
    }
    try cycles(5)
    let (registry, held) = (c.state.heldReferences, c.lifecycle.heldHandlers)
    try cycles(50)
    #expect(c.state.heldReferences == registry)
    #expect(c.lifecycle.heldHandlers == held)
    #expect(log(c).components(separatedBy: "-b;").count == 1 + 55)
  }

  @Test func aHookThatFailsNamesItsLineOnce() throws {
    let text = Self.source.replacingOccurrences(
      of: "onAppear(note(\"+a\"))", with: "onAppear(function(self) self.nothing.here = 1 end)")
    let c = try make(text)
    let error = #expect(throws: ScriptError.self) { try c.view() }
    #expect(error?.chunk == "hooks.lua")
    let line = Self.source.split(separator: "\n").firstIndex { $0.contains("\"+a\"") }
    #expect(error?.line == line.map { $0 + 1 })
    #expect(log(c) == "+root;+b;+rect;", "the others still ran")
    _ = try c.view()
  }

  /// A handler's animated change runs the body at once (no frame asked for it): a hook
  /// that fails there is reported by the next frame, once.
  @Test func aHookThatFailsInAHandlersBodyIsReportedByTheNextFrame() throws {
    let text = Self.source.replacingOccurrences(
      of: "onAppear(note(\"+b\"))", with: "onAppear(function(self) self.nothing.here = 1 end)")
    let c = try make(text, fade: true)
    #expect(throws: ScriptError.self) { try c.view() }
    _ = try c.view()
    try tap(c)
    try c.advance(to: 2)
    try tap(c)  // b inserted under an animation: its appear fails in the handler's body
    let error = #expect(throws: ScriptError.self) { try c.view() }
    #expect(error?.chunk == "hooks.lua")
    _ = try c.view()
  }

  /// Hooks that insert a new node every time would never end: the frame fails, naming
  /// the plugin, after a bounded number of bodies.
  @Test func hooksThatKeepChangingTheTreeAreAnError() throws {
    let c = try ComponentInstance(
      path: "loop.lua",
      source: """
        return morph.component {
          state = { n = 0 },
          body = function(self)
            return morph.rect():id("n" .. self.n):onAppear(function(s) s.n = s.n + 1 end)
          end,
        }
        """)
    let error = #expect(throws: ScriptError.self) { try c.view() }
    #expect(error?.description.contains("kept changing state") == true)
    #expect(c.presented("n") == Double(ComponentInstance.maxHookRounds))
  }

  /// Unloading runs the component's `disappear`, then every shown node's, once.
  @Test func unloadRunsDisappearOnce() throws {
    let c = try make()
    var seen = ""
    _ = try c.view()
    _ = fresh(c, after: &seen)
    try c.unload()
    #expect(fresh(c, after: &seen) == "-component;-a;-b;-rect;")
    try c.unload()
    #expect(fresh(c, after: &seen) == "")
  }

  /// A node still drawing its removal when the instance unloads disappears then.
  @Test func unloadRunsTheDisappearOfARemovalStillDrawing() throws {
    let c = try make(fade: true)
    var seen = ""
    _ = try c.view()
    try tap(c)
    _ = try c.view()
    _ = fresh(c, after: &seen)
    try c.unload()
    #expect(fresh(c, after: &seen) == "-component;-b;-a;-rect;")
  }

  /// A hot reload keeps the instance: neither `disappear` nor `appear` runs, and nodes
  /// already shown do not appear again.
  @Test func aHotReloadUnloadsNothing() throws {
    let c = try make()
    var seen = ""
    _ = try c.view()
    _ = fresh(c, after: &seen)
    try c.reload(source: Self.source.replacingOccurrences(of: "10, 10", with: "12, 12"))
    _ = try c.view()
    #expect(fresh(c, after: &seen) == "")
  }
}
