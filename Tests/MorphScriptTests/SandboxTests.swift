import Testing

@testable import MorphScript

/// Small limits so runaway code is stopped quickly in tests.
private func makeState(memoryMiB: Double = 16, budget: Int = 5_000_000) throws -> LuaState {
  try LuaState(
    limits: ScriptLimits(memoryCapMiB: memoryMiB, instructionBudget: budget, wallClockSeconds: 5))
}

private func evaluate(_ state: LuaState, _ code: String) throws(ScriptError) -> [LuaValue] {
  try state.evaluate(code, chunkName: "test.lua")
}

private func failure(_ state: LuaState, _ code: String) -> ScriptError? {
  do {
    _ = try evaluate(state, code)
    return nil
  } catch {
    return error
  }
}

@Suite struct SandboxTests {
  @Test(arguments: [
    "io", "os.execute", "os.exit", "os.getenv", "debug", "package", "dofile",
    "loadfile", "string.dump", "os.remove",
  ])
  func removedCapabilityIsNil(_ name: String) throws {
    let state = try makeState()
    let result = try evaluate(state, "return \(name) == nil")
    guard case .boolean(true)? = result.first else {
      Issue.record("\(name) is reachable")
      return
    }
  }

  @Test func ioOpenIsUnreachable() throws {
    let state = try makeState()
    let error = failure(state, "return io.open('/etc/passwd')")
    #expect(error?.message.contains("attempt to index a nil value (global 'io')") == true)
    #expect(error?.line == 1)
  }

  @Test func requireOnlyGivesMorph() throws {
    let state = try makeState()
    let error = failure(state, "local m = require('os')")
    #expect(
      error?.description == "test.lua:1: module 'os' not found: plugins may require only 'morph'")
    let same = try evaluate(state, "return require('morph') == morph")
    guard case .boolean(true)? = same.first else {
      Issue.record("require('morph') is not the morph table")
      return
    }
  }

  @Test func binaryChunksAreRefused() throws {
    let state = try makeState()
    // A Lua binary chunk starts with ESC 'Lua'; load in mode "t" refuses it.
    let result = try evaluate(
      state, "local f, err = load('\\27Lua\\84\\0', 'bin') return f == nil, err")
    guard result.count == 2, case .boolean(true) = result[0], case .string(let message) = result[1]
    else {
      Issue.record("binary chunk was accepted: \(result)")
      return
    }
    #expect(message.contains("attempt to load a binary chunk"))
  }

  @Test func stringDumpIsUnreachableThroughMetatable() throws {
    let state = try makeState()
    let result = try evaluate(state, "return ('').dump == nil, getmetatable('')")
    guard case .boolean(true) = result[0], case .boolean(false) = result[1] else {
      Issue.record("string metatable exposed: \(result)")
      return
    }
  }

  @Test func stringMetatableCannotBeOverwritten() throws {
    let state = try makeState()
    let error = failure(state, "getmetatable('').__index = {}")
    #expect(error?.message.contains("attempt to index a boolean value") == true)
    // Changing the plugin's own `string` table never reaches other strings.
    let result = try evaluate(state, "string.upper = nil return ('a'):upper()")
    guard case .string("A")? = result.first else {
      Issue.record("string methods changed: \(result)")
      return
    }
  }

  @Test func debugFunctionsAreUnreachable() throws {
    let state = try makeState()
    #expect(failure(state, "return debug.getinfo(1)") != nil)
    #expect(failure(state, "return debug.sethook()") != nil)
  }

  @Test func collectgarbageOnlyCounts() throws {
    let state = try makeState()
    let result = try evaluate(state, "return collectgarbage('count') > 0")
    guard case .boolean(true)? = result.first else {
      Issue.record("count is unavailable")
      return
    }
    let error = failure(state, "collectgarbage('stop')")
    #expect(error?.description == "test.lua:1: collectgarbage: plugins may only ask for \"count\"")
  }

  @Test func eachChunkHasItsOwnEnvironment() throws {
    let state = try makeState()
    _ = try evaluate(state, "leaked = 42; math.pi = 3")
    let result = try evaluate(state, "return leaked, math.pi > 3.14")
    guard case .nil = result[0], case .boolean(true) = result[1] else {
      Issue.record("globals leak between chunks: \(result)")
      return
    }
  }

  @Test func infiniteLoopEndsWithBudgetErrorAndStateAnswersAfter() throws {
    let state = try makeState()
    let error = failure(state, "while true do end")
    #expect(error?.kind == .timeBudget)
    #expect(error?.message.hasPrefix("plugin exceeded its time budget") == true)
    #expect(error?.line == 1)
    let result = try evaluate(state, "return 1 + 1")
    guard case .integer(2)? = result.first else {
      Issue.record("state broken after budget error: \(result)")
      return
    }
  }

  @Test func wallClockLimitStopsSlowCalls() throws {
    let state = try LuaState(
      limits: ScriptLimits(memoryCapMiB: 16, instructionBudget: 0, wallClockSeconds: 0.05))
    let error = failure(state, "while true do end")
    #expect(error?.kind == .timeBudget)
    #expect(error?.message.contains("50 ms") == true)
  }

  @Test func runawayStringRepEndsWithMemoryError() throws {
    let state = try makeState()
    let error = failure(state, "return string.rep('x', 1e9)")
    #expect(error?.kind == .memory)
    #expect(error?.message == "not enough memory (cap 16 MiB)")
    let result = try evaluate(state, "return #string.rep('x', 1000)")
    guard case .integer(1000)? = result.first else {
      Issue.record("state broken after memory error: \(result)")
      return
    }
  }

  @Test func unboundedTableGrowthEndsWithMemoryError() throws {
    let state = try makeState(budget: 0)
    let error = failure(state, "local t = {} local i = 0 while true do i = i + 1 t[i] = {i} end")
    #expect(error?.kind == .memory)
    #expect(state.memoryInUse < 16 * 1024 * 1024)
    let result = try evaluate(state, "local t = {} for i = 1, 1000 do t[i] = i end return #t")
    guard case .integer(1000)? = result.first else {
      Issue.record("state broken after memory error: \(result)")
      return
    }
  }

  @Test func syntaxErrorCarriesFileAndLine() throws {
    let state = try makeState()
    let error = failure(state, "local a = 1\nreturn a +")
    #expect(error?.kind == .syntax)
    #expect(error?.chunk == "test.lua")
    #expect(error?.line == 2)
  }

  @Test func runtimeErrorCarriesTraceback() throws {
    let state = try makeState()
    let error = failure(state, "local function f() error('boom') end\nf()")
    #expect(error?.description == "test.lua:1: boom")
    #expect(error?.traceback?.contains("stack traceback:") == true)
  }

  @Test func printGoesToTheHostOutput() throws {
    let state = try makeState()
    var lines: [String] = []
    state.output = { lines.append($0) }
    _ = try evaluate(state, "print('a', 1, nil, true)")
    #expect(lines == ["a\t1\tnil\ttrue"])
  }

  @Test func finalizersAreRefusedBecauseHooksCannotStopThem() throws {
    let state = try makeState()
    let error = failure(state, "setmetatable({}, { __gc = function() while true do end end })")
    #expect(
      error?.description == "test.lua:1: setmetatable: __gc finalizers are not available to plugins"
    )
    _ = try evaluate(state, "return setmetatable({}, { __index = {} })")
  }

  @Test func patternsThatCannotFinishAreChargedToTheBudget() throws {
    let state = try makeState()
    let error = failure(state, "local s = string.rep('a', 3000)\nlocal r = s:find('.-.-.-.-b')")
    #expect(error?.kind == .timeBudget)
    #expect(error?.line == 2)
    let result = try evaluate(state, "return ('x=12'):match('(%a+)=(%d+)')")
    guard case .string("x") = result[0], case .string("12") = result[1] else {
      Issue.record("ordinary patterns broke: \(result)")
      return
    }
  }

  @Test func errorObjectsThatAreNotStringsAreDescribed() throws {
    let state = try makeState()
    let error = failure(state, "error({})")
    #expect(error?.message == "(error object is a table value)")
  }
}

@Suite struct ScriptErrorTests {
  @Test func parsesChunkLineAndMessage() {
    let error = ScriptError.parse("Plugins/a:b.lua:12: oops: more", kind: .runtime)
    #expect(error.chunk == "Plugins/a:b.lua")
    #expect(error.line == 12)
    #expect(error.message == "oops: more")
  }

  @Test func keepsMessagesWithoutPosition() {
    let error = ScriptError.parse("plain message", kind: .runtime)
    #expect(error.chunk == nil)
    #expect(error.description == "plain message")
  }
}
