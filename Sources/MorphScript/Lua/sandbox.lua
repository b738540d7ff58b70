-- The sandbox plugins run in. Runs once per state, with the full standard
-- library, after the morph module is built: captures what plugins may use,
-- closes the rest, and returns make_env(morph).
-- luacheck: ignore 122 (closing parts of the standard library is the point)
local host_write, morph_module, read_module, support, untail = ...
-- `untail(f)`: f compiled again with its tail calls made ordinary calls, so
-- an error in a callee still names the plugin's line (CMorphLua/untail.c);
-- chunks the host loads itself get it there.
local G = _G
local pairs, ipairs, tostring, error, select, type = pairs, ipairs, tostring, error, select, type
local load, collectgarbage, pcall = load, collectgarbage, pcall
local concat = table.concat
local raise = support.raise

-- Runs a library function for a plugin so that its errors name the plugin's
-- line, not this file's (called from here, Lua would blame this file).
local function passed_on(ok, ...)
  if ok then return ... end
  raise((...))
end
local function on_behalf(f)
  return function(...) return passed_on(pcall(f, ...)) end
end

-- ("").dump would reach string.dump through the string metatable.
string.dump = nil

-- string.find/match/gmatch/gsub/rep, table.*, pcall, xpcall and coroutine.*
-- are already the host's bounded copies (Sources/CMorphLua/bounded_*.c).
-- getmetatable("") now answers false, and the metatable cannot be changed.
getmetatable("").__metatable = false
-- Deterministic unless a plugin reseeds.
math.randomseed(0x6D6F7270)

local base = {
  "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
  "tostring", "type", "xpcall", "rawequal", "rawget", "rawset", "rawlen",
  "getmetatable", "_VERSION",
}

-- Lua runs __gc finalizers with debug hooks off, so the time budget could not
-- stop one: plugins may not install them. (Lua only honours a __gc present
-- when setmetatable is called, so checking here is enough.)
local raw_setmetatable, rawget_ = on_behalf(setmetatable), rawget
local function safe_setmetatable(t, mt)
  if type(mt) == "table" and rawget_(mt, "__gc") ~= nil then
    raise("setmetatable: __gc finalizers are not available to plugins")
  end
  return raw_setmetatable(t, mt)
end
local libraries = { "string", "table", "math", "utf8", "coroutine" }
local safe_os = { clock = os.clock, time = os.time, difftime = os.difftime }

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

local tostring_ = on_behalf(tostring)
local function print(...)
  local n = select("#", ...)
  local parts = { ... }
  for i = 1, n do parts[i] = tostring_(parts[i]) end
  host_write(concat(parts, "\t", 1, n))
end

local function make_env(morph)
  local env = {}
  for _, k in ipairs(base) do env[k] = G[k] end
  env.setmetatable = safe_setmetatable
  for _, k in ipairs(libraries) do env[k] = copy(G[k]) end
  env.os = copy(safe_os)
  env.print = print
  env.morph = morph
  env._G = env
  env.collectgarbage = function(option)
    if option == nil or option == "count" then return collectgarbage("count") end
    raise("collectgarbage: plugins may only ask for \"count\"")
  end
  -- Text chunks only; a loaded chunk sees this environment unless given one.
  local load_ = on_behalf(load)
  env.load = function(chunk, name, _, chunk_env)
    if chunk_env == nil then chunk_env = env end
    -- The count hook trusts chunks named so: they are the host's own Lua.
    if type(name) == "string" and name:sub(1, 7) == "=morph." then
      raise("load: chunk names starting with '=morph.' belong to the host")
    end
    local f, message = load_(chunk, name, "t", chunk_env)
    if f == nil then return nil, message end
    return untail(f)
  end
  env.require = function(name)
    if name == "morph" then return morph end
    raise(("module '%s' not found: plugins may require only 'morph'"):format(tostring(name)))
  end
  return env
end

-- What the host's own code may not leave lying around in _G either.
for _, k in ipairs({ "io", "debug", "package", "dofile", "loadfile", "require" }) do
  G[k] = nil
end
os.execute, os.exit, os.remove, os.rename, os.getenv, os.tmpname = nil, nil, nil, nil, nil, nil

local modules, loading = {}, {}
---Runs another Lua file beside the plugin (a path inside the plugin's folder,
---".lua" optional) in its own sandbox and returns what it returns, cached until
---the plugin reloads. Hot reload watches imported files too.
---@param name string
---@return any
function morph_module.import(name)
  if type(name) ~= "string" then
    raise(("bad argument #1 to 'import' (string expected, got %s)"):format(type(name)))
  end
  local ok, source, path, chunk_name = pcall(read_module, name)
  if not ok then
    raise((tostring(source):gsub("^[^:]*:%d+: ", "")))
  end
  local cached = modules[path]
  if cached ~= nil then return cached end
  if loading[path] then raise(("import cycle: '%s' imports itself"):format(name)) end
  local chunk, message = load(source, "@" .. chunk_name, "t", make_env(morph_module))
  if chunk == nil then error(message, 0) end
  chunk = untail(chunk)
  loading[path] = true
  local ran, result = support.pcall(chunk)
  loading[path] = nil
  if not ran then error(result, 0) end
  if result == nil then result = true end
  modules[path] = result
  return result
end

local function forget_modules()
  modules, loading = {}, {}
end

return make_env, forget_modules
