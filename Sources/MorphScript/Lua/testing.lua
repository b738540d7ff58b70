-- `morph.test`: the vocabulary of `*.test.lua` files (docs/testing.md). Each
-- constructor checks its arguments where the test file wrote them and records
-- that line; `encode` turns what the file returned into JSON for the host's
-- runner (`TestFile.swift` reads it). Trusted: runs once in a test file's
-- state, after the sandbox is built; plugins never see it.
--
-- What a constructor checked is what the runner gets: it keeps its own copy of
-- each record out of the test file's reach and hands the file a copy, so a
-- table edited after the call (an emptied `values`, a renamed snapshot, a
-- moment moved to -1e9) changes nothing. `rules` are the numbers the host owns
-- (`TestCheck` in TestFile.swift): the snapshot scales and name length.
local morph, support, rules = ...
local type, pairs, ipairs, tostring, tonumber, next = type, pairs, ipairs, tostring, tonumber, next
local setmetatable, getmetatable, rawlen, rawget = setmetatable, getmetatable, rawlen, rawget
local format, concat, sort, utf8len = string.format, table.concat, table.sort, utf8.len
local check, raise, typename = support.check, support.raise, support.typename

local test = {}
-- Each handle given to the test file → { kind, record }: the checked record,
-- which only this file holds. Weak, so the entries never outlive the handles.
local sealed = setmetatable({}, { __mode = "k" })

-- What `v` is ("approx", "check", "at", "case"), when this file made it.
local function kind(v)
  local entry = sealed[v]
  return entry and entry[1]
end

-- The checked record behind a handle.
local function record(v)
  return sealed[v][2]
end

-- The test file's line that called the constructor (0 when Lua cannot tell).
local function line()
  local w = support.where()
  return w and tonumber(w:match(":(%d+)$")) or 0
end

local function text(v, n, fname, key)
  check.string(v, n, fname, key)
  if utf8len(v) == nil then check.error(n, fname, "text must be valid UTF-8", key) end
  return v
end

local function time(v, n, fname)
  check.finite(v, n, fname)
  if v < 0 then check.error(n, fname, "time must be >= 0, got " .. tostring(v)) end
  return v
end

local function tolerance(v, n, fname, default)
  if v == nil then return default end
  check.finite(v, n, fname)
  if v < 0 then check.error(n, fname, "tolerance must be >= 0, got " .. tostring(v)) end
  return v
end

-- Plain data only: strings, numbers, booleans and tables of them.
local function copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in next, v do out[k] = copy(x) end
  return out
end

-- Keeps `t` (just checked) private and returns a copy for the test file.
local function seal(what, t)
  local handle = copy(t)
  sealed[handle] = { what, t }
  return handle
end

---A number within `tolerance` (default 1e-6) of `value`.
---@param value number
---@param tolerance? number
---@return morph.Approx
function test.approx(value, tol)
  check.finite(value, 1, "approx")
  return seal("approx", { value = value, tolerance = tolerance(tol, 2, "approx", 1e-6) })
end

---The accessibility value, or some of label, value and hint.
---@param want string|{label?: string, value?: string, hint?: string}
---@return morph.TestCheck
function test.accessibility(want)
  local fields = {}
  if type(want) == "string" then
    fields.value = text(want, 1, "accessibility")
  else
    check.options(want, { "label", "value", "hint" }, 1, "accessibility")
    for k, v in pairs(want) do fields[k] = text(v, 1, "accessibility", k) end
    if next(fields) == nil then check.error(1, "accessibility", "name at least one of label, value, hint") end
  end
  return seal("check", { kind = "accessibility", line = line(), fields = fields })
end

local function node_id(id, fname)
  text(id, 1, fname)
  if id == "" then check.error(1, fname, "a node id must not be empty") end
  return id
end

-- `count` finite numbers from an array.
local function numbers(t, count, n, fname, what)
  check.table(t, n, fname)
  if rawlen(t) ~= count then check.error(n, fname, format("%s expected", what)) end
  local out = {}
  for i = 1, count do
    local v = rawget(t, i)
    if type(v) ~= "number" or v - v ~= 0 then
      check.error(n, fname, format("%s expected; item %d is %s", what, i, typename(v)))
    end
    out[i] = v
  end
  return out
end

---The box around the node marked `:id(id)`, in the component's points.
---@param id string
---@param rect number[] {x, y, width, height}
---@param tolerance? number default 0.01
---@return morph.TestCheck
function test.frame(id, rect, tol)
  node_id(id, "frame")
  local r = numbers(rect, 4, 2, "frame", "{x, y, width, height}")
  return seal("check", {
    kind = "frame", line = line(), id = id, values = r, tolerance = tolerance(tol, 3, "frame", 0.01),
  })
end

---The node's four corners after every transform (top-left, top-right, bottom-right,
---bottom-left), in the component's points.
---@param id string
---@param corners number[][] four {x, y}
---@param tolerance? number default 0.01
---@return morph.TestCheck
function test.quad(id, corners, tol)
  node_id(id, "quad")
  check.table(corners, 2, "quad")
  if rawlen(corners) ~= 4 then check.error(2, "quad", "four corners {x, y} expected") end
  local values = {}
  for i = 1, 4 do
    local p = numbers(rawget(corners, i), 2, 2, "quad", "corner {x, y}")
    values[#values + 1], values[#values + 2] = p[1], p[2]
  end
  return seal("check", {
    kind = "quad", line = line(), id = id, values = values, tolerance = tolerance(tol, 3, "quad", 0.01),
  })
end

---The drawn opacity of the node marked `:id(id)`: its own times every group's around it.
---@param id string
---@param value number 0 to 1
---@param tolerance? number default 0.001
---@return morph.TestCheck
function test.opacity(id, value, tol)
  node_id(id, "opacity")
  check.finite(value, 2, "opacity")
  return seal("check", {
    kind = "opacity", line = line(), id = id, values = { value },
    tolerance = tolerance(tol, 3, "opacity", 0.001),
  })
end

-- A colour written as "#RRGGBB[AA]" or a name: the host parses it, at this line.
local function stop_list(stops, n, fname)
  check.table(stops, n, fname, "stops")
  local count = rawlen(stops)
  if count == 0 then check.error(n, fname, "stops: at least one {color, location} expected", "stops") end
  local out = {}
  for i = 1, count do
    local s = rawget(stops, i)
    if type(s) ~= "table" or type(rawget(s, 1)) ~= "string" or type(rawget(s, 2)) ~= "number"
      or rawget(s, 2) - rawget(s, 2) ~= 0 or rawlen(s) ~= 2 then
      check.error(n, fname, format("stop %d: {\"#RRGGBB\", location} expected", i), "stops")
    end
    out[i] = { text(rawget(s, 1), n, fname, "stops"), rawget(s, 2) }
  end
  return out
end

---The gradient the node marked `:id(id)` is filled with: its ends (`from`, `to`: a linear
---gradient's) or its `center` (radial, angular) in the component's points, and its
---`stops` (`{"#RRGGBB[AA]", location}`); what is left out is not checked. Points within
---`tolerance` points, colour channels and locations within `tolerance` (0…1).
---@param id string
---@param want {from?: number[], to?: number[], center?: number[], stops?: table[]}
---@param tolerance? number default 0.01
---@return morph.TestCheck
function test.gradient(id, want, tol)
  node_id(id, "gradient")
  check.options(want, { "from", "to", "center", "stops" }, 2, "gradient")
  local c = { kind = "gradient", line = line(), id = id, tolerance = tolerance(tol, 3, "gradient", 0.01) }
  for _, k in ipairs { "from", "to", "center" } do
    if want[k] ~= nil then c[k] = numbers(want[k], 2, 2, "gradient", k .. " {x, y}") end
  end
  if want.stops ~= nil then c.stops = stop_list(want.stops, 2, "gradient") end
  if c.from == nil and c.to == nil and c.center == nil and c.stops == nil then
    check.error(2, "gradient", "name at least one of from, to, center, stops")
  end
  return seal("check", c)
end

-- A snapshot's own tolerance: what `ImageTolerance` (MorphRender) calls channelDelta,
-- edgeChannelDelta, maxDifferingFraction and maxClusterPixels; unnamed ones keep the
-- host's defaults (docs/testing.md).
-- Each field's range, and whether it is a whole number.
local snapshot_tolerance_fields = {
  { "channel", 255, true }, { "edgeChannel", 255, true }, { "fraction", 1, false },
  { "cluster", rules.maxCluster, true },
}
local function snapshot_tolerance(t)
  check.options(t, { "channel", "edgeChannel", "fraction", "cluster" }, 2, "snapshot")
  local out = {}
  for _, field in ipairs(snapshot_tolerance_fields) do
    local k, most, whole = field[1], field[2], field[3]
    if t[k] ~= nil then
      local v = check.finite(t[k], 2, "snapshot", "tolerance." .. k)
      if v < 0 or v > most or (whole and v % 1 ~= 0) then
        check.error(2, "snapshot", format("must be %s in [0, %s], got %s",
          whole and "a whole number" or "a number", tostring(most), tostring(v)), "tolerance." .. k)
      end
      out[k] = v
    end
  end
  return out
end

---The picture, compared with the golden `NAME.png` in the `<file>.snapshots` folder beside
---the test file (`morphhost test --update` records it). `tolerance` loosens or tightens
---this snapshot's comparison: `channel` (0-255, away from edges), `edgeChannel` (near
---edges), `fraction` (of pixels that may differ) and `cluster` (the most differing pixels
---that may touch).
---@param name string letters, digits, '_' and '-'
---@param options? {scale?: number, tolerance?: table<string, number>} scale: pixels a point, 0.25 to 4 (default 1)
---@return morph.TestCheck
function test.snapshot(name, options)
  text(name, 1, "snapshot")
  if not name:match("^[%w_][%w_%-]*$") or #name > rules.nameLength then
    check.error(1, "snapshot", "a name is letters, digits, '_' and '-' (a file name), got '" .. name .. "'")
  end
  local scale, within = 1, nil
  if options ~= nil then
    check.options(options, { "scale", "tolerance" }, 2, "snapshot")
    if options.scale ~= nil then
      scale = check.finite(options.scale, 2, "snapshot", "scale")
      if scale < rules.minScale or scale > rules.maxScale then
        check.error(2, "snapshot", format("scale must be in [%s, %s], got %s",
          tostring(rules.minScale), tostring(rules.maxScale), tostring(scale)), "scale")
      end
    end
    if options.tolerance ~= nil then
      within = snapshot_tolerance(options.tolerance)
      if next(within) == nil then within = nil end
    end
  end
  return seal("check", { kind = "snapshot", line = line(), name = name, scale = scale, within = within })
end

--- settled: at rest (nothing that will end is moving); `at(t){ test.settled }`.
test.settled = seal("check", { kind = "settled" })

-- One expectation of a state key: a number (within 1e-9), approx(…), a string or a boolean;
-- a plain table is a composite key's fields (`pt = {x = 1, y = approx(2, 0.1)}`, an array's
-- `{1, 2}`), each checked as the channel `key.field` the engine animates, into `out`.
local function state_checks(key, want, n, out)
  if type(want) == "table" and getmetatable(want) == nil and kind(want) == nil then
    local fields = {}
    for k in pairs(want) do
      if type(k) ~= "string" and (type(k) ~= "number" or k % 1 ~= 0 or k < 1) then
        check.error(n, "at", "a composite's fields are names or list positions, got " .. typename(k), key)
      end
      fields[#fields + 1] = k
    end
    if #fields == 0 then check.error(n, "at", "a composite value needs at least one field", key) end
    sort(fields, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(fields) do state_checks(key .. "." .. tostring(k), want[k], n, out) end
    return
  end
  local c = { kind = "state", key = key }
  if type(want) == "number" then
    check.finite(want, n, "at", key)
    c.number, c.tolerance = want, 1e-9
  elseif kind(want) == "approx" then
    local approx = record(want)
    c.number, c.tolerance = approx.value, approx.tolerance
  elseif type(want) == "string" then
    c.text = text(want, n, "at", key)
  elseif type(want) == "boolean" then
    c.boolean = want
  else
    check.error(n, "at", "a number, approx(…), string, boolean or a composite's fields expected, got "
      .. typename(want), key)
  end
  out[#out + 1] = c
end

---Expectations at `t` seconds on the component's clock: string keys are state keys
---(a number is checked within 1e-9, `approx(v, tol)` within tol, strings and booleans
---exactly, a table field by field: `pt = {x = 1, y = approx(2, 0.1)}`); list items are
---checks (`accessibility`, `frame`, `quad`, `opacity`, `gradient`, `snapshot`, `settled`).
---@param t number seconds, >= 0
---@return fun(expectations: table): morph.TestMoment
function test.at(t)
  time(t, 1, "at")
  return function(expectations)
    check.table(expectations, 1, "at")
    local where, checks = line(), {}
    for k, v in pairs(expectations) do
      if type(k) == "string" then
        state_checks(k, v, 1, checks)
      elseif type(k) ~= "number" or k < 1 or k > rawlen(expectations) or k % 1 ~= 0 then
        check.error(1, "at", "keys are state names (strings) or list positions, got " .. typename(k))
      elseif kind(v) ~= "check" then
        check.error(1, "at", format(
          "item %d: a check (test.accessibility, frame, quad, opacity, gradient, snapshot or settled) expected, got %s",
          k, typename(v)))
      end
    end
    -- State keys in name order, then the list in its order: output never depends on hashing.
    sort(checks, function(a, b) return a.key < b.key end)
    for i = 1, rawlen(expectations) do
      local c = copy(record(rawget(expectations, i)))
      c.line = (c.line ~= nil and c.line ~= 0) and c.line or where
      checks[#checks + 1] = c
    end
    for _, c in ipairs(checks) do
      c.time = t
      if c.line == nil then c.line = where end
    end
    return seal("at", { line = where, checks = checks })
  end
end

---The component comes to rest at or before `t` seconds.
---@param t number
---@return morph.TestMoment
function test.settledBy(t)
  time(t, 1, "settledBy")
  return seal("at", { line = line(), checks = { { kind = "settled", time = t, line = line() } } })
end

-- A `--set` value as the Lua literal the host reads back.
local function literal(v, n, key)
  if type(v) == "number" then
    check.finite(v, n, "case", key)
    return format("%.17g", v)
  elseif type(v) == "boolean" then
    return tostring(v)
  elseif type(v) == "string" then
    return format("%q", text(v, n, "case", key))
  elseif type(v) == "table" and getmetatable(v) == nil then
    local parts = {}
    for i = 1, rawlen(v) do parts[i] = literal(rawget(v, i), n, key) end
    return "{" .. concat(parts, ", ") .. "}"
  end
  check.error(n, "case", "a number, string, boolean or list of them expected, got " .. typename(v), key)
end

local case_fields = { "plugin", "props", "input", "inputFile", "reduceMotion" }
local is_case_field = {}
for _, k in ipairs(case_fields) do is_case_field[k] = true end

---A case: `test.case "name" { plugin = "x.lua", input = "0 tap", test.at(0.3) { … } }`.
---@param name string
---@return fun(definition: morph.TestCaseDefinition): morph.TestCase
function test.case(name)
  text(name, 1, "case")
  local where = line()
  return function(def)
    check.table(def, 1, "case")
    local c = { name = name, line = where, props = {}, checks = {} }
    local length = rawlen(def)
    for k, v in pairs(def) do
      if type(k) == "number" and k >= 1 and k <= length and k % 1 == 0 then
        if kind(v) ~= "at" then
          check.error(1, "case", format("item %d: at(t){…} or settledBy(t) expected, got %s", k, typename(v)))
        end
      elseif not is_case_field[k] then
        check.error(1, "case", format("unknown field '%s'; valid fields: %s", tostring(k), concat(case_fields, ", ")))
      end
    end
    c.plugin = text(def.plugin, 1, "case", "plugin")
    if def.input ~= nil then c.input = text(def.input, 1, "case", "input") end
    if def.inputFile ~= nil then c.inputFile = text(def.inputFile, 1, "case", "inputFile") end
    if c.input ~= nil and c.inputFile ~= nil then
      check.error(1, "case", "give input or inputFile, not both")
    end
    if def.reduceMotion ~= nil then
      c.reduceMotion = check.type(def.reduceMotion, "boolean", 1, "case", "reduceMotion")
    end
    if def.props ~= nil then
      check.table(def.props, 1, "case", "props")
      for k, v in pairs(def.props) do
        if type(k) ~= "string" then check.error(1, "case", "prop names must be strings", "props") end
        c.props[#c.props + 1] = { k, literal(v, 1, k) }
      end
      sort(c.props, function(a, b) return a[1] < b[1] end)
    end
    for i = 1, length do
      for _, check_ in ipairs(record(rawget(def, i)).checks) do c.checks[#c.checks + 1] = check_ end
    end
    if #c.checks == 0 then
      check.error(1, "case", "a case needs at least one expectation, in at(t){…} or settledBy(t)")
    end
    return seal("case", c)
  end
end

-- JSON of the tables built above (strings, finite numbers, booleans, arrays, records).
local escapes = { ['"'] = '\\"', ["\\"] = "\\\\" }
local function json(v, out)
  local t = type(v)
  if t == "string" then
    out[#out + 1] = '"' .. v:gsub('[%c"\\]', function(c)
      return escapes[c] or format("\\u%04x", c:byte())
    end) .. '"'
  elseif t == "number" then
    out[#out + 1] = format("%.17g", v)
  elseif t == "boolean" then
    out[#out + 1] = tostring(v)
  elseif rawlen(v) > 0 or next(v) == nil then
    out[#out + 1] = "["
    for i = 1, rawlen(v) do
      if i > 1 then out[#out + 1] = "," end
      json(v[i], out)
    end
    out[#out + 1] = "]"
  else
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    sort(keys)
    out[#out + 1] = "{"
    for i, k in ipairs(keys) do
      if i > 1 then out[#out + 1] = "," end
      json(k, out)
      out[#out + 1] = ":"
      json(v[k], out)
    end
    out[#out + 1] = "}"
  end
end

--- The host's reader: what a test file returned (a list of cases) as JSON, or an error.
local function encode(result)
  if type(result) ~= "table" or getmetatable(result) ~= nil then
    raise("a test file must return a list of test.case \"name\" {…}, got " .. typename(result))
  end
  local n = rawlen(result)
  for k in pairs(result) do
    if type(k) ~= "number" or k < 1 or k > n or k % 1 ~= 0 then
      raise("a test file must return a list of cases; found the key '" .. tostring(k) .. "'")
    end
  end
  if n == 0 then raise("a test file must return at least one case") end
  local cases = {}
  for i = 1, n do
    local c = rawget(result, i)
    if kind(c) ~= "case" then
      local hint = type(c) == "function" and " (a case's table is missing after test.case \"name\")" or ""
      raise(format("item %d of the returned list is %s, not a test.case \"name\" {…}%s", i, typename(c), hint))
    end
    cases[i] = record(c)
  end
  local out = {}
  json(cases, out)
  return concat(out)
end

morph.test = test
return encode
