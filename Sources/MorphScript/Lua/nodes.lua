-- The node tree: constructors and modifiers of `morph`, written in Lua
-- because building a tree of small tables is what Lua does fastest. Each
-- function checks its arguments here (so errors point at the plugin's line)
-- and makes one record with named fields, `{ op = "frame", width = 10, … }`:
-- a node, or a modifier appended to the node's `mods`. The fields of each op
-- are declared once, in Swift (NodeSchema), which also hands over the enum
-- names and option keys as `schema`; the host reads the finished tree with
-- raw table access. Trusted code: runs once per state, before any plugin.
-- What each function takes and does is documented once, in its NodeSchema.Op
-- `doc` (the generated morph.meta.lua shows it); comments here say why.
local morph, support, schema, measure_text, open_image = ...
local type, getmetatable, setmetatable, error = type, getmetatable, setmetatable, error
local pairs, ipairs, tostring, pcall = pairs, ipairs, tostring, pcall
local sort, format, concat, utf8_len = table.sort, string.format, table.concat, utf8.len
local color = morph.color

local Node = {}
Node.__index = Node
Node.__name = "morph.Node"
Node.__metatable = "morph.Node"
morph.Node = nil

local typename = support.typename
local check = support.check
local argerror, finite, length, extent = check.error, check.finite, check.length, check.extent
local choice, options = check.choice, check.options
local enums, option_keys = schema.enums, schema.options

-- A SwiftUI anchor: a name, or a unit point {x, y} / {x = , y = }; nil stays nil (centre).
local function anchor(v, n, name, key)
  if v == nil then return nil end
  if type(v) == "string" then return choice(v, enums.Anchor, n, name, key) end
  if type(v) == "table" and getmetatable(v) == nil then
    local x, y = v.x or v[1], v.y or v[2]
    if type(x) == "number" and type(y) == "number" and x == x and y == y then return { x, y } end
  end
  argerror(n, name, "anchor name or unit point {x, y} expected, got " .. typename(v), key)
end

local function is_color(v) return getmetatable(v) == "morph.Color" end

-- Colours parsed from strings, kept while in use: bodies name the same few
-- colours every frame, and a morph.Color never changes.
local parsed = setmetatable({}, { __mode = "v" })

local function paint(v, n, name, key)
  if is_color(v) then return v end
  if type(v) == "string" then
    local c = parsed[v]
    if c ~= nil then return c end
    local ok
    ok, c = pcall(color, v)
    if ok then
      parsed[v] = c
      return c
    end
    argerror(n, name, (tostring(c):match("%((.*)%)$") or tostring(c)), key)
  end
  if type(v) == "table" and getmetatable(v) == "morph.Gradient" then return v end
  argerror(n, name, "colour or gradient expected, got " .. typename(v), key)
end

-- A colour only (gradient stops, shadows): a string or morph.Color.
local function colour(v, n, name, key)
  local c = paint(v, n, name, key)
  if not is_color(c) then argerror(n, name, "colour expected, got " .. typename(c), key) end
  return c
end

local function is_node(v) return getmetatable(v) == "morph.Node" end

local function new(record)
  record.mods = {}
  return setmetatable(record, Node)
end

local function node(v, n, name)
  if is_node(v) then return v end
  if is_color(v) or type(v) == "string" or getmetatable(v) == "morph.Gradient" then
    -- A colour or gradient where a view is expected fills its frame (SwiftUI's Color
    -- and gradient views).
    local filled = new { op = "rect" }
    filled.mods[1] = { op = "fill", paint = paint(v, n, name) }
    return filled
  end
  argerror(n, name, "node expected, got " .. typename(v))
end

local function add(self, record)
  local mods = self.mods
  mods[#mods + 1] = record
  return self
end

-- Constructors -----------------------------------------------------------

function morph.rect() return new { op = "rect" } end
function morph.circle() return new { op = "circle" } end
function morph.ellipse() return new { op = "ellipse" } end
function morph.capsule() return new { op = "capsule" } end
function morph.empty() return new { op = "empty" } end

function morph.spacer(minLength)
  if minLength ~= nil then length(minLength, 1, "spacer", "minLength") end
  return new { op = "spacer", minLength = minLength }
end

function morph.roundedRect(r, style)
  local n = 2
  if type(r) == "table" then
    options(r, option_keys.roundedRect, 1, "roundedRect")
    r, style, n = r.r or r.radius, r.style, 1
  end
  length(r, 1, "roundedRect", "corner radius")
  if style ~= nil then choice(style, enums.CornerStyle, n, "roundedRect") end
  return new { op = "roundedRect", radius = r, style = style }
end

function morph.shape(path)
  if type(path) == "function" then
    local make, where = path, support.where() or "shape"
    return new {
      op = "shape",
      resolve = function(width, height)
        local result = make({ x = 0, y = 0, width = width, height = height })
        if getmetatable(result) ~= "morph.Path" then
          local got = result == nil and "nothing" or typename(result) .. ", not a morph.Path"
          error(format("%s: path function returned %s", where, got), 0)
        end
        return result
      end,
    }
  end
  if getmetatable(path) ~= "morph.Path" then
    argerror(1, "shape", "morph.Path or function(rect) expected, got " .. typename(path))
  end
  return new { op = "shape", path = path }
end

function morph.image(name, opts)
  check.string(name, 1, "image")
  local resizable, mode, interpolation
  if opts ~= nil then
    options(opts, option_keys.image, 2, "image")
    resizable, mode, interpolation = opts.resizable, opts.contentMode, opts.interpolation
    if resizable ~= nil then check.type(resizable, "boolean", 2, "image", "resizable") end
    if mode ~= nil then choice(mode, enums.ContentMode, 2, "image", "contentMode") end
    if interpolation ~= nil then choice(interpolation, enums.Interpolation, 2, "image", "interpolation") end
  end
  local ok, source = pcall(open_image, name)
  if not ok then support.raise((tostring(source):gsub("^[^:]*:%d+: ", ""))) end
  return new { op = "image", source = source, resizable = resizable, contentMode = mode, interpolation = interpolation }
end

-- Each text option's check, by key; `fname` names morph.text or morph.measureText.
local function text_choice(enum)
  return function(v, fname, key) return choice(v, enums[enum], 2, fname, key) end
end
local function text_flag(v, fname, key) return check.type(v, "boolean", 2, fname, key) end
local function text_number(v, fname, key) return finite(v, 2, fname, key) end
local function text_length(v, fname, key) return length(v, 2, fname, key, key) end
local max_font_size = schema.maxFontSize
-- Larger sizes overflow the font rasteriser and Pango's integer units.
local function font_size(v, fname, key)
  if type(v) == "number" and v >= 0 and v <= max_font_size then return v end
  length(v, 2, fname, key, key)
  argerror(2, fname, format("option '%s' must be at most %d pt (the frame budget), got %s",
    key, max_font_size, tostring(v)))
end
local text_checks = {
  size = font_size, weight = text_choice("FontWeight"),
  color = function(v, fname, key) return paint(v, 2, fname, key) end,
  style = text_choice("TextStyle"), italic = text_flag, monospacedDigit = text_flag,
  tracking = text_number, kerning = text_number, lineSpacing = text_length,
  lineLimit = function(v, fname, key) return check.count(v, 2, fname, key) end,
  truncation = text_choice("TextTruncation"), alignment = text_choice("TextAlignment"),
}
local max_text = schema.maxTextCharacters
local text_keys = option_keys.text
local measure_keys = { "width" }
for i, key in ipairs(text_keys) do measure_keys[i + 1] = key end

-- A text record of `s` in style `opts`, each option checked for `fname` in the order the
-- schema lists them (so the first wrong one is always the same); `allowed` the option keys.
local function text_record(fname, s, opts, allowed)
  if type(s) == "number" then s = tostring(s) end
  check.string(s, 1, fname)
  if #s > max_text then
    local count = utf8_len(s) or #s
    if count > max_text then
      argerror(1, fname, format("text of %d characters is over the %d-character limit of one "
        .. "text (the frame budget); split it into several texts", count, max_text))
    end
  end
  local record = { op = "text", text = s }
  if opts ~= nil then
    options(opts, allowed, 2, fname)
    for _, key in ipairs(text_keys) do
      local v = opts[key]
      if v ~= nil then record[key] = text_checks[key](v, fname, key) end
    end
  end
  return record
end

function morph.text(s, opts)
  return new(text_record("text", s, opts, text_keys))
end

---The size `morph.text(s, style)` lays out at, offered `style.width` (nil: its ideal
---width), by the same layout the frame uses: `measureText("Red", {size = 34}).width`.
---@param s string|number
---@param style? morph.MeasureTextOptions
---@return morph.TextMetrics
function morph.measureText(s, style)
  local width = style ~= nil and type(style) == "table" and style.width or nil
  if width ~= nil then length(width, 2, "measureText", "width", "width") end
  local record = new(text_record("measureText", s, style, measure_keys))
  local w, h, baseline = measure_text(record, width)
  if w == nil then support.raise(h) end
  return { width = w, height = h, baseline = baseline }
end

local Gradient = { __name = "morph.Gradient", __metatable = "morph.Gradient" }

-- A gradient's stops from `colors` (evenly spaced) or `stops` ({colour, location} pairs,
-- locations in 0…1), checked for `fname`.
local function gradient_stops(opts, fname)
  local stops = {}
  if opts.stops ~= nil then
    check.table(opts.stops, 1, fname, "stops")
    for i, s in ipairs(opts.stops) do
      if type(s) ~= "table" or getmetatable(s) ~= nil then
        argerror(1, fname, format("stop %d must be {colour, location}, got %s", i, typename(s)), "stops")
      end
      local at = finite(s[2], 1, fname, "stops")
      if at < 0 or at > 1 then
        argerror(1, fname, format("stop %d's location must be in 0...1, got %s", i, tostring(at)), "stops")
      end
      stops[i] = { colour(s[1], 1, fname, "stops"), at }
    end
  elseif opts.colors ~= nil then
    check.table(opts.colors, 1, fname, "colors")
    local n = #opts.colors
    for i, c in ipairs(opts.colors) do
      stops[i] = { colour(c, 1, fname, "colors"), n == 1 and 0 or (i - 1) / (n - 1) }
    end
  end
  if #stops == 0 then
    argerror(1, fname, "'colors' or 'stops' with at least one colour expected")
  end
  return stops
end

-- A gradient record of `op`: its stops plus what `fields(opts)` reads.
local function gradient(op, opts, fields)
  options(opts, option_keys[op], 1, op)
  local stops = gradient_stops(opts, op)
  local record = fields(opts)
  record.op, record.stops = op, stops
  return setmetatable(record, Gradient)
end

function morph.linearGradient(opts)
  return gradient("linearGradient", opts, function(o)
    return {
      from = anchor(o.from, 1, "linearGradient", "from"),
      to = anchor(o.to, 1, "linearGradient", "to"),
    }
  end)
end

function morph.radialGradient(opts)
  return gradient("radialGradient", opts, function(o)
    local start = o.startRadius
    if start ~= nil then length(start, 1, "radialGradient", "startRadius", "startRadius") end
    return {
      center = anchor(o.center, 1, "radialGradient", "center"),
      startRadius = start,
      endRadius = length(o.endRadius, 1, "radialGradient", "endRadius", "endRadius"),
    }
  end)
end

function morph.angularGradient(opts)
  return gradient("angularGradient", opts, function(o)
    -- Absent values stay nil: the schema's defaults (and endAngle's startAngle + 360)
    -- are the reader's to apply.
    if o.startAngle ~= nil then finite(o.startAngle, 1, "angularGradient", "startAngle") end
    if o.endAngle ~= nil then finite(o.endAngle, 1, "angularGradient", "endAngle") end
    local center = anchor(o.center, 1, "angularGradient", "center")
    return { center = center, startAngle = o.startAngle, endAngle = o.endAngle }
  end)
end

local function stack(op)
  local allowed = option_keys[op]
  return function(t)
    if type(t) ~= "table" or getmetatable(t) ~= nil then
      argerror(1, op, "table of children expected, got " .. typename(t))
    end
    local children, keys, named = {}, {}, {}
    for k in pairs(t) do
      if type(k) == "number" then keys[#keys + 1] = k else named[k] = t[k] end
    end
    options(named, allowed, 1, op)
    sort(keys)
    local function collect(v)
      if v == false or v == nil then return end
      if type(v) == "table" and getmetatable(v) == nil then
        -- A plain array of nodes (ForEach) is spliced in.
        for _, inner in ipairs(v) do collect(inner) end
      else
        children[#children + 1] = node(v, 1, op)
      end
    end
    for _, k in ipairs(keys) do collect(t[k]) end
    local spacing = t.spacing
    if spacing ~= nil then length(spacing, 1, op, "spacing", "spacing") end
    return new {
      op = op, children = children, spacing = spacing, alignment = anchor(t.alignment, 1, op, "alignment"),
    }
  end
end

morph.zstack = stack("zstack")
morph.vstack = stack("vstack")
morph.hstack = stack("hstack")

-- Modifiers --------------------------------------------------------------

local frame_sizes = { width = length, height = length }

function Node:frame(w, h, align)
  if type(w) == "table" and getmetatable(w) == nil then
    local o = options(w, option_keys.frame, 1, "frame")
    for k, v in pairs(o) do
      if k ~= "alignment" then (frame_sizes[k] or extent)(v, 1, "frame", k, k) end
    end
    return add(self, {
      op = "frame", width = o.width, height = o.height, alignment = anchor(o.alignment, 1, "frame", "alignment"),
      minWidth = o.minWidth, maxWidth = o.maxWidth, minHeight = o.minHeight, maxHeight = o.maxHeight,
    })
  end
  if w ~= nil then length(w, 1, "frame", "width") end
  if h ~= nil then length(h, 2, "frame", "height") end
  return add(self, { op = "frame", width = w, height = h, alignment = anchor(align, 3, "frame") })
end

function Node:padding(v)
  if v == nil then v = 16 end
  if type(v) == "number" then
    finite(v, 1, "padding")
    return add(self, { op = "padding", top = v, leading = v, bottom = v, trailing = v })
  end
  local o = options(v, option_keys.padding, 1, "padding")
  for k, x in pairs(o) do finite(x, 1, "padding", k) end
  local all = o.all or 0
  local h, vv = o.horizontal or all, o.vertical or all
  return add(self, {
    op = "padding", top = o.top or vv, leading = o.leading or h, bottom = o.bottom or vv, trailing = o.trailing or h,
  })
end

function Node:offset(x, y)
  return add(self, { op = "offset", x = finite(x or 0, 1, "offset"), y = finite(y or 0, 2, "offset") })
end

function Node:position(x, y)
  return add(self, { op = "position", x = finite(x, 1, "position"), y = finite(y, 2, "position") })
end

function Node:scale(sx, sy, a)
  finite(sx, 1, "scale")
  if type(sy) == "number" then
    return add(self, { op = "scale", x = sx, y = finite(sy, 2, "scale"), anchor = anchor(a, 3, "scale") })
  end
  return add(self, { op = "scale", x = sx, y = sx, anchor = anchor(sy, 2, "scale") })
end

function Node:rotate(degrees, a)
  return add(self, { op = "rotate", degrees = finite(degrees, 1, "rotate"), anchor = anchor(a, 2, "rotate") })
end

function Node:rotate3d(degrees, o)
  finite(degrees, 1, "rotate3d")
  o = o == nil and {} or options(o, option_keys.rotate3d, 2, "rotate3d")
  local axis = o.axis
  if axis ~= nil then
    if type(axis) ~= "table" then
      argerror(2, "rotate3d", "{x, y, z} expected, got " .. typename(axis), "axis")
    end
    local x, y, z = axis.x or axis[1] or 0, axis.y or axis[2] or 0, axis.z or axis[3] or 0
    finite(x, 2, "rotate3d", "axis")
    finite(y, 2, "rotate3d", "axis")
    finite(z, 2, "rotate3d", "axis")
    if x == 0 and y == 0 and z == 0 then argerror(2, "rotate3d", "option 'axis' must not be zero") end
    axis = { x, y, z }
  end
  if o.perspective ~= nil then length(o.perspective, 2, "rotate3d", "perspective", "perspective") end
  return add(self, {
    op = "rotate3d", degrees = degrees, axis = axis, anchor = anchor(o.anchor, 2, "rotate3d", "anchor"),
    perspective = o.perspective,
  })
end

function Node:opacity(a)
  return add(self, { op = "opacity", alpha = finite(a, 1, "opacity") })
end

function Node:fill(p)
  return add(self, { op = "fill", paint = paint(p, 1, "fill") })
end

-- `stroke` and `strokeBorder` take the same arguments; `fname` is the op.
local function stroke(self, c, width, fname)
  local o, n, at = { color = c, width = width }, 2, nil
  if type(c) == "table" and getmetatable(c) == nil then
    o, n, at = options(c, option_keys[fname], 1, fname), 1, "width"
  end
  local dash = o.dash
  if dash ~= nil then
    if type(dash) ~= "table" then argerror(1, fname, "array of lengths expected, got " .. typename(dash), "dash") end
    for _, d in ipairs(dash) do length(d, 1, fname, "dash length", "dash") end
  end
  if o.width ~= nil then length(o.width, n, fname, "width", at) end
  if o.dashPhase ~= nil then finite(o.dashPhase, 1, fname, "dashPhase") end
  if o.cap ~= nil then choice(o.cap, enums.LineCap, 1, fname, "cap") end
  if o.join ~= nil then choice(o.join, enums.LineJoin, 1, fname, "join") end
  return add(self, {
    op = fname, color = o.color ~= nil and paint(o.color, 1, fname, at and "color") or nil,
    width = o.width, dash = dash, dashPhase = o.dashPhase, cap = o.cap, join = o.join,
  })
end

function Node:stroke(c, width) return stroke(self, c, width, "stroke") end

-- SwiftUI's InsettableShape: the shapes `strokeBorder` can inset (a path has no inset).
local insettable = {}
for _, op in ipairs(schema.insettable) do insettable[op] = true end

function Node:strokeBorder(c, width)
  if not insettable[self.op] then
    support.raise(format("strokeBorder: only %s can be inset, not '%s' (stroke a path with :stroke)",
      concat(schema.insettable, ", "), self.op))
  end
  return stroke(self, c, width, "strokeBorder")
end

-- A matrix given as an array in SwiftUI's order, or by SwiftUI's field names.
local function matrix(m, names, fname)
  if type(m) ~= "table" or getmetatable(m) ~= nil then
    argerror(1, fname, format("{%s} expected, got %s", concat(names, ", "), typename(m)))
  end
  local values = {}
  for i, name in ipairs(names) do
    local v = m[i]
    if v == nil then v = m[name] end
    if type(v) ~= "number" or v - v ~= 0 then
      argerror(1, fname, format("{%s} of finite numbers expected; '%s' (#%d) is %s", concat(names, ", "),
        name, i, type(v) == "number" and tostring(v) or typename(v)))
    end
    values[i] = v
  end
  return values
end

local affine_names = { "a", "b", "c", "d", "tx", "ty" }
local projective_names = { "m11", "m12", "m13", "m21", "m22", "m23", "m31", "m32", "m33" }

function Node:transformEffect(m)
  return add(self, { op = "transformEffect", matrix = matrix(m, affine_names, "transformEffect") })
end

function Node:projectionEffect(m)
  return add(self, { op = "projectionEffect", matrix = matrix(m, projective_names, "projectionEffect") })
end

function Node:redacted(reason)
  if reason ~= nil then choice(reason, enums.RedactionReason, 1, "redacted") end
  return add(self, { op = "redacted", reason = reason })
end

function Node:shadow(o)
  options(o, option_keys.shadow, 1, "shadow")
  local c = o.color
  if c ~= nil then c = colour(c, 1, "shadow", "color") end
  if o.radius ~= nil then length(o.radius, 1, "shadow", "radius", "radius") end
  if o.x ~= nil then finite(o.x, 1, "shadow", "x") end
  if o.y ~= nil then finite(o.y, 1, "shadow", "y") end
  return add(self, { op = "shadow", color = c, radius = o.radius, x = o.x, y = o.y })
end

local shapes = {}
for _, op in ipairs(schema.shapes) do shapes[op] = true end

function Node:clip(shape)
  shape = shape == nil and morph.rect() or shape
  if not is_node(shape) or not shapes[shape.op] then
    argerror(1, "clip", "shape node expected, got " .. typename(shape))
  end
  return add(self, { op = "clip", shape = shape })
end

---SwiftUI's name for `clip`.
---@param shape? morph.Node
---@return morph.Node
Node.clipShape = Node.clip

function Node:trim(from, to)
  if not shapes[self.op] then
    support.raise(format("trim: only a shape node can be trimmed, not '%s'", self.op))
  end
  -- Absent ends stay nil: the schema's defaults (SwiftUI's 0 and 1) are the reader's.
  if from ~= nil then finite(from, 1, "trim") end
  if to ~= nil then finite(to, 2, "trim") end
  return add(self, { op = "trim", from = from, to = to })
end

function Node:blur(radius)
  return add(self, { op = "blur", radius = length(radius, 1, "blur", "radius") })
end

function Node:mask(v, a)
  return add(self, { op = "mask", node = node(v, 1, "mask"), alignment = anchor(a, 2, "mask") })
end

function Node:blend(mode)
  return add(self, { op = "blend", mode = choice(mode, enums.BlendMode, 1, "blend") })
end

function Node:group() return add(self, { op = "group" }) end

function Node:z(index)
  return add(self, { op = "z", index = finite(index, 1, "z") })
end

function Node:id(name)
  if type(name) == "number" then name = tostring(name) end
  return add(self, { op = "id", name = check.string(name, 1, "id") })
end

function Node:matchedGeometry(id, namespace)
  if type(id) == "number" then id = tostring(id) end
  return add(self, {
    op = "matchedGeometry", name = check.string(id, 1, "matchedGeometry"),
    namespace = namespace == nil and "" or check.string(namespace, 2, "matchedGeometry"),
  })
end

function Node:overlay(v, a)
  return add(self, { op = "overlay", node = node(v, 1, "overlay"), alignment = anchor(a, 2, "overlay") })
end

function Node:background(v, a)
  return add(self, { op = "background", node = node(v, 1, "background"), alignment = anchor(a, 2, "background") })
end

local function handler(self, op, f)
  return add(self, { op = op, handler = check.type(f, "function", 1, op) })
end

function Node:onTap(f) return handler(self, "onTap", f) end
function Node:onDrag(f) return handler(self, "onDrag", f) end
function Node:onLongPress(f) return handler(self, "onLongPress", f) end
function Node:onDoubleTap(f) return handler(self, "onDoubleTap", f) end
function Node:onAppear(f) return handler(self, "onAppear", f) end
function Node:onDisappear(f) return handler(self, "onDisappear", f) end

-- Transitions (SwiftUI's AnyTransition): each side is a list of effects the host reads
-- (SceneReader's `effects`); `combined` concatenates, `asymmetric` picks a side of each.
local Transition = { __name = "morph.Transition", __metatable = "morph.Transition" }
Transition.__index = Transition

local function transition(insertion, removal)
  return setmetatable({ insertion = insertion, removal = removal or insertion }, Transition)
end

local function is_transition(v) return getmetatable(v) == "morph.Transition" end

local function a_transition(v, n, name)
  if not is_transition(v) then argerror(n, name, "morph.Transition expected, got " .. typename(v)) end
  return v
end

local function joined(a, b)
  local t = {}
  for _, e in ipairs(a) do t[#t + 1] = e end
  for _, e in ipairs(b) do t[#t + 1] = e end
  return t
end

---This transition on `curve`, whatever animation the change ran under, and even under
---none (SwiftUI's `AnyTransition.animation(_:)`).
---@param curve morph.Spring|morph.Timing|morph.Bezier
---@return morph.Transition
function Transition:animation(curve)
  a_transition(self, 0, "animation")
  local t = typename(curve)
  if t ~= "morph.Spring" and t ~= "morph.Timing" and t ~= "morph.Bezier" then
    argerror(1, "animation", "morph.Spring, morph.Timing or morph.Bezier expected, got " .. t)
  end
  local effect = { kind = "animation", curve = curve }
  return transition(joined(self.insertion, { effect }), joined(self.removal, { effect }))
end

---Both transitions at once (SwiftUI's `combined(with:)`).
---@param other morph.Transition
---@return morph.Transition
function Transition:combined(other)
  a_transition(self, 0, "combined")
  a_transition(other, 1, "combined")
  return transition(joined(self.insertion, other.insertion), joined(self.removal, other.removal))
end

local function edge(e, n, name) return choice(e, enums.Edge, n, name) end

morph.transition = {
  identity = transition({}),
  opacity = transition({ { kind = "opacity" } }),
  slide = transition({ { kind = "move", edge = "leading" } }, { { kind = "move", edge = "trailing" } }),
}

---Scaled by `s` (default 0) about `anchor` (default the centre).
---@param s? number
---@param anchor? morph.Anchor
---@return morph.Transition
function morph.transition.scale(s, a)
  if s ~= nil then finite(s, 1, "scale") end
  return transition({ { kind = "scale", scale = s or 0, anchor = anchor(a, 2, "scale") or { 0.5, 0.5 } } })
end

---Moved by its own size toward `edge`.
---@param edge morph.Edge
---@return morph.Transition
function morph.transition.move(e) return transition({ { kind = "move", edge = edge(e, 1, "move") } }) end

---Moved by (x, y) points.
---@param x? number
---@param y? number
---@return morph.Transition
function morph.transition.offset(x, y)
  return transition({ { kind = "offset", x = finite(x or 0, 1, "offset"), y = finite(y or 0, 2, "offset") } })
end

---In from `edge` fading in, out toward the opposite edge fading out (SwiftUI's `push(from:)`).
---@param edge morph.Edge
---@return morph.Transition
function morph.transition.push(e)
  local from = edge(e, 1, "push")
  local opposite = { top = "bottom", bottom = "top", leading = "trailing", trailing = "leading" }
  return transition({ { kind = "move", edge = from }, { kind = "opacity" } },
    { { kind = "move", edge = opposite[from] }, { kind = "opacity" } })
end

---`insertion` in, `removal` out.
---@param insertion morph.Transition
---@param removal morph.Transition
---@return morph.Transition
function morph.transition.asymmetric(insertion, removal)
  a_transition(insertion, 1, "asymmetric")
  a_transition(removal, 2, "asymmetric")
  return transition(insertion.insertion, removal.removal)
end

---A transition of your own (SwiftUI's `Transition` and its `TransitionPhase`):
---`body(node, phase)` returns `node` with the modifiers it shows at `phase.value`, −1 about
---to appear, 0 identity, 1 gone, as SwiftUI's (`phase.isIdentity` is `value == 0`). An
---insertion runs the value from −1 to 0 and a removal from 0 to 1 on the change's curve (or the
---transition's own, `t:animation(curve)`); it composes with the others (`combined`).
---`m.transition.custom(function(node, phase) return node:opacity(1 - math.abs(phase.value)) end)`
---@param body fun(node: morph.Node, phase: morph.TransitionPhase): morph.Node
---@return morph.Transition
function morph.transition.custom(body)
  check.type(body, "function", 1, "custom")
  local where = support.where() or "custom transition"
  local phases = {}
  return transition({ {
    kind = "custom",
    resolve = function(value)
      local probe = new { op = "empty" }
      local phase = phases[value]
      if phase == nil then
        phase = { value = value, isIdentity = value == 0 }
        phases = { [value] = phase }
      end
      local result = body(probe, phase)
      if result ~= probe then
        error(format("%s: a custom transition's function must return the node it was given, "
          .. "with modifiers added; got %s", where, result == nil and "nothing" or typename(result)), 0)
      end
      return probe
    end,
  } })
end

function Node:transition(t)
  a_transition(t, 1, "transition")
  return add(self, { op = "transition", insertion = t.insertion, removal = t.removal })
end

-- Names that do not exist are mistakes, not nil: each names the nearest that does, or
-- ours for SwiftUI's (`SwiftUINames`).
local function method_names()
  local names = {}
  for _, k in ipairs(support.names(Node)) do
    if k:sub(1, 2) ~= "__" then names[#names + 1] = k end
  end
  return names
end

setmetatable(Node, {
  __index = function(_, k)
    support.raise(format("a node has no modifier '%s'%s", tostring(k),
      support.suggestion(k, method_names(), "modifier")))
  end,
})

setmetatable(morph, {
  __index = function(_, k)
    support.raise(format("morph has no '%s'%s", tostring(k),
      support.suggestion(k, support.names(morph), "function")))
  end,
  __metatable = "morph",
})
