import Foundation
import Testing

@testable import MorphScript

/// A state with small limits, so that runaway code is stopped quickly.
private func makeState(memoryMiB: Double = 16, budget: Int = 5_000_000) throws -> LuaState {
  try LuaState(
    limits: ScriptLimits(memoryCapMiB: memoryMiB, instructionBudget: budget, wallClockSeconds: 5))
}

/// How a chunk ended: its results, or its error.
private enum Outcome: Sendable {
  case values([String])
  case failure(kind: ScriptError.Kind, description: String)

  var error: (kind: ScriptError.Kind, description: String)? {
    if case .failure(let kind, let description) = self { return (kind, description) }
    return nil
  }
}

private func run(_ state: LuaState, _ code: String) -> Outcome {
  do {
    return .values(try state.evaluate(code, chunkName: "test.lua").map(\.description))
  } catch {
    return .failure(kind: error.kind, description: error.description)
  }
}

/// Runs `code` in a fresh state on its own thread, and gives up after
/// `seconds`: without its fix, a case here would spin in C for hours, and a
/// hung test must fail rather than hang the suite. (The thread is left
/// behind; the test process ends anyway.)
private func runWithDeadline(
  _ code: String, memoryMiB: Double = 16, seconds: Double = 60
) -> Outcome? {
  final class Box: @unchecked Sendable { var outcome: Outcome? }
  let box = Box()
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    do {
      box.outcome = run(try makeState(memoryMiB: memoryMiB), code)
    } catch {
      box.outcome = .failure(kind: .runtime, description: "could not create a state")
    }
    done.signal()
  }
  thread.stackSize = 8 << 20
  thread.start()
  guard done.wait(timeout: .now() + seconds) == .success else {
    Issue.record("still running after \(seconds) s: \(code)")
    return nil
  }
  return box.outcome
}

@Suite struct StickyBudgetTests {
  @Test(arguments: [
    "while true do pcall(function() while true do end end) end",
    "while true do xpcall(function() while true do end end, function(m) return m end) end",
    "xpcall(function() while true do end end, function() while true do end end)",
    "while true do local co = coroutine.create(function() while true do end end)\n"
      + "coroutine.resume(co) end",
    "while true do pcall(coroutine.wrap(function() while true do end end)) end",
    "local f = coroutine.wrap(function()\n"
      + "local x <close> = setmetatable({}, { __close = function() while true do end end })\n"
      + "while true do end end)\nf()",
    "local t <close> = setmetatable({}, { __close = function() while true do end end })\n"
      + "while true do end",
    "while true do pcall(error, setmetatable({}, {\n"
      + "__tostring = function() while true do end end })) end",
  ])
  func noHandlerSwallowsTheBudget(_ code: String) {
    let outcome = runWithDeadline(code)
    #expect(outcome?.error?.kind == .timeBudget, "\(String(describing: outcome))")
  }

  @Test func pluginsCannotNameChunksAsTheHost() throws {
    let state = try makeState()
    let outcome = run(state, "load('while true do end', '=morph.fake')")
    #expect(
      outcome.error?.description
        == "test.lua:1: load: chunk names starting with '=morph.' belong to the host")
  }

  @Test func budgetMessageIsFormatted() throws {
    let state = try makeState()
    let outcome = run(state, "local n = 0\nwhile true do n = n + 1 end")
    #expect(
      outcome.error?.description
        == "test.lua:2: plugin exceeded its time budget (5000000 instructions or 5000 ms per call)")
  }

  @Test func memoryErrorsCannotBeCaughtEither() {
    let code =
      "local ok = pcall(string.rep, 'x', 1e9)\n"
      + "while true do pcall(function() local t = {} while true do t[#t + 1] = {} end end) end"
    let outcome = runWithDeadline(code)
    #expect(outcome?.error?.kind == .memory)
  }

  @Test func closingACoroutineTheBudgetStoppedRunsNoHandler() throws {
    let state = try makeState()
    let env = try state.newEnvironment()
    let first = try state.load(
      "co = coroutine.create(function()\n"
        + "local x <close> = setmetatable({}, { __close = function() while true do end end })\n"
        + "while true do end end)\ncoroutine.resume(co)", chunkName: "test.lua", env: env)
    #expect(throws: ScriptError.self) { try state.call(first) }
    let second = try state.load("return coroutine.close(co)", chunkName: "test.lua", env: env)
    let results = try state.call(second).map(\.description)
    #expect(results == ["false", "cannot close a coroutine that a limit stopped"])
  }

  @Test func ordinaryErrorsAreStillCaught() throws {
    let state = try makeState()
    let outcome = run(
      state,
      "local a, b = pcall(error, 'x', 0)\n"
        + "local c, d = xpcall(error, function(m) return 'handled ' .. m end, 'y', 0)\n"
        + "local co = coroutine.create(function() error('z', 0) end)\n"
        + "local e, f = coroutine.resume(co)\n"
        + "local g = coroutine.wrap(function() return pcall(coroutine.yield, 'yielded') end)()\n"
        + "return a, b, c, d, e, f, coroutine.close(co), g")
    guard case .values(let values) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(
      values == ["false", "x", "false", "handled y", "false", "z", "false", "yielded"])
  }
}

@Suite struct BoundedLibraryTests {
  @Test(arguments: [
    "return ('a'):rep(1e6):find('.-b')",
    "return ('a'):rep(28):find(('a?'):rep(28) .. ('a'):rep(28) .. 'b')",
    "return ('a'):rep(4e6):find(('.'):rep(2e6) .. 'b')",
    "return ('a'):rep(1e6):gsub('.-b', '')",
    "for x in ('a'):rep(1e5):gmatch('a-b') do end",
    "return ('a'):rep(1e6):find(('a'):rep(1e5) .. 'b', 1, true)",
    "return table.move({}, 1, 1e15, 1, {})",
    "local t = setmetatable({}, { __len = function() return math.maxinteger // 2 end })\n"
      + "table.insert(t, 1, 'x')",
    "local t = setmetatable({}, { __len = function() return math.maxinteger // 2 end })\n"
      + "table.remove(t, 1)",
    "local t = setmetatable({}, { __index = table.concat })\n"
      + "return #table.concat(t, '', 1, 1e15)",
    "local t = setmetatable({}, { __index = rawlen, __newindex = rawequal,\n"
      + "__len = function() return 2^31 - 2 end })\ntable.sort(t)",
  ])
  func longCLoopsEndWithTheBudget(_ code: String) {
    let outcome = runWithDeadline(code)
    #expect(outcome?.error?.kind == .timeBudget, "\(String(describing: outcome))")
  }

  @Test func emptyRepeatsReturnAtOnce() {
    let outcome = runWithDeadline(
      "return #string.rep('', math.maxinteger), #string.rep('', math.maxinteger, '')")
    guard case .values(let values)? = outcome else {
      Issue.record("\(String(describing: outcome))")
      return
    }
    #expect(values == ["0", "0"])
  }

  @Test func boundsKeepLuasWording() throws {
    let state = try makeState()
    #expect(
      run(state, "return table.unpack({}, 1, 1e8)").error?.description
        == "test.lua:1: too many results to unpack")
    // string.format needs no bound: a width or precision has at most two digits.
    #expect(
      run(state, "return string.format('%5000d', 1)").error?.description
        == "test.lua:1: invalid conversion specification: '%5000d'")
    #expect(
      run(state, "return table.concat({1, {}, 3})").error?.description
        == "test.lua:1: invalid value (table) at index 2 in table for 'concat'")
    #expect(
      run(state, "table.insert({}, 5, 1)").error?.description
        == "test.lua:1: bad argument #2 to 'insert' (position out of bounds)")
    #expect(
      run(state, "return ('x'):rep(1e8, 'y')").error?.kind == .memory)
  }

  @Test func ordinaryLibraryUseIsUnchanged() throws {
    let state = try makeState()
    let outcome = run(
      state,
      "local t = {5, 3, 1} table.sort(t) table.insert(t, 2, 9) table.remove(t, 1)\n"
        + "local s = ('k=v; a=b'):gsub('(%w+)=(%w+)', '%2=%1')\n"
        + "local words = {} for w in ('one two'):gmatch('%a+') do words[#words + 1] = w end\n"
        + "return table.concat(t, ','), s, table.concat(words, '+'), ('ab'):rep(3, '-'),\n"
        + "('[x]'):find('[', 1, true), select('#', table.unpack({1, 2, 3}))")
    guard case .values(let values) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(values == ["9,3,5", "v=k; b=a", "one+two", "ab-ab-ab", "1", "3"])
  }
}

@Suite struct MemoryAccountTests {
  @Test func appendingAPathToItselfDoublesIt() throws {
    let state = try makeState()
    let outcome = run(state, "local p = morph.paths.rect(0, 0, 1, 1) p:append(p) return #p")
    guard case .values(let values) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(values == ["10"])
  }

  @Test func pathsCountAgainstTheCap() throws {
    let state = try makeState()
    let outcome = run(
      state, "local p = morph.paths.rect(0, 0, 1, 1)\nfor i = 1, 30 do p:append(p) end")
    #expect(outcome.error?.description == "test.lua:2: not enough memory (cap 16 MiB)")
    #expect(state.memoryInUse <= 16 * 1024 * 1024)
    let many = run(
      state, "local t = {}\nfor i = 1, 1e6 do t[i] = morph.paths.rect(0, 0, i, 1) end")
    #expect(many.error?.kind == .memory)
    // The charge of collected paths is given back.
    _ = run(state, "return 1")
    #expect(run(state, "return #morph.paths.rect(0, 0, 1, 1)").error == nil)
  }

  @Test func flatteningIsCheckedBeforeItAllocates() throws {
    let state = try makeState()
    let outcome = run(
      state,
      "local p = morph.path()\nfor i = 1, 200 do p:cubic(1e6, 0, -1e6, 1e6, 0, 0) end\n"
        + "return #p:flatten(0.001)")
    #expect(outcome.error?.description == "test.lua:3: not enough memory (cap 16 MiB)")
  }

  @Test func sourceLargerThanTheCapIsRefusedBeforeCompiling() throws {
    let state = try makeState(memoryMiB: 1)
    let code = String(repeating: "local a = {1, 2, 3}\n", count: 100_000)
    #expect(code.utf8.count > 1024 * 1024)
    #expect(run(state, code).error?.kind == .memory)
    #expect(run(state, "return 1").error == nil)
  }

  @Test func pluginFilesLargerThanTheCapAreNotRead() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("morph-big-\(UUID().uuidString).lua").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 1 << 30)  // 1 GiB, sparse
    try handle.close()
    let limits = ScriptLimits(memoryCapMiB: 16)
    let expected = "\(path): not enough memory (cap 16 MiB)"
    #expect(
      throws: ScriptError(kind: .memory, chunk: path, message: "not enough memory (cap 16 MiB)")
    ) {
      _ = try ComponentInstance(path: path, options: ComponentOptions(limits: limits))
    }
    #expect(throws: ScriptError.self) { _ = try SceneFile(path: path, limits: limits) }
    do {
      _ = try SceneFile(path: path, limits: limits)
    } catch {
      #expect(error.description == expected)
    }
  }

  @Test func compilingCountsAgainstTheCap() throws {
    let state = try makeState(memoryMiB: 2)
    // Under the cap as text, over it once compiled into constants.
    var code = "return {"
    for i in 0..<60_000 { code += "\"s\(i)\"," }
    code += "}"
    #expect(code.utf8.count < 2 * 1024 * 1024)
    #expect(run(state, code).error?.kind == .memory)
  }
}

@Suite struct ImportConfinementTests {
  /// plugin/ holds real.lua; secret.lua, big.lua sit beside the folder.
  private func makeFolder() throws -> (folder: String, state: LuaState) {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("morph-import-\(UUID().uuidString)").path
    let folder = root + "/plugin"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "return 'real'".write(toFile: folder + "/real.lua", atomically: true, encoding: .utf8)
    try "return 'secret'".write(toFile: root + "/secret.lua", atomically: true, encoding: .utf8)
    let links = [
      "passwd.lua": "/etc/passwd", "root": "/", "up": "..", "secret.lua": "../secret.lua",
      "alias.lua": "real.lua",
    ]
    for (name, target) in links {
      try FileManager.default.createSymbolicLink(
        atPath: folder + "/" + name, withDestinationPath: target)
    }
    let state = try makeState()
    state.moduleDirectory = folder
    return (folder, state)
  }

  @Test func linksOutOfTheFolderAreRefused() throws {
    let (folder, state) = try makeFolder()
    for (name, message) in [
      ("passwd", "'passwd.lua' leads outside the plugin's folder"),
      ("secret", "'secret.lua' leads outside the plugin's folder"),
      ("up/secret", "'up/secret.lua' leads outside the plugin's folder"),
    ] {
      let error = run(state, "local m = morph.import('\(name)') return m").error
      #expect(error?.description == "test.lua:1: bad argument #1 to 'import' (\(message))")
      #expect(error?.description.contains(folder) == false)
      #expect(error?.description.contains("root:") == false)
    }
  }

  @Test func controlBytesInNamesAreRefused() throws {
    let (_, state) = try makeFolder()
    let error = run(state, "local m = morph.import('root/proc/self/environ\\0') return m").error
    #expect(
      error?.description
        == "test.lua:1: bad argument #1 to 'import' (a module name may not contain control characters)"
    )
  }

  @Test func linksInsideTheFolderWork() throws {
    let (_, state) = try makeFolder()
    guard case .values(let values) = run(state, "return morph.import('alias')") else {
      Issue.record("an inside link was refused")
      return
    }
    #expect(values == ["real"])
  }

  @Test func missingFilesAreNamedAsThePluginNamedThem() throws {
    let (folder, state) = try makeFolder()
    let error = run(state, "local m = morph.import('nowhere') return m").error
    #expect(
      error?.description
        == "test.lua:1: bad argument #1 to 'import' (cannot read 'nowhere.lua' beside the plugin)")
    #expect(error?.description.contains(folder) == false)
  }

  @Test func filesLargerThanTheCapAreNotRead() throws {
    let (folder, state) = try makeFolder()
    let path = folder + "/big.lua"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 1 << 30)  // 1 GiB, sparse: reading it would take a second or more
    try handle.close()
    let error = run(state, "local m = morph.import('big') return m").error
    #expect(error?.description == "test.lua:1: not enough memory (cap 16 MiB)")
  }

  @Test func importedFilesMayStartWithABOMOrAShebang() throws {
    let (folder, state) = try makeFolder()
    try "\u{FEFF}#!/usr/bin/env morphhost\nlocal x = 'bom'\nerror(x)".write(
      toFile: folder + "/marked.lua", atomically: true, encoding: .utf8)
    let error = run(state, "return morph.import('marked')").error
    #expect(error?.description.hasSuffix("marked.lua:3: bom") == true)
  }
}

@Suite struct SourceTextTests {
  @Test func byteOrderMarkAndShebangAreSkipped() throws {
    let state = try makeState()
    guard case .values(let values) = run(state, "\u{FEFF}return 1") else {
      Issue.record("a BOM is a syntax error")
      return
    }
    #expect(values == ["1"])
    let error = run(state, "#!/usr/bin/env morphhost\nlocal a = 1\nerror('here')").error
    #expect(error?.description == "test.lua:3: here")
    #expect(run(state, "\u{FEFF}#!x").error == nil)
  }

  @Test(arguments: [
    (
      "setmetatable({}, 5)", "bad argument #2 to 'setmetatable' (nil or table expected, got number)"
    ),
    (
      "local t = setmetatable({}, { __metatable = 1 })\nsetmetatable(t, {})",
      "cannot change a protected metatable"
    ),
    (
      "print(setmetatable({}, { __tostring = function() return {} end }))",
      "'__tostring' must return a string"
    ),
    ("load({})", "bad argument #1 to 'load' (function expected, got table)"),
  ])
  func hostLuaErrorsNameThePluginsLine(_ code: String, _ message: String) throws {
    let state = try makeState()
    state.output = { _ in }
    let line = code.split(separator: "\n").count
    let description = run(state, code).error?.description
    #expect(description == "test.lua:\(line): \(message)")
  }
}

@Suite struct StopKeepsHostStateTests {
  @Test func aBodyStoppedByTheBudgetLeavesTheComponentUsable() throws {
    let source = """
      return morph.component {
        name = "Spin", state = { spin = 0 },
        body = function(self)
          while self.spin > 0.5 do pcall(function() while true do end end) end
          return morph.rect():frame(10, 10)
        end,
        tap = function(self) self.spin = 1 - self.spin end,
      }
      """
    let limits = ScriptLimits(memoryCapMiB: 16, instructionBudget: 5_000_000, wallClockSeconds: 5)
    let c = try ComponentInstance(
      path: "spin.lua", source: source, options: ComponentOptions(limits: limits))
    _ = try c.handle(component: "tap", .tap(at: .zero, time: 0))
    #expect(throws: ScriptError.self) { try c.view() }
    // The host's own Lua left the body: handlers may change state again.
    _ = try c.handle(component: "tap", .tap(at: .zero, time: 0))
    _ = try c.view()
  }

  @Test func anImportStoppedByTheBudgetIsNotACycleAfterwards() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("morph-stop-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "while true do end".write(toFile: folder + "/slow.lua", atomically: true, encoding: .utf8)
    let state = try makeState()
    state.moduleDirectory = folder
    let env = try state.newEnvironment()
    for _ in 0..<2 {
      let chunk = try state.load(
        "local m = morph.import('slow') return m", chunkName: "test.lua", env: env)
      do {
        try state.call(chunk)
        Issue.record("the import ran to its end")
      } catch {
        #expect(error.kind == .timeBudget, "\(error)")
      }
    }
  }
}
