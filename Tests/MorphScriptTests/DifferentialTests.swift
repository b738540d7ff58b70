import Foundation
import MorphScript
import Testing

/// The sandbox's bounded `string` and `table` functions against Lua's own, in two states
/// of one process: `Differential/cases.lua` makes the same generated calls in both (patterns
/// and subjects with bytes ≥ 0x80 and `\0`, empty strings, unbalanced sets, `%f`, `%b`,
/// back-references, the depth and capture limits, invalid patterns; rep; the table
/// functions on arrays and on proxies that log every access; sort with consistent and
/// inconsistent comparators) and writes each call's results, error message and side
/// effects as a line. Every line must match, byte for byte. 100 000 cases from fixed
/// seeds, and 10 000 more from a seed that changes with each run (printed on failure).
@Suite struct DifferentialTests {
  static let cases = String(decoding: PackageResources.cases_lua, as: UTF8.self)

  @Test(arguments: [1, 2, 3, 4])
  func fixedSeed(_ seed: Int) throws {
    try compare(seed: Int64(seed), count: 25_000)
  }

  @Test func seedOfThisRun() throws {
    let seed = Int64(Date().timeIntervalSince1970 * 1000) % 1_000_000_007
    try compare(seed: seed, count: 10_000)
  }

  /// The sort error for an inconsistent comparator, and the ordinary checks of a
  /// consistent one, as Lua words them.
  @Test func knownOutcomes() throws {
    let comparison = try LibraryComparison()
    let chunk = """
      local t = {5, 1, 4, 2, 3, 9, 8, 7}
      local ok, message = pcall(table.sort, t, function() return true end)
      local sorted = {3, 1, 2}
      table.sort(sorted, function(a, b) return a > b end)
      return tostring(ok) .. " " .. message .. " " .. table.concat(sorted, ",")
        .. " " .. select(2, pcall(string.find, ("a"):rep(200), ("a?"):rep(200)))
        .. " " .. select(2, pcall(string.rep, "x", 2^31))
      """
    for library in LibraryComparison.Library.allCases {
      #expect(
        String(decoding: comparison.run(chunk, with: library), as: UTF8.self)
          == "false invalid order function for sorting 3,2,1 pattern too complex "
          + "resulting string too large")
    }
  }

  /// Coroutines (resume, wrap, close and the states close checks) and the iterator and
  /// replacement paths the generated cases reach least, as Lua answers them.
  @Test func coroutinesAndIterators() throws {
    let comparison = try LibraryComparison()
    let chunk = #"""
      local out = {}
      local function put(...)
        local n = select("#", ...)
        local t = {}
        for i = 1, n do t[i] = tostring((select(i, ...))) end
        out[#out + 1] = n .. ":" .. table.concat(t, ",")
      end
      local co = coroutine.create(function(a, b)
        local c = coroutine.yield(a + b, "x")
        local d, e = coroutine.yield(c * 2)
        return d, e, "end"
      end)
      put(coroutine.resume(co, 1, 2)); put(coroutine.resume(co, 5))
      put(coroutine.resume(co, "p", "q")); put(coroutine.resume(co))
      put(coroutine.status(co)); put(coroutine.close(co))
      local bad = coroutine.create(function() error("boom") end)
      put(coroutine.resume(bad)); put(coroutine.status(bad)); put(coroutine.close(bad))
      local tab = coroutine.create(function() error({}) end)
      local ok, e = coroutine.resume(tab); put(ok, type(e))
      put(pcall(coroutine.resume, 1)); put(pcall(coroutine.create, 1))
      local w = coroutine.wrap(function(x) local y = coroutine.yield(x) return y, 2 end)
      put(w(7)); put(w(8)); put(pcall(w))
      put(pcall(coroutine.wrap(function() error("in wrap") end)))
      put(pcall(coroutine.wrap(function() error("nolevel", 0) end)))
      put(pcall(coroutine.wrap(function() error(42) end)))
      local t2 = pcall(coroutine.wrap(function() error(setmetatable({}, {__tostring = function() return "obj" end})) end))
      put(t2)
      local closed = {}
      local pend = coroutine.create(function()
        local x <close> = setmetatable({}, {__close = function() closed[#closed + 1] = "x" end})
        coroutine.yield(1)
      end)
      put(coroutine.resume(pend)); put(coroutine.close(pend)); put(#closed, coroutine.status(pend))
      local failing = coroutine.create(function()
        local x <close> = setmetatable({}, {__close = function() error("in close") end})
        coroutine.yield(1)
      end)
      coroutine.resume(failing); put(coroutine.close(failing))
      local wc = coroutine.wrap(function()
        local x <close> = setmetatable({}, {__close = function() error("close err") end})
        error("body err")
      end)
      put(pcall(wc))
      put(pcall(coroutine.close, coroutine.running()))
      local outer
      outer = coroutine.create(function()
        local inner = coroutine.create(function() return pcall(coroutine.close, outer) end)
        return coroutine.resume(inner)
      end)
      put(coroutine.resume(outer))
      put(coroutine.resume(coroutine.running()))
      put(pcall(coroutine.close, 1))
      put(select("#", table.unpack({}, 1, 0)), table.unpack({1, 2, 3}, -1, 1))
      put(pcall(table.unpack, {}, 1, 1e8))
      for _, init in ipairs({-100, -3, 0, 1, 4, 9, 10, 11, 20}) do
        local got = {}
        for a, b in ("hello world"):gmatch("()(o?)", init) do got[#got + 1] = a .. "=" .. b end
        put(init, table.concat(got, " "))
      end
      local it = ("abc"):gmatch("^.")
      put(it(), it(), it())
      it = ("a,b,,c"):gmatch("[^,]*")
      put(it(), it(), it(), it(), it(), it())
      put(("abc"):gsub("", "-")); put(("abc"):gsub("^", ">")); put(("abc"):gsub("$", "<"))
      put(("hello world"):gsub("o", {o = "0"})); put(("hello"):gsub("l", {l = false}))
      put(("hello"):gsub("(l)(l)", "%2%1%0%%")); put(("abc"):gsub("%w", "%1", 2))
      put(pcall(string.gsub, "abc", "b", "%")); put(pcall(string.gsub, "abc", "b", "%x"))
      put(pcall(string.gsub, "abc", "(b)", "%2")); put(pcall(string.gsub, "abc", "b", {b = {}}))
      put(("abc"):gsub("()", "%1")); put(("abc"):gsub("b", function() end))
      put(("abc"):gsub("", "x", 0)); put(("abc"):gsub("", "x", -1)); put(("abc"):gsub("x*", "-"))
      put(("a.b"):find(".", 1, true)); put(("a.b"):find("^b", 3)); put(("a.b"):find("", 4))
      put(("a.b"):find("", 5)); put(("a.b"):match("(%a)(.)()", -2)); put(("aaa"):find("a-", 2))
      return table.concat(out, "\n")
      """#
    let stock = comparison.run(chunk, with: .stock)
    #expect(!stock.starts(with: Array("error:".utf8)), "\(String(decoding: stock, as: UTF8.self))")
    #expect(
      String(decoding: comparison.run(chunk, with: .bounded), as: UTF8.self)
        == String(decoding: stock, as: UTF8.self))
  }

  /// Sorts past the 100 elements where the pivot may move off the middle: shapes that
  /// make a fixed pivot lopsided still sort, as Lua's do.
  @Test func largeSorts() throws {
    let comparison = try LibraryComparison()
    let chunk = #"""
      local shapes = {}
      math.randomseed(7)
      local n = 3000
      local function make(f) local t = {} for i = 1, n do t[i] = f(i) end return t end
      shapes[#shapes + 1] = make(function(i) return i end)
      shapes[#shapes + 1] = make(function(i) return n - i end)
      shapes[#shapes + 1] = make(function(i) return i % 7 end)
      shapes[#shapes + 1] = make(function(i) return i <= n // 2 and i or n - i end)
      shapes[#shapes + 1] = make(function() return math.random(1000000) end)
      local out = {}
      for k, t in ipairs(shapes) do
        table.sort(t, k % 2 == 0 and function(a, b) return a > b end or nil)
        local sum = 0
        for i = 1, #t do sum = (sum * 31 + t[i]) % 1000000007 end
        out[#out + 1] = sum
      end
      return table.concat(out, " ")
      """#
    let stock = comparison.run(chunk, with: .stock)
    #expect(!stock.starts(with: Array("error:".utf8)), "\(String(decoding: stock, as: UTF8.self))")
    #expect(
      String(decoding: comparison.run(chunk, with: .bounded), as: UTF8.self)
        == String(decoding: stock, as: UTF8.self))
  }

  func compare(seed: Int64, count: Int) throws {
    let comparison = try LibraryComparison()
    let arguments: [LibraryComparison.Argument] = [.integer(seed), .integer(Int64(count))]
    let bounded = comparison.run(Self.cases, with: .bounded, arguments: arguments)
    let stock = comparison.run(Self.cases, with: .stock, arguments: arguments)
    #expect(!stock.starts(with: Array("error:".utf8)), "\(String(decoding: stock, as: UTF8.self))")
    guard bounded != stock else { return }
    let newline = UInt8(ascii: "\n")
    let ours = bounded.split(separator: newline, omittingEmptySubsequences: false)
    let theirs = stock.split(separator: newline, omittingEmptySubsequences: false)
    let first =
      (0..<min(ours.count, theirs.count)).first { ours[$0] != theirs[$0] }
      ?? min(ours.count, theirs.count)
    func line(_ lines: [ArraySlice<UInt8>]) -> String {
      first < lines.count ? String(decoding: lines[first], as: UTF8.self) : "(no line)"
    }
    let report =
      "seed \(seed): the bounded library differs from Lua's\n  bounded: \(line(ours))\n"
      + "  stock:   \(line(theirs))"
    Issue.record(Comment(rawValue: report))
  }
}
