-- Components: `morph.component{…}` checks a plugin's definition; the host
-- then instantiates it and drives it through the functions returned here.
-- Trusted code, run once per state.
--
-- Numbers in state are owned by the Swift animation engine and nowhere else:
-- `self.x` reads the presented value and `self.target.x` the model value
-- straight from it, and every write goes to it through `host`. Lua keeps only
-- the non-numeric state (strings, booleans, tables), which just changes.
local morph, host, support = ...
local type, error, pairs, ipairs, tostring, setmetatable, getmetatable, load, pcall =
  type, error, pairs, ipairs, tostring, setmetatable, getmetatable, load, pcall
local format, concat, sort = string.format, table.concat, table.sort
local presented, model, set_number, animate_numbers, reduce_motion =
  host.presented, host.target, host.set, host.animate, host.reduceMotion
local Component = { __name = "morph.Component", __metatable = "morph.Component" }
-- self proxy → instance; weak so a dropped instance is collected.
local instances = setmetatable({}, { __mode = "k" })

local typename, fail = support.typename, support.raise
local check = support.check

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  sort(keys)
  return keys
end

local fields = {
  name = "string", size = "table", props = "table", state = "table", progress = "string",
  progressRange = "any", body = "function", tap = "function", drag = "function",
  accessibility = "function", reload = "function", save = "function", restore = "function",
  dragMinimumDistance = "number",
  description = "string",
}

--- morph.component{ name =, size = {w, h}, props =, state =, progress =, body =, tap =, drag =,
--- accessibility =, reload = } — checks the definition and marks it as a component.
function morph.component(def)
  check.table(def, 1, "component")
  for k, v in pairs(def) do
    local want = fields[k]
    if want == nil then
      fail(format("component: unknown field '%s'; valid fields: %s", tostring(k), concat(sorted_keys(fields), ", ")))
    end
    if want ~= "any" and type(v) ~= want then
      fail(format("component: field '%s' must be a %s, got %s", k, want, typename(v)))
    end
  end
  if def.body == nil then fail("component: field 'body' (a function returning a node) is required") end
  local size = def.size or { 380, 240 }
  if type(size[1]) ~= "number" or type(size[2]) ~= "number" or size[1] <= 0 or size[2] <= 0 then
    fail("component: field 'size' must be {width, height} with both > 0")
  end
  local state = def.state or {}
  for k, v in pairs(state) do
    if type(k) ~= "string" then fail("component: state keys must be strings, got " .. typename(k)) end
    if type(v) == "function" then fail(format("component: state '%s' must be a value, not a function", k)) end
  end
  local props = def.props or {}
  for k, v in pairs(props) do
    if state[k] ~= nil then fail(format("component: '%s' is both a prop and a state key", k)) end
    if type(v) == "function" then fail(format("component: prop '%s' must be a value, not a function", k)) end
  end
  if def.progress ~= nil and type(state[def.progress]) ~= "number" then
    fail(format("component: progress '%s' must name a number in state", def.progress))
  end
  return setmetatable(def, Component)
end

local function is_component(v) return getmetatable(v) == "morph.Component" end

local function copy(t)
  local c = {}
  for k, v in pairs(t or {}) do c[k] = v end
  return c
end

-- Deep copy of plain tables (state initial values must not be shared).
local function clone(v, seen)
  if type(v) ~= "table" or getmetatable(v) ~= nil then return v end
  seen = seen or {}
  if seen[v] then return seen[v] end
  local c = {}
  seen[v] = c
  for k, x in pairs(v) do c[clone(k, seen)] = clone(x, seen) end
  return c
end

local valid_keys_cache = setmetatable({}, { __mode = "k" })
local function valid_keys(inst)
  local s = valid_keys_cache[inst]
  if s == nil then
    s = concat(sorted_keys(inst.numeric), ", ")
    valid_keys_cache[inst] = s
  end
  return s
end

local function check_key(inst, k, what)
  if type(k) ~= "string" or inst.numeric[k] == nil then
    fail(format("%s: unknown state key '%s'; declared: %s", what, tostring(k), valid_keys(inst)))
  end
  -- A key's kind comes from its declared value: numbers animate; a key
  -- declared false (or any non-number) takes any value, set at once.
  return inst.numeric[k] == true
end

local function check_number(k, v, what)
  if type(v) ~= "number" or v ~= v then
    fail(format("%s: state '%s' is a number; got %s", what, k, type(v) == "number" and "nan" or typename(v)))
  end
end

local function set_value(inst, k, v, what)
  local numeric = check_key(inst, k, what)
  if v == nil then fail(format("%s: state '%s' cannot be nil (use false for 'none')", what, k)) end
  if numeric then
    check_number(k, v, what)
    set_number(k, v)
  else
    inst.values[k] = v
  end
end

local function curve_of(v)
  local t = typename(v)
  if t == "morph.Spring" or t == "morph.Timing" then return v end
  if t == "morph.Bezier" then return morph.timing(v.x1, v.y1, v.x2, v.y2) end
  check.error(1, "animate", "morph.Spring, morph.Timing or morph.Bezier expected, got " .. t)
end

local function animate(self, curve, changes, done)
  local inst = instances[self]
  if not inst then fail("calling 'animate' on bad self (use self:animate)") end
  curve = curve_of(curve)
  check.table(changes, 2, "animate")
  if done ~= nil then check.type(done, "function", 3, "animate") end
  if inst.inBody then fail("body must not change state (animate from a handler)") end
  local keys, values = {}, {}
  for k, v in pairs(changes) do
    if check_key(inst, k, "animate") then
      check_number(k, v, "animate")
      keys[#keys + 1], values[#values + 1] = k, v
    else
      set_value(inst, k, v, "animate")
    end
  end
  -- The engine completes an animation of no numbers (or under reduce
  -- motion) at once; `done` then runs when the handler returns.
  local id = animate_numbers(curve, keys, values)
  if done then inst.completions[id] = done end
end

local function set(self, changes)
  local inst = instances[self]
  if not inst then fail("calling 'set' on bad self (use self:set)") end
  check.type(changes, "table", 1, "set")
  if inst.inBody then fail("body must not change state") end
  for k, v in pairs(changes) do set_value(inst, k, v, "set") end
end

local methods = { animate = animate, set = set }

-- A state key's value: numbers from the engine (`read` picks presented or
-- model), anything else from Lua.
local function state_value(inst, k, read)
  local numeric = inst.numeric[k]
  if numeric then return read(k) end
  if numeric == false then return inst.values[k] end
  return nil
end

-- A read-only view of where animations are headed.
local function target_view(inst)
  return setmetatable({}, {
    __index = function(_, k) return state_value(inst, k, model) end,
    __newindex = function() fail("self.target is read-only; assign self.key or use self:animate") end,
    __metatable = "morph.Target",
  })
end

local function make_self(inst)
  local target = target_view(inst)
  local proxy = {}
  instances[proxy] = inst
  return setmetatable(proxy, {
    __index = function(_, k)
      if k == "target" then return target end
      if k == "reduceMotion" then return reduce_motion() end
      local v = state_value(inst, k, presented)
      if v ~= nil then return v end
      v = inst.props[k]
      if v ~= nil then return v end
      return methods[k]
    end,
    __newindex = function(_, k, v)
      if inst.inBody then fail("body must not change state (change it in a handler)") end
      if inst.props[k] ~= nil and inst.numeric[k] == nil then
        fail(format("'%s' is a prop; props are read-only (declare it in state to change it)", tostring(k)))
      end
      set_value(inst, k, v, "set")
    end,
    __metatable = "morph.Self",
    __name = "morph.Self",
  })
end

local runtime = {}

--- Creates an instance of `def` with prop `overrides` applied. The host
--- defines the numeric keys in its engine from `runtime.numbers(inst)`.
function runtime.instantiate(def, overrides)
  if not is_component(def) then
    error("the plugin must return morph.component{ … }, got " .. typename(def), 0)
  end
  local props = copy(def.props)
  for k, v in pairs(overrides or {}) do
    local default = props[k]
    if default == nil then
      error(format("--set %s: unknown prop; props: %s", k, concat(sorted_keys(props), ", ")), 0)
    end
    if typename(default) == "morph.Color" and type(v) == "string" then
      local ok, c = pcall(morph.color, v)
      if not ok then error(format("--set %s: %s", k, tostring(c):gsub("^.-%((.*)%)$", "%1")), 0) end
      v = c
    elseif type(default) ~= type(v) and typename(default) ~= typename(v) then
      error(format("--set %s: expected a %s like the default, got %s", k, typename(default), typename(v)), 0)
    end
    props[k] = v
  end
  -- A key's kind comes from its declared value: numbers animate; a key
  -- declared false (or any non-number) takes any value, set at once.
  local numeric, values = {}, {}
  for k, v in pairs(def.state or {}) do
    numeric[k] = type(v) == "number"
    if not numeric[k] then values[k] = clone(v) end
  end
  local inst = {
    def = def, props = props, values = values, numeric = numeric,
    completions = {}, inBody = false,
  }
  inst.self = make_self(inst)
  return inst
end

--- The host setting a state key (controlled mode), as `self[key] = value` would.
function runtime.assign(inst, key, value)
  inst.self[key] = value
end

function runtime.body(inst)
  inst.inBody = true
  local ok, node = xpcall(inst.def.body, support.traceback, inst.self)
  inst.inBody = false
  if not ok then error(node, 0) end
  return node
end

function runtime.call(inst, name, event)
  local f = inst.def[name]
  if f ~= nil then f(inst.self, event) end
end

function runtime.handler(inst, f, event)
  f(inst.self, event)
end

function runtime.accessibility(inst)
  local f = inst.def.accessibility
  if f == nil then return nil end
  local a = f(inst.self)
  if a ~= nil and type(a) ~= "table" then
    error("accessibility must return a table {label, value, hint, traits}, got " .. typename(a), 0)
  end
  return a
end

--- Runs the completion callbacks of the animations `ids`, in order.
function runtime.complete(inst, ids)
  for _, id in ipairs(ids) do
    local f = inst.completions[id]
    inst.completions[id] = nil
    if f then f(inst.self) end
  end
end

--- The numeric state keys, sorted, and their declared values.
function runtime.numbers(inst)
  local keys, values = {}, {}
  for k, numeric in pairs(inst.numeric) do
    if numeric then keys[#keys + 1] = k end
  end
  sort(keys)
  for i, k in ipairs(keys) do values[i] = inst.def.state[k] end
  return keys, values
end

--- A `--set` value read as a Lua literal (in an empty environment), or nil.
function runtime.parse_literal(text)
  local chunk = load("return " .. text, "=--set", "t", {})
  if chunk then
    local ok, v = pcall(chunk)
    if ok and v ~= nil then return v end
  end
  return nil
end

--- The model value of a non-numeric state key (numbers: ask the engine).
function runtime.value(inst, key)
  return inst.values[key]
end

--- The progress range: `progressRange = {lo, hi}`, or a function of self
--- returning lo, hi (ranges that depend on props, like a card count).
function runtime.progress_range(inst)
  local r = inst.def.progressRange
  if type(r) == "function" then
    local lo, hi = r(inst.self)
    return { lo, hi }
  end
  return r
end

--- Hot reload: carries non-numeric state from `old` into `new` for keys
--- that are still non-numeric, plus pending completions (the engine carries
--- the numbers). Returns a copy of the old model values for
--- `reload(self, old)`, and what the old code's `save(self)` returned, for
--- the new `restore(self, saved)`. Runs while the engine is still the old one.
function runtime.transfer(old, new)
  -- The old code's `save(self)` may hand anything on to the new `restore`.
  local saved = false
  if old.def.save ~= nil then saved = old.def.save(old.self) end
  local previous = clone(old.values)
  for k, numeric in pairs(old.numeric) do
    if numeric then previous[k] = model(k) end
  end
  for k, v in pairs(old.values) do
    if new.numeric[k] == false then new.values[k] = v end
  end
  for id, f in pairs(old.completions) do new.completions[id] = f end
  return previous, saved
end

function runtime.reload_hook(inst, previous, saved)
  if inst.def.restore ~= nil and saved ~= false and saved ~= nil then
    inst.def.restore(inst.self, saved)
  end
  local f = inst.def.reload
  if f ~= nil then f(inst.self, previous) end
end

return runtime
