import FuzzSupport
import MorphScript

/// The sandbox's bounded `string` and `table` functions against Lua's own: one call per
/// input, the same in both states of a `LibraryComparison`; its results, error message
/// and side effects must be the same bytes. The input is an operation byte, a flags byte,
/// a pattern length byte, then the pattern and the subject (any bytes; for the table
/// functions the subject's bytes are the array). A call the bounded library stops with
/// its budget is not run with Lua's own (which has none: it would hang).
let chunk = #"""
  local op, flags, p, s = ...
  local format, mtype = string.format, math.type
  local function show(v, depth)
    local t = type(v)
    if t == "string" then return format("%q", v) end
    if t == "number" then return mtype(v) .. ":" .. format("%q", v) end
    if t == "table" and (depth or 0) < 2 then
      local parts = {}
      for i = 1, #v do parts[i] = show(rawget(v, i), (depth or 0) + 1) end
      return "{" .. table.concat(parts, ",") .. "}"
    end
    return tostring(v)
  end
  local function outcome(ok, ...)
    local parts = { ok and "ok" or "error" }
    for i = 1, select("#", ...) do parts[#parts + 1] = show((select(i, ...))) end
    return table.concat(parts, " ")
  end
  local inits = { nil, 1, 0, 2, -1, -5, 100, math.mininteger }
  local init = inits[flags % 8 + 1]
  local templates = { "%0", "%1", "<%2>", "%%", "%", "x%9", "" }
  local log = {}
  local replacers = {
    function(...) log[#log + 1] = select("#", ...) .. table.concat({ ... }, ",") end,
    function(a) return a end,
    function() return false end,
    function() return {} end,
  }
  local array = { s:byte(1, math.min(#s, 200)) }
  local comparators = {
    nil,
    function(a, b) return a > b end,
    function(a, b) return a <= b end,
    function(a, b) return (a + b) % 3 == 0 end,
  }
  op = op % 14
  local result
  if op == 0 then
    result = outcome(pcall(string.find, s, p, init, flags >= 128))
  elseif op == 1 then
    result = outcome(pcall(string.match, s, p, init))
  elseif op == 2 then
    result = outcome(pcall(function()
      local found = {}
      for a, b in string.gmatch(s, p, init) do
        found[#found + 1] = show(a) .. show(b)
        if #found > 100 then break end
      end
      return table.concat(found, ";")
    end))
  elseif op == 3 then
    result = outcome(pcall(string.gsub, s, p, templates[flags % 7 + 1], flags >= 128 and 2 or nil))
  elseif op == 4 then
    result = outcome(pcall(string.gsub, s, p, { a = "A", b = false, [""] = 1 }))
  elseif op == 5 then
    result = outcome(pcall(string.gsub, s, p, replacers[flags % 4 + 1])) .. table.concat(log, ";")
  elseif op == 6 then
    result = outcome(pcall(string.rep, p, flags % 40 - 3, s:sub(1, 3)))
  elseif op == 7 then
    result = outcome(pcall(table.sort, array, comparators[flags % 4 + 1])) .. show(array)
  elseif op == 8 then
    result = outcome(pcall(table.insert, array, (flags % 16) - 2, "v")) .. show(array)
  elseif op == 9 then
    result = outcome(pcall(table.remove, array, (flags % 16) - 2)) .. show(array)
  elseif op == 10 then
    local f, e, t = #p > 0 and p:byte(1) - 128 or 1, flags % 32 - 4, #p > 1 and p:byte(2) - 128 or 2
    result = outcome(pcall(table.move, array, f, e, t)) .. show(array)
  elseif op == 11 then
    array[flags % 8 + 1] = flags >= 128 and {} or array[1]
    result = outcome(pcall(table.concat, array, p, init))
  elseif op == 12 then
    result = outcome(pcall(table.unpack, array, init, flags % 32 - 4))
  else
    result = outcome(pcall(string.find, s, "^" .. p, init))
  end
  return result
  """#

/// One comparison for the whole run: two states, reused. A million instructions ends a
/// backtracking bomb in about a second of instrumented code, well inside libFuzzer's
/// timeout on a loaded machine (five million took over ten seconds under load).
nonisolated(unsafe) let comparison = try! LibraryComparison(budget: 1_000_000)

/// libFuzzer's callback: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let input = bytes(data, count)
  var reader = ByteReader(input)
  let op = Int64(reader.byte())
  let flags = Int64(reader.byte())
  let patternLength = Int(reader.byte() % 64)
  let rest = Array(input.dropFirst(3))
  let pattern = Array(rest.prefix(patternLength))
  let subject = Array(rest.dropFirst(patternLength).prefix(1024))
  let arguments: [LibraryComparison.Argument] = [
    .integer(op), .integer(flags), .bytes(pattern), .bytes(subject),
  ]
  let bounded = comparison.run(chunk, with: .bounded, arguments: arguments)
  let stopped = String(decoding: bounded, as: UTF8.self).contains("exceeded its time budget")
  if bounded.starts(with: Array("error: ".utf8)) && stopped { return 0 }
  let stock = comparison.run(chunk, with: .stock, arguments: arguments)
  if bounded != stock {
    fatalError(
      "the bounded library differs from Lua's\n  bounded: \(String(decoding: bounded, as: UTF8.self))"
        + "\n  stock:   \(String(decoding: stock, as: UTF8.self))")
  }
  return 0
}

@_cdecl("FuzzLibraryDiff_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  fuzz(argc, argv) { testOneInput($0, $1) }
}
