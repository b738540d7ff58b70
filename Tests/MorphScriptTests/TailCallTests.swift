import Foundation
import Testing

@testable import MorphScript

/// Plugins' tail calls are compiled as ordinary calls (CMorphLua/untail.c),
/// so an error in the callee still names the plugin's line, and nothing else
/// about the call changes.
private func makeState(memoryMiB: Double = 64) throws -> LuaState {
  try LuaState(
    limits: ScriptLimits(
      memoryCapMiB: memoryMiB, instructionBudget: 50_000_000, wallClockSeconds: 10))
}

private func number(_ value: LuaValue?) -> Double? {
  switch value {
  case .number(let x)?: return x
  case .integer(let n)?: return Double(n)
  default: return nil
  }
}

@Suite struct TailCallTests {
  @Test func aTailCalledModifierNamesTheLineThatCalledIt() throws {
    let source = """
      local m = require("morph")
      return m.component {
        name = "Tail", size = { 100, 100 },
        body = function(self)
          return m.rect():frame(-5, 10)
        end,
      }
      """
    let component = try ComponentInstance(path: "tail.lua", source: source)
    let error = try #require(scriptFailure { _ = try component.view() })
    #expect(
      error.description == "tail.lua:5: bad argument #1 to 'frame' (width must be >= 0, got -5)")
  }

  @Test func aHelperReachedByTailCallsNamesItsOwnLine() throws {
    let source = """
      local m = require("morph")
      local function card(width)
        return m.rect():frame(width, 10)
      end
      return m.component {
        name = "Tail", size = { 100, 100 },
        body = function() return card(-1) end,
      }
      """
    let component = try ComponentInstance(path: "helper.lua", source: source)
    let error = try #require(scriptFailure { _ = try component.view() })
    #expect(error.line == 3)
    #expect(error.chunk == "helper.lua")
  }

  @Test func aBadDefinitionNamesTheLineOfMorphComponent() throws {
    let source = """
      local m = require("morph")
      return m.component {
        name = "No body", size = { 100, 100 },
      }
      """
    let error = try #require(
      scriptFailure { _ = try ComponentInstance(path: "def.lua", source: source) })
    #expect(error.line == 2)
    #expect(error.description.hasPrefix("def.lua:2: component: field 'body'"))
  }

  @Test func aHostFunctionCalledInTailPositionNamesTheLine() throws {
    let state = try makeState()
    let error = try #require(
      scriptFailure {
        _ = try state.evaluate("local x = 1\nreturn morph.lerp(x, 'x', 2)", chunkName: "t.lua")
      })
    #expect(error.description == "t.lua:2: bad argument #2 to 'lerp' (number expected, got string)")
  }

  @Test func chunksFromLoadAndImportKeepTheirLinesToo() throws {
    let state = try makeState()
    let error = try #require(
      scriptFailure {
        _ = try state.evaluate(
          "local f = load('local m = morph\\nreturn m.lerp(1, \"x\", 2)', '@loaded.lua')\nreturn f()",
          chunkName: "t.lua")
      })
    #expect(error.line == 2)
    #expect(error.chunk == "loaded.lua")

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tail-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "local m = morph\nreturn m.rect():frame(-1, 1)\n".write(
      to: folder.appendingPathComponent("part.lua"), atomically: true, encoding: .utf8)
    let plugin = folder.appendingPathComponent("plugin.lua").path
    let source = """
      local m = require("morph")
      return m.component {
        name = "Import", size = { 100, 100 },
        body = function() return m.import("part") end,
      }
      """
    try source.write(toFile: plugin, atomically: true, encoding: .utf8)
    let component = try ComponentInstance(path: plugin)
    let imported = try #require(scriptFailure { _ = try component.view() })
    #expect(imported.line == 2)
    #expect(imported.chunk?.hasSuffix("part.lua") == true)
  }

  /// What a tail call returns, passes and captures is what an ordinary call does.
  static let meanings: [(code: String, expected: Double)] = [
    (
      "local function three() return 1, 2, 3 end local function f() return three() end return select('#', f())",
      3
    ),
    (
      "local function count(...) return select('#', ...) end local function f(...) return count(...) end return f(nil, nil, 3, nil)",
      4
    ),
    (
      "local function f(a, ...) local t = {...} return select(a, table.unpack(t)) end return f(2, 10, 20, 30)",
      20
    ),
    (
      "local fs = {} for i = 1, 3 do local function g() return i end fs[i] = function() return g() end end return fs[1]() + fs[2]() * 10 + fs[3]() * 100",
      321
    ),
    (
      "local obj = { n = 7 } function obj:get() return self.n end local function f() return obj:get() end return f()",
      7
    ),
    (
      "local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return math.max(a, b) end) local first = co(1) return first * 10 + co(5)",
      25
    ),
    (
      "local function sum(n, acc) if n == 0 then return acc end return sum(n - 1, acc + n) end return sum(10000, 0)",
      50_005_000
    ),
  ]

  @Test(arguments: 0..<meanings.count)
  func tailCallsKeepTheirMeaning(_ index: Int) throws {
    let (code, expected) = Self.meanings[index]
    let state = try makeState()
    let result = try state.evaluate(code, chunkName: "t.lua")
    #expect(number(result.first) == expected, "\(code)")
  }

  /// Recursion written as tail calls now keeps its frames: past Lua's stack
  /// it is an error (bounded in time and memory), and the state goes on.
  @Test func endlessTailRecursionEndsWithAnError() throws {
    let state = try makeState(memoryMiB: 32)
    let error = try #require(
      scriptFailure {
        _ = try state.evaluate(
          "local function f(n) return f(n + 1) end return f(0)", chunkName: "loop.lua")
      })
    #expect(error.message.contains("stack overflow") || error.message.contains("not enough memory"))
    let after = try state.evaluate("return 1 + 1", chunkName: "t.lua")
    #expect(number(after.first) == 2, "the state answers after the overflow")
  }
}
