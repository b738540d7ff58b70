-- Generated calls of string.find/match/gmatch/gsub/rep and table.insert/
-- remove/move/concat/unpack/sort, run once with the host's bounded library
-- and once with Lua's own (DifferentialTests.swift): the same seed makes the
-- same calls in both states, and each call's results, error message and side
-- effects are written out as one line, "index: call => outcome".
-- Arguments: the seed and the number of cases.
local seed, count = ...
math.randomseed(seed)
local random, format, mtype = math.random, string.format, math.type
local pack, unpack = table.pack, table.unpack

local function pick(list) return list[random(#list)] end

-- Pattern pieces: single items, sets (also unbalanced), anchors, captures,
-- back-references, %b and %f, and pieces that make a pattern malformed.
local items = {
  "a", "b", "c", "x", "(", ")", "()", ".", "%a", "%d", "%w", "%s", "%p", "%l", "%u", "%x", "%c",
  "%g", "%z", "%A", "%D", "%W", "%S", "%.", "%%", "%]", "%-", "[ab]", "[^a]", "[a-c]", "[%a_]",
  "[]]", "[^]]", "[a-]", "[-a]", "[%]]", "[a%-z]", "[\0-\31]", "[\128-\255]", "[", "[^", "[a",
  "%", "%b()", "%bab", "%b", "%b(", "%f[%w]", "%f[%W]", "%f[a]", "%f[^\0]", "%f", "%fa", "%1",
  "%2", "%0", "$", "^", "\0", "\255", "\128", "-", "*", "?", "+", " ", "a%1", "(a)", "(a*)",
  "(.-)", "((a)(b))",
}
local suffixes = { "", "", "", "*", "+", "-", "?" }
local subject_bytes = {
  "a", "a", "a", "b", "b", "c", "x", "(", ")", "[", "]", " ", "\0", "\255", "\128", "_", "1",
  "A", "%", "-", ".", "\n",
}

local function gen_pattern()
  local parts = {}
  if random(6) == 1 then parts[#parts + 1] = "^" end
  for _ = 1, random(0, 5) do parts[#parts + 1] = pick(items) .. pick(suffixes) end
  if random(8) == 1 then parts[#parts + 1] = "$" end
  return table.concat(parts)
end

local function gen_subject(max)
  local parts = {}
  for _ = 1, random(0, max or 12) do parts[#parts + 1] = pick(subject_bytes) end
  return table.concat(parts)
end

local inits = { 1, 1, 1, 0, 2, 3, -1, -3, -100, 100, math.mininteger, math.maxinteger }
local templates = { "%0", "%1", "<%1>", "%2", "%%", "%", "%x", "x", "", "[%0%1]", "%9", 7 }
local lookup = { a = "A", b = false, ["("] = 1.5, c = {}, aa = "AA" }
local replacers = {
  function(...) return select("#", ...) .. ":" .. table.concat({ ... }, ",") end,
  function() return nil end,
  function(a) return a == "a" and false or "R" end,
  function() return {} end,
  function(a) return #tostring(a) end,
}

-- Writes a value as a type-tagged, quoted string.
local function show(v, depth)
  local t = type(v)
  if t == "string" then return format("%q", v) end
  if t == "number" then return mtype(v) .. ":" .. format("%q", v) end
  if t == "table" and (depth or 0) < 2 then
    local n = 0
    for k in pairs(v) do
      if mtype(k) == "integer" and k > n and k < 1000 then n = k end
    end
    local parts = {}
    for i = 1, n do parts[i] = show(rawget(v, i), (depth or 0) + 1) end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  if t == "nil" or t == "boolean" then return tostring(v) end
  return t
end

local function outcome(ok, ...)
  local parts = { ok and "ok" or "error" }
  for i = 1, select("#", ...) do parts[#parts + 1] = show((select(i, ...))) end
  return table.concat(parts, " ")
end

local function call(name, f, ...)
  local args = pack(...)
  local shown = {}
  for i = 1, args.n do shown[i] = show(args[i]) end
  return name .. "(" .. table.concat(shown, ", ") .. ") => " .. outcome(pcall(f, ...))
end

local function gmatch_all(s, p, init)
  local found = {}
  for a, b, c in string.gmatch(s, p, init) do
    found[#found + 1] = show(a) .. "|" .. show(b) .. "|" .. show(c)
    if #found > 40 then break end
  end
  return table.concat(found, ";")
end

-- Arrays for the table functions, and a proxy whose accesses are logged.
local function gen_array(max)
  local t = {}
  for i = 1, random(0, max or 8) do t[i] = random(1, 6) end
  return t
end

local function proxy(t, log)
  return setmetatable({}, {
    __index = function(_, k) log[#log + 1] = "r" .. tostring(k); return t[k] end,
    __newindex = function(_, k, v) log[#log + 1] = "w" .. tostring(k); t[k] = v end,
    __len = function() return #t end,
  })
end

local comparators = {
  false,
  function(a, b) return a > b end,
  function(a, b) return a < b end,
  function() return true end,
  function(a, b) return a <= b end,
  function() return random(2) == 1 end,
  function(a, b) return (a % 3) < (b % 3) end,
}

local cases = {}

cases[#cases + 1] = function()
  local s, p = gen_subject(), gen_pattern()
  local init = random(3) == 1 and pick(inits) or nil
  return call("find", string.find, s, p, init, random(8) == 1 or nil)
end
cases[#cases + 1] = function()
  local s, p = gen_subject(), gen_pattern()
  return call("match", string.match, s, p, random(3) == 1 and pick(inits) or nil)
end
cases[#cases + 1] = function()
  local s, p = gen_subject(), gen_pattern()
  return call("gmatch", gmatch_all, s, p, random(4) == 1 and pick(inits) or nil)
end
cases[#cases + 1] = function()
  local s, p = gen_subject(), gen_pattern()
  local r = random(3)
  local repl = r == 1 and pick(templates) or r == 2 and lookup or pick(replacers)
  return call("gsub", string.gsub, s, p, repl, random(5) == 1 and random(-1, 3) or nil)
end
cases[#cases + 1] = function()
  -- around the matcher's depth limit and the capture limit, with subjects
  -- that the first path through the pattern matches (no backtracking bomb)
  local k = random(190, 205)
  local kind = random(3)
  if kind == 1 then
    local tail = random(0, 3)
    local s = string.rep("a", k + tail + random(0, 2))
    return call("find", string.find, s, string.rep("a?", k) .. string.rep("a", tail))
  elseif kind == 2 then
    local n = random(28, 36)
    local s = string.rep("a", random(0, 2))
    return call("match", string.match, s, string.rep("(", n) .. "a*" .. string.rep(")", n))
  else
    local n = random(28, 34)
    return call("match", string.match, pick({ "", "a", "b" }), string.rep("(a*)", n))
  end
end
cases[#cases + 1] = function()
  -- a longer subject, with a pattern that scans it
  local s = string.rep(gen_subject(6) .. "a", random(10, 80))
  return call("gsub", string.gsub, s, pick({ "%f[%w]%w+", "a+", "(a)(.-)%1", "[^a]*", "%f[%W]" }), "<%0>")
end
cases[#cases + 1] = function()
  local n = pick({ -1, 0, 1, 2, 3, 5, 2 ^ 31, math.maxinteger, 1e10, 2.5 })
  local s, sep = gen_subject(3), random(2) == 1 and gen_subject(2) or nil
  -- (Lua's own rep loops n times over an empty string: a long wait)
  if s == "" and (sep or "") == "" and n > 5 then n = 5 end
  return call("rep", string.rep, s, n, sep)
end
cases[#cases + 1] = function()
  local t = gen_array()
  local args = pack(random(0, 3) == 0 and random(-1, #t + 2) or nil, "v")
  if random(4) == 1 then args = pack("v") end
  if random(10) == 1 then args = pack(1, 2, 3) end
  local r = call("insert", table.insert, t, unpack(args, 1, args.n))
  return r .. " " .. show(t)
end
cases[#cases + 1] = function()
  local t = gen_array()
  local pos = random(3) > 1 and random(-1, #t + 2) or nil
  local r = call("remove", table.remove, t, pos)
  return r .. " " .. show(t)
end
cases[#cases + 1] = function()
  local t, dest = gen_array(), random(2) == 1 and gen_array() or nil
  local f, e, to = random(-2, 6), random(-2, 8), random(-2, 8)
  if random(10) == 1 then f, e = math.mininteger, math.maxinteger end
  if random(10) == 1 then to = math.maxinteger end
  local r = call("move", table.move, t, f, e, to, dest)
  return r .. " " .. show(t) .. " " .. show(dest)
end
cases[#cases + 1] = function()
  local t = gen_array()
  if random(4) == 1 then t[random(1, 9)] = pick({ {}, true, "s", 2.5 }) end
  return call("concat", table.concat, t, pick({ ",", "", nil }), random(3) == 1 and random(-1, 3) or nil,
    random(3) == 1 and random(0, 10) or nil)
end
cases[#cases + 1] = function()
  local t = gen_array()
  return call("unpack", table.unpack, t, random(3) == 1 and random(-2, 4) or nil,
    random(3) == 1 and random(-1, 12) or nil)
end
cases[#cases + 1] = function()
  local t = gen_array(random(2) == 1 and 12 or 40)
  local comp = pick(comparators)
  local log = {}
  local target = random(4) == 1 and proxy(t, log) or t
  local consistent = comp == comparators[1] or comp == comparators[2] or comp == comparators[3]
  -- A comparator may draw random numbers: the cases after it go on from a
  -- seed drawn before, however often it was called.
  local after = random(1 << 30)
  local r = call("sort", table.sort, target, comp or nil)
  math.randomseed(after)
  return r .. " " .. show(t) .. " " .. table.concat(log, ",") .. (consistent and "" or " (inconsistent)")
end
cases[#cases + 1] = function()
  local t = gen_array()
  local log = {}
  local p = proxy(t, log)
  local which = random(4)
  local r
  if which == 1 then
    r = call("insert", table.insert, p, random(1, #t + 1), "v")
  elseif which == 2 then
    r = call("remove", table.remove, p, random(1, #t + 1))
  elseif which == 3 then
    r = call("move", table.move, p, 1, #t, random(1, 4))
  else
    r = call("concat", table.concat, p, "-")
  end
  return r .. " " .. show(t) .. " " .. table.concat(log, ",")
end

local lines = {}
for i = 1, count do
  local case = cases[random(#cases)]
  lines[i] = i .. ": " .. case()
end
return table.concat(lines, "\n")
