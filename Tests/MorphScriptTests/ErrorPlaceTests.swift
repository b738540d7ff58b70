import Foundation
import MorphCore
import Testing

@testable import MorphScript

/// Errors with their place (issue 36): each names where the fix goes.
@Suite struct ErrorPlaceTests {
  func failure(_ source: String, path: String = "p.lua") -> ScriptError? {
    do {
      let c = try ComponentInstance(path: path, source: source)
      _ = try c.view()
      return nil
    } catch {
      return error
    }
  }

  @Test func aTracebackShowsThePluginsFramesAndFoldsTheHosts() throws {
    let error = try #require(
      failure(
        """
        local m = morph
        local function helper(x) return x.y.z end
        return m.component {
          body = function(self)
            return m.rect():frame(helper({}), 10)
          end,
        }
        """))
    let folded = try #require(error.traceback)
    #expect(folded.contains("p.lua:2: in upvalue 'helper'"))
    #expect(folded.contains("p.lua:5: in function <p.lua:4>"))
    #expect(!folded.contains("morph.component"))
    #expect(!folded.contains("[C]"))
    #expect(folded.contains("host frames folded; --traceback shows all)"))
    #expect(error.fullTraceback?.contains("morph.component") == true)
  }

  /// The message a plugin line `code` raises, without its place.
  func message(_ code: String) -> String {
    do {
      let state = try LuaState()
      _ = try state.evaluate(code, chunkName: "w.lua")
      return "no error"
    } catch {
      return error.message
    }
  }

  @Test func aMistypedModifierNamesTheNearestOne() {
    #expect(
      message("return morph.rect():opacty(1)")
        == "a node has no modifier 'opacty'; did you mean 'opacity'?")
  }

  @Test func aMistypedMorphFunctionNamesTheNearestOne() {
    #expect(message("return morph.sprng()") == "morph has no 'sprng'; did you mean 'spring'?")
  }

  @Test func swiftUINamesMapToOursFromTheOneTable() {
    for entry in SwiftUINames.entries where entry.place == .modifier {
      #expect(
        message("return morph.rect():\(entry.swiftUI)(1)")
          == "a node has no modifier '\(entry.swiftUI)'; that is SwiftUI's name, here it is '\(entry.ours)'"
      )
    }
    for entry in SwiftUINames.entries where entry.place == .function {
      #expect(
        message("return morph.\(entry.swiftUI)")
          == "morph has no '\(entry.swiftUI)'; that is SwiftUI's name, here it is '\(entry.ours)'")
    }
  }

  @Test func everySwiftUINameMapsToSomethingThatExists() throws {
    let state = try LuaState()
    for entry in SwiftUINames.entries {
      switch entry.place {
      case .modifier:
        _ = try state.evaluate("return morph.rect().\(entry.ours)", chunkName: "w.lua")
      case .function where !entry.ours.contains(":"):
        _ = try state.evaluate("return morph.\(entry.ours)", chunkName: "w.lua")
      case .option, .function:
        // An option's owner is named in its note; `self:animate` is a method of self.
        #expect(!entry.note.isEmpty)
      }
    }
  }

  @Test func wrongOptionsAreAllNamedInOneStableMessage() {
    #expect(
      message(
        "return morph.linearGradient{ colors = {'red'}, startPoint = 'top', endPoint = 'bottom' }")
        == "bad argument #1 to 'linearGradient' (unknown options 'endPoint' (SwiftUI's name; here "
        + "'to'), 'startPoint' (SwiftUI's name; here 'from'); valid options: colors, stops, from, to)"
    )
  }

  @Test func aWrongEnumStringNamesTheNearestOne() {
    #expect(
      message("return morph.rect():frame(1, 1, 'centre')").hasSuffix("; did you mean 'center'?)"))
  }

  @Test func aSelfMethodTypoIsStillAnError() {
    #expect(
      message("return morph.rect():strokeBorderr('red', 2)").hasSuffix(
        "did you mean 'strokeBorder'?"))
  }

  @Test func aMistypedSelfMethodNamesTheNearestOne() throws {
    let c = try ComponentInstance(
      path: "p.lua",
      source: """
        return morph.component { state = { x = 0 },
          tap = function(self) self:animte(morph.linear(1), { x = 1 }) end,
          body = function() return morph.rect() end }
        """)
    #expect {
      try c.handle(component: "tap", .tap(at: Point(0, 0), time: 0))
    } throws: { error in
      "\(error)".hasSuffix("no prop or state key 'animte'; state: x; did you mean 'animate'?")
        || "\(error)".hasSuffix("no state key 'animte'; state: x; did you mean 'animate'?")
    }
  }

  @Test func strokeBorderRefusesAPathShape() {
    #expect(
      message("return morph.shape(morph.path()):strokeBorder('red', 2)")
        .hasPrefix("strokeBorder: only rect, roundedRect, circle, ellipse, capsule can be inset"))
  }

  @Test func transformEffectNamesTheMissingEntry() {
    #expect(
      message("return morph.rect():transformEffect{1, 0, 0.5}")
        == "bad argument #1 to 'transformEffect' ({a, b, c, d, tx, ty} of finite numbers expected; "
        + "'d' (#4) is nil)")
  }
}
