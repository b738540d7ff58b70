-- Helpers the host's own Lua files share. Trusted: runs once per state,
-- before any plugin, and receives `debug.getinfo`, `debug.traceback` and
-- Lua's own `pcall` (which plugins never see).
local getinfo, traceback, host_pcall, nearest, swiftui = ...
local type, getmetatable, setmetatable, error = type, getmetatable, setmetatable, error
local pairs, ipairs, tostring = pairs, ipairs, tostring
local format, concat, sort = string.format, table.concat, table.sort

local support = {}

--- What to say after a refused name: SwiftUI's name for one of ours (from the one
--- table, `SwiftUINames`; `place` is "modifier", "function" or "option"), else the
--- valid name nearest it (`Suggestion.nearest`), else "". `valid` is an array of names.
--- `short` words it to follow the name in a list: " (did you mean 'x'?)".
function support.suggestion(name, valid, place, short)
  if type(name) ~= "string" then return "" end
  local ours = place and swiftui[place][name]
  if ours ~= nil then
    return format(short and " (SwiftUI's name; here '%s')" or "; that is SwiftUI's name, here it is '%s'", ours)
  end
  local near = nearest(name, valid)
  if near ~= nil then return format(short and " (did you mean '%s'?)" or "; did you mean '%s'?", near) end
  return ""
end
local suggestion = support.suggestion

--- The string keys of `t`, sorted (a table of names, as a `valid` list).
function support.names(t)
  local names = {}
  for k in pairs(t) do
    if type(k) == "string" then names[#names + 1] = k end
  end
  sort(names)
  return names
end

--- Lua's type name, or a morph type's name (`morph.Color`…), or "nan".
function support.typename(v)
  local t = type(v)
  if t == "userdata" or t == "table" then
    local mt = getmetatable(v)
    if type(mt) == "string" then return mt end
  end
  if t == "number" and v ~= v then return "nan" end
  return t
end

--- Raises `message` blamed on the first caller outside the host's own Lua
--- (and outside C), whatever depth the check ran at. Plugins' tail calls
--- (`return node:rotate(x)`) keep the caller's frame (CMorphLua/untail.c);
--- with no plugin frame at all, the message has no position and the host
--- names the file.
-- The stack level (counted from the caller of this function's caller) of the first
-- frame outside the host's Lua and C, and its info; nil when there is none.
local function plugin_frame()
  local level = 3
  while true do
    local info = getinfo(level, "Sl")
    if info == nil then return nil end
    if info.source:sub(1, 7) ~= "=morph." and info.what ~= "C" then return level - 1, info end
    level = level + 1
  end
end

function support.raise(message)
  local level = plugin_frame()
  error(message, level or 0)
end

--- "file:line" of the plugin code that called into the host, for errors raised later
--- on its behalf (a shape's path function); nil when Lua cannot tell.
function support.where()
  local _, info = plugin_frame()
  if info == nil then return nil end
  return info.short_src .. ":" .. info.currentline
end

--- A message handler for the host's own `xpcall`s around plugin code: the
--- message with the plugin's stack, which a rethrow would otherwise lose.
--- The host keeps the first traceback of a message.
function support.traceback(message)
  if type(message) ~= "string" then return message end
  return traceback(message, 2)
end

--- Lua's own pcall, for the host's Lua that must restore its state when a
--- plugin fails: it also returns a stop (budget, clock, memory), which the
--- plugin's pcall cannot catch. Raise the error again after restoring.
support.pcall = host_pcall

-- Argument checks -------------------------------------------------------
-- The one checker of the host's Lua files, worded as the Swift bindings'
-- `LuaArgs` words them: `bad argument #2 to 'frame' (number expected, got
-- string)`. `n` is the argument's position, `fname` the function's name, and
-- `key`, when given, the option of an option table the value came from.

local check = {}
support.check = check
local typename, raise = support.typename, support.raise

--- Raises `bad argument #n to 'fname' (detail)`, blamed on the plugin's line.
function check.error(n, fname, detail, key)
  if key ~= nil then detail = format("option '%s': %s", key, detail) end
  raise(format("bad argument #%d to '%s' (%s)", n, fname, detail))
end
local argerror = check.error

--- `v` if its Lua type is `want`, else `want expected, got …`.
function check.type(v, want, n, fname, key)
  if type(v) ~= want then argerror(n, fname, want .. " expected, got " .. typename(v), key) end
  return v
end

--- A plain table (no metatable): option tables and child lists.
function check.table(v, n, fname, key)
  if type(v) ~= "table" or getmetatable(v) ~= nil then
    argerror(n, fname, "table expected, got " .. typename(v), key)
  end
  return v
end

--- A number, not NaN (NaN geometry is never what an author meant).
function check.number(v, n, fname, key)
  if type(v) ~= "number" or v ~= v then argerror(n, fname, "number expected, got " .. typename(v), key) end
  return v
end
local number = check.number

-- The checks below run for every modifier a body writes, so each first tests
-- the common, valid case in one expression (`v - v == 0` only for finite v).

function check.finite(v, n, fname, key)
  if type(v) == "number" and v - v == 0 then return v end
  number(v, n, fname, key)
  argerror(n, fname, "finite number expected, got " .. tostring(v), key)
end
local finite = check.finite

-- `what` names the quantity in range messages ("width must be >= 0").
local function below_zero(v, n, fname, what, key)
  if key ~= nil then
    argerror(n, fname, format("option '%s' must be >= 0, got %s", key, tostring(v)))
  end
  argerror(n, fname, format("%s must be >= 0, got %s", what, tostring(v)))
end

--- A finite number >= 0.
function check.length(v, n, fname, what, key)
  if type(v) == "number" and v >= 0 and v - v == 0 then return v end
  finite(v, n, fname, key)
  below_zero(v, n, fname, what, key)
end

--- A number >= 0 that may be `math.huge` (a maximum size).
function check.extent(v, n, fname, what, key)
  if type(v) == "number" and v >= 0 then return v end
  number(v, n, fname, key)
  below_zero(v, n, fname, what, key)
end

--- A whole number >= 1 (a count of lines).
function check.count(v, n, fname, key)
  if math.type(v) == "integer" and v >= 1 then return v end
  if type(v) == "number" and v >= 1 and v <= 1e9 and v == math.floor(v) then return v end
  number(v, n, fname, key)
  argerror(n, fname, "whole number >= 1 expected, got " .. tostring(v), key)
end

function check.string(v, n, fname, key)
  return check.type(v, "string", n, fname, key)
end

-- Sets of the names in an array (enum cases, option keys), made on first use.
local sets = setmetatable({}, { __mode = "k" })
local function set_of(names)
  local s = sets[names]
  if s == nil then
    s = {}
    for _, name in ipairs(names) do s[name] = true end
    sets[names] = s
  end
  return s
end

--- One of the names in `valid` (an array); a wrong string lists them.
function check.choice(v, valid, n, fname, key)
  if set_of(valid)[v] then return v end
  check.string(v, n, fname, key)
  argerror(n, fname, format("invalid option '%s'; expected one of '%s'%s", v, concat(valid, "', '"),
    suggestion(v, valid)), key)
end

--- An option table whose keys are all in `allowed` (an array, listed in
--- that order when a key is wrong).
--- Every wrong key is named, sorted, so the message is the same on every run (`pairs`
--- has no order), each with SwiftUI's name for it or the nearest valid one.
function check.options(t, allowed, n, fname)
  check.table(t, n, fname)
  local known = set_of(allowed)
  local wrong
  for k in pairs(t) do
    if not known[k] then
      wrong = wrong or {}
      wrong[#wrong + 1] = type(k) == "string" and k or "[" .. typename(k) .. "]"
    end
  end
  if wrong == nil then return t end
  sort(wrong)
  local parts = {}
  for i, k in ipairs(wrong) do parts[i] = format("'%s'%s", k, suggestion(k, allowed, "option", true)) end
  argerror(n, fname, format("unknown option%s %s; valid options: %s", #wrong > 1 and "s" or "",
    concat(parts, ", "), concat(allowed, ", ")))
end

return support
