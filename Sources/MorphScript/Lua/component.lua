-- Components: `morph.component{…}` checks a plugin's definition; the host
-- then instantiates it and drives it through the functions returned here.
-- Trusted code, run once per state.
--
-- Numbers in state are owned by the Swift animation engine and nowhere else:
-- `self.x` reads the presented value and `self.target.x` the model value
-- straight from it, and every write goes to it through `host`. Lua keeps only
-- the non-numeric state (strings, booleans, tables), which just changes.
-- A point, size, rect, colour or array of numbers in state animates as
-- several engine channels (`pos.x`, `pos.y`), assembled here on each read.
local morph, host, support = ...
local type, error, pairs, next, ipairs, tostring, setmetatable, getmetatable, load, pcall =
  type, error, pairs, next, ipairs, tostring, setmetatable, getmetatable, load, pcall
local format, concat, sort = string.format, table.concat, table.sort
local math_type, huge = math.type, math.huge
local presented, model, set_number, animate_numbers, reduce_motion, clock, velocity_of =
  host.presented, host.target, host.set, host.animate, host.reduceMotion, host.time, host.velocity
local play_timeline, color_channels, color_from = host.play, host.colorChannels, host.color
local track_kind = host.trackKind
local awaits, start_timer = host.awaits, host.after
local offered_size = host.size
local value_changed = host.changed
local Component = { __name = "morph.Component", __metatable = "morph.Component" }
-- self proxy → instance; weak so a dropped instance is collected.
local instances = setmetatable({}, { __mode = "k" })

local typename, fail = support.typename, support.raise
-- The largest component side, in points (`SceneError.maxCanvasSide`).
local max_side = host.maxCanvasSide
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
  dragMinimumDistance = "number", controlled = "function", appear = "function",
  disappear = "function",
  description = "string", longPress = "function", doubleTap = "function", hover = "function",
}

---Checks a component definition and marks it as one.
---@param definition morph.ComponentDefinition
---@return morph.ComponentDefinition
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
  -- Finite and at most the largest canvas side, so a NaN or huge size is refused here, at
  -- the plugin's line, not when a frame is drawn. Absent: the host's default (DocumentDefaults).
  local size = def.size
  local w, h = size and size[1], size and size[2]
  if size ~= nil and (type(w) ~= "number" or type(h) ~= "number"
      or not (w > 0 and w <= max_side and h > 0 and h <= max_side)) then
    fail(format("component: field 'size' must be {width, height}, each a number in (0, %d], got {%s, %s}",
      max_side, tostring(w), tostring(h)))
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

-- Animatable shapes besides numbers, each declared by its initial value:
-- tables with exactly these number fields, morph.Color (OKLab, premultiplied
-- by alpha: Color.animatableChannels in Swift owns the conversion), and
-- arrays of numbers. A shape is a list of fields, one engine channel each.
-- Swift's AnimatableKind owns the kinds and their fields (keyframes read them too).
local table_shapes, color_fields = {}, nil
for _, shape in ipairs(host.shapes()) do
  if shape.name == "color" then color_fields = shape.fields else table_shapes[#table_shapes + 1] = shape end
end

local function field_count(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  return n
end

local function has_number_fields(t, names)
  if type(t) ~= "table" or getmetatable(t) ~= nil or field_count(t) ~= #names then return false end
  for _, f in ipairs(names) do
    local x = t[f]
    if type(x) ~= "number" or x ~= x then return false end
  end
  return true
end

local function describe(k, name, names)
  local channels = {}
  for i, f in ipairs(names) do channels[i] = k .. "." .. tostring(f) end
  return { name = name, fields = names, channels = channels }
end

-- A key's kind from its declared value: true for a number, a shape for a
-- composite, false for anything else (set at once, kept in Lua).
local function kind_of(k, v)
  if type(v) == "number" then return true end
  if typename(v) == "morph.Color" then return describe(k, "color", color_fields) end
  if type(v) ~= "table" or getmetatable(v) ~= nil then return false end
  for _, shape in ipairs(table_shapes) do
    if has_number_fields(v, shape.fields) then return describe(k, shape.name, shape.fields) end
  end
  local n = #v
  if n == 0 then return false end
  local indices = {}
  for i = 1, n do indices[i] = i end
  if has_number_fields(v, indices) then return describe(k, "array", indices) end
  return false
end

local function shape_text(shape)
  if shape.name == "color" then return "a morph.Color" end
  if shape.name == "array" then return format("an array of %d numbers", #shape.fields) end
  return format("a %s {%s}", shape.name, concat(shape.fields, ", "))
end

-- The numbers of a table with the shape's fields (its values, or velocities).
local function field_numbers(shape, k, v, what)
  if not has_number_fields(v, shape.fields) then
    fail(format("%s: state '%s' is %s; got %s", what, k, shape_text(shape), typename(v)))
  end
  local numbers = {}
  for i, f in ipairs(shape.fields) do numbers[i] = v[f] end
  return numbers
end

-- A composite value as its channel numbers, checked against the declared shape.
local function decompose(shape, k, v, what)
  if shape.name ~= "color" then return field_numbers(shape, k, v, what) end
  if typename(v) ~= "morph.Color" then
    fail(format("%s: state '%s' is a morph.Color; got %s", what, k, typename(v)))
  end
  return { color_channels(v) }
end

-- A composite value from its channels (`read` picks presented, model or velocity).
local function assemble(shape, read, velocity)
  local c = shape.channels
  if shape.name == "color" and not velocity then
    return color_from(read(c[1]), read(c[2]), read(c[3]), read(c[4]))
  end
  local t = {}
  for i, f in ipairs(shape.fields) do t[f] = read(c[i]) end
  return t
end

local function set_value(inst, k, v, what)
  local numeric = check_key(inst, k, what)
  if v == nil then fail(format("%s: state '%s' cannot be nil (use false for 'none')", what, k)) end
  if numeric then
    check_number(k, v, what)
    set_number(k, v)
  elseif inst.numeric[k] then
    local shape = inst.numeric[k]
    for i, x in ipairs(decompose(shape, k, v, what)) do set_number(shape.channels[i], x) end
  else
    inst.values[k] = v
    -- The body's structure may follow it: the host's transaction must know, and that
    -- `animate` set it (its curve then carries the change: docs/design.md, Transactions).
    value_changed(what == "animate")
  end
end

local function curve_of(v)
  local t = typename(v)
  if t == "morph.Spring" or t == "morph.Timing" then return v end
  if t == "morph.Bezier" then return morph.timing(v.x1, v.y1, v.x2, v.y2) end
  check.error(1, "animate", "morph.Spring, morph.Timing or morph.Bezier expected, got " .. t)
end

local animate_options = { done = "function", velocity = "table" }

-- animate's third argument: `done`, or `{ done =, velocity = { key = units per second } }`.
local function animate_extras(options)
  if options == nil or type(options) == "function" then return options, nil end
  if type(options) ~= "table" or getmetatable(options) ~= nil then
    check.error(3, "animate", "function or table expected, got " .. typename(options))
  end
  check.options(options, { "done", "velocity" }, 3, "animate")
  for k, v in pairs(options) do check.type(v, animate_options[k], 3, "animate", k) end
  return options.done, options.velocity
end

---Animates state changes along a curve; non-numbers change at once. With reduce
---motion on, everything changes at once. `done(self)` runs once, when every key
---has finished or been taken over by a later animation.
---@param curve morph.Spring|morph.Timing|morph.Bezier
---@param changes table<string, any>
---@param done? fun(self: morph.Self)|morph.AnimateOptions
local function animate(self, curve, changes, options)
  local inst = instances[self]
  if not inst then fail("calling 'animate' on bad self (use self:animate)") end
  curve = curve_of(curve)
  check.table(changes, 2, "animate")
  local done, velocity = animate_extras(options)
  local velocities = velocity and {}
  if velocity ~= nil then
    for k, v in pairs(velocity) do
      local is_number = changes[k] ~= nil and check_key(inst, k, "animate")
      local shape = changes[k] ~= nil and not is_number and inst.numeric[k]
      if is_number then
        check_number(k, v, "animate")
        velocities[k] = v
      elseif shape then
        -- A composite's velocity has its shape (a colour's: {l, a, b, alpha}).
        for i, x in ipairs(field_numbers(shape, k, v, "animate velocity")) do
          velocities[shape.channels[i]] = x
        end
      else
        fail(format("animate: velocity for '%s', which this animation does not change as a number", tostring(k)))
      end
    end
  end
  if inst.inBody then fail("body must not change state (animate from a handler)") end
  local keys, values = {}, {}
  for k, v in pairs(changes) do
    if check_key(inst, k, "animate") then
      check_number(k, v, "animate")
      keys[#keys + 1], values[#values + 1] = k, v
    elseif inst.numeric[k] then
      local shape = inst.numeric[k]
      for i, x in ipairs(decompose(shape, k, v, "animate")) do
        keys[#keys + 1], values[#values + 1] = shape.channels[i], x
      end
    else
      set_value(inst, k, v, "animate")
    end
  end
  -- The engine completes an animation of no numbers (or under reduce
  -- motion) at once; `done` then runs when the handler returns.
  local id = animate_numbers(curve, keys, values, velocities)
  if done then
    inst.completions[id] = done
    awaits(id)
  end
end

---How fast a state key's presented value moves now, in units per second, in the
---key's shape: a number, `{x, y}` for a point, … (a colour's in premultiplied
---OKLab: `{l, a, b, alpha}`).
---@param key string
---@return number|table
local function velocity(self, k)
  local inst = instances[self]
  if not inst then fail("calling 'velocity' on bad self (use self:velocity)") end
  if check_key(inst, k, "velocity") then return velocity_of(k) end
  local shape = inst.numeric[k]
  if not shape then fail(format("velocity: state '%s' does not animate", tostring(k))) end
  return assemble(shape, velocity_of, true)
end

local play_options = { done = "function", ["repeat"] = "any" }

-- play's second argument: `{ done =, repeat = true | n }` → done, plays (0: forever).
local function play_extras(options)
  if options == nil then return nil, 1 end
  if type(options) ~= "table" or getmetatable(options) ~= nil then
    fail("bad argument #2 to 'play' (table expected, got " .. typename(options) .. ")")
  end
  for k, v in pairs(options) do
    local want = play_options[k]
    if want == nil then
      fail(format("bad argument #2 to 'play' (unknown option '%s'; valid options: done, repeat)", tostring(k)))
    end
    if want ~= "any" and type(v) ~= want then
      fail(format("bad argument #2 to 'play' (option '%s': %s expected, got %s)", k, want, typename(v)))
    end
  end
  local r = options["repeat"]
  if r == nil or r == false then return options.done, 1 end
  if r == true then return options.done, 0 end
  if math_type(r) ~= "integer" or r < 1 then
    fail("bad argument #2 to 'play' (option 'repeat': true or an integer >= 1 expected, got " .. tostring(r) .. ")")
  end
  return options.done, r
end

---Plays a keyframe timeline on state keys of its tracks' kinds (a point track
---on a point key, …), each component from its presented value and velocity; it
---replaces what was animating those keys. With reduce motion on, each key takes
---its track's last value at once.
---@param timeline morph.Keyframes
---@param options? morph.PlayOptions
local function play(self, timeline, options)
  local inst = instances[self]
  if not inst then fail("calling 'play' on bad self (use self:play)") end
  if typename(timeline) ~= "morph.Keyframes" then
    fail("bad argument #1 to 'play' (morph.Keyframes expected, got " .. typename(timeline) .. ")")
  end
  local done, plays = play_extras(options)
  -- Each track's engine channels: a number key's own, one field of a
  -- composite (`pos.y`), or every channel of a composite of the track's kind.
  local channels = {}
  for _, k in ipairs(timeline.keys) do
    local kind, count, kind_text = track_kind(timeline, k)
    -- true: a number key or one field of a composite; a shape; false: not animatable.
    local shape = true
    if not inst.fields[k] then shape = check_key(inst, k, "play") or inst.numeric[k] end
    if kind == "number" and shape == true then
      channels[k] = { k }
    elseif kind == "number" and not shape then
      fail(format("play: track '%s' must animate a number in state", k))
    elseif type(shape) == "table" and shape.name == kind and #shape.fields == count then
      channels[k] = shape.channels
    else
      local is = type(shape) == "table" and shape_text(shape) or shape and "a number" or "not animatable"
      fail(format("play: track '%s' animates %s; state '%s' is %s", k, kind_text, k, is))
    end
  end
  if inst.inBody then fail("body must not change state (play from a handler)") end
  local id = play_timeline(timeline, plays, channels)
  if done then
    inst.completions[id] = done
    awaits(id)
  end
end

---`n` copies of `curve`, the i-th delayed by `(i - 1) * step` seconds: a
---sequence across children (`self:animate(curves[i], …)` for child i).
---@generic C: morph.Spring|morph.Timing|morph.Keyframes
---@param n integer
---@param step number
---@param curve C
---@return C[]
function morph.stagger(n, step, curve)
  if math_type(n) ~= "integer" or n < 0 then
    fail("bad argument #1 to 'stagger' (integer >= 0 expected, got " .. typename(n) .. ")")
  end
  if type(step) ~= "number" or step < 0 or step ~= step or step == huge then
    fail("bad argument #2 to 'stagger' (finite number >= 0 expected, got " .. typename(step) .. ")")
  end
  local t = typename(curve)
  if t ~= "morph.Spring" and t ~= "morph.Timing" and t ~= "morph.Keyframes" then
    fail("bad argument #3 to 'stagger' (morph.Spring, morph.Timing or morph.Keyframes expected, got " .. t .. ")")
  end
  local copies = {}
  for i = 1, n do copies[i] = curve:delay((i - 1) * step) end
  return copies
end

---Sets state at once (the same as assigning `self.key = value`).
---@param changes table<string, any>
local function set(self, changes)
  local inst = instances[self]
  if not inst then fail("calling 'set' on bad self (use self:set)") end
  check.type(changes, "table", 1, "set")
  if inst.inBody then fail("body must not change state") end
  for k, v in pairs(changes) do set_value(inst, k, v, "set") end
end

---Runs `fn(self)` `seconds` after now on the component's clock (SwiftUI's
---`DispatchQueue.main.asyncAfter`), as a handler runs: `self:animate` in it animates. The
---clock stops at that moment, so `render --time`, tests and exports run it at exactly
---that time; a hot reload keeps it, unloading the component cancels it.
---@param seconds number
---@param fn fun(self: morph.Self)
local function after(self, seconds, fn)
  local inst = instances[self]
  if not inst then fail("calling 'after' on bad self (use self:after)") end
  if type(seconds) ~= "number" or seconds ~= seconds or seconds < 0 or seconds == huge then
    check.error(1, "after", "finite number of seconds >= 0 expected, got " .. (type(seconds) == "number"
      and tostring(seconds) or typename(seconds)))
  end
  check.type(fn, "function", 2, "after")
  if inst.inBody then fail("body must not start a timer (call self:after from a handler or onAppear)") end
  local id = start_timer(seconds)
  inst.completions[id] = fn
  awaits(id)
end

local methods = { animate = animate, set = set, velocity = velocity, play = play, after = after }

-- A state key's value: numbers from the engine (`read` picks presented or
-- model), anything else from Lua.
local function state_value(inst, k, read)
  local numeric = inst.numeric[k]
  if numeric == true then return read(k) end
  if numeric then return assemble(numeric, read) end
  if numeric == false then return inst.values[k] end
  return nil
end

-- The error for reading a key the component does not declare: a typo must
-- not read as nil (and quietly draw a default), so it names what there is.
local function undeclared(inst, k, props)
  local lists = {}
  if props and next(inst.props) ~= nil then
    lists[#lists + 1] = "props: " .. concat(sorted_keys(inst.props), ", ")
  end
  if next(inst.numeric) ~= nil then lists[#lists + 1] = "state: " .. valid_keys(inst) end
  local kind = props and "prop or state key" or "state key"
  if props and #lists == 1 then kind = next(inst.numeric) == nil and "prop" or "state key" end
  if #lists == 0 then lists[1] = props and "no props or state declared" or "no state declared" end
  -- The nearest of what `self` has: a state key, a prop, or a method (`self:animte`).
  local names = sorted_keys(inst.numeric)
  if props then
    for _, name in ipairs(sorted_keys(inst.props)) do names[#names + 1] = name end
    for _, name in ipairs(sorted_keys(methods)) do names[#names + 1] = name end
  end
  fail(format("no %s '%s'; %s%s", kind, tostring(k), concat(lists, "; "), support.suggestion(k, names)))
end

-- A read-only view of where animations are headed.
local function target_view(inst)
  return setmetatable({}, {
    __index = function(_, k)
      local v = state_value(inst, k, model)
      if v == nil then undeclared(inst, k, false) end
      return v
    end,
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
      -- Seconds since load on the virtual clock; a body that reads it keeps
      -- the host drawing (continuous motion as a pure function of time).
      if k == "time" then return clock() end
      -- The size offered to the body (SwiftUI's GeometryReader): the component's
      -- `size` until a host resizes it; a body that reads it is laid out again then.
      if k == "size" then
        local width, height = offered_size()
        return { width = width, height = height }
      end
      v = methods[k]
      if v == nil then undeclared(inst, k, true) end
      return v
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
      error(format("prop %s: unknown; the plugin's props: %s", k, concat(sorted_keys(props), ", ")), 0)
    end
    if typename(default) == "morph.Color" and type(v) == "string" then
      local ok, c = pcall(morph.color, v)
      if not ok then error(format("prop %s: %s", k, tostring(c):gsub("^.-%((.*)%)$", "%1")), 0) end
      v = c
    elseif type(default) ~= type(v) and typename(default) ~= typename(v) then
      error(format("prop %s: expected a %s like the default, got %s", k, typename(default), typename(v)), 0)
    end
    props[k] = v
  end
  -- A key's kind comes from its declared value: numbers animate; a key
  -- declared false (or any non-number) takes any value, set at once.
  local numeric, values = {}, {}
  for k, v in pairs(def.state or {}) do
    numeric[k] = kind_of(k, v)
    if not numeric[k] then values[k] = clone(v) end
  end
  -- Every composite's channels by name, for keyframe tracks on one field.
  local channel_names = {}
  for _, kind in pairs(numeric) do
    if type(kind) == "table" then
      for _, c in ipairs(kind.channels) do channel_names[c] = true end
    end
  end
  local inst = {
    def = def, props = props, values = values, numeric = numeric, fields = channel_names,
    completions = {}, inBody = false,
  }
  inst.self = make_self(inst)
  return inst
end

-- The body with the plugin's traceback kept on an error (a rethrow would
-- lose it).
local function traced_body(inst)
  local ok, node = xpcall(inst.def.body, support.traceback, inst.self)
  if not ok then error(node, 0) end
  return node
end

function runtime.body(inst)
  inst.inBody = true
  -- Lua's own pcall: a stop (budget, clock, memory) must reset inBody too.
  local ok, node = support.pcall(traced_body, inst)
  inst.inBody = false
  if not ok then error(node, 0) end
  return node
end

--- One frame's Lua work in one call from the host: the body's node, then
--- the accessibility description.
function runtime.frame(inst)
  local node = runtime.body(inst)
  return node, runtime.accessibility(inst)
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

--- The engine's channels, sorted, and their declared values: a number key
--- is one channel, a composite one per field (`pos.x`, `pos.y`).
function runtime.numbers(inst)
  local declared = {}
  for k, numeric in pairs(inst.numeric) do
    if numeric == true then
      declared[k] = inst.def.state[k]
    elseif numeric then
      for i, x in ipairs(decompose(numeric, k, inst.def.state[k], "state")) do
        declared[numeric.channels[i]] = x
      end
    end
  end
  local keys, values = sorted_keys(declared), {}
  for i, k in ipairs(keys) do values[i] = declared[k] end
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

--- The model value of a non-numeric or composite state key (numbers: ask the engine).
function runtime.value(inst, key)
  return state_value(inst, key, model)
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
    if numeric then previous[k] = state_value(old, k, model) end
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
