-- The node tree: constructors and modifiers of `morph`, written in Lua
-- because building a tree of small tables is what Lua does fastest. Each
-- modifier checks its arguments here (so errors point at the plugin's line)
-- and appends one record to the node's `mods`; the host reads the finished
-- tree with raw table access. Trusted code: runs once per state, before any
-- plugin, with the module table as its argument.
local morph, support = ...
local type, getmetatable, setmetatable = type, getmetatable, setmetatable
local pairs, ipairs, tostring, select = pairs, ipairs, tostring, select
local format, concat, sort = string.format, table.concat, table.sort
local color = morph.color

local Node = {}
Node.__index = Node
Node.__name = "morph.Node"
Node.__metatable = "morph.Node"
morph.Node = nil

local typename, raise = support.typename, support.raise

-- `bad argument #n to 'name' (detail)`, blamed on the plugin's line.
local function argerror(n, name, detail)
  raise(format("bad argument #%d to '%s' (%s)", n, name, detail))
end

local function number(v, n, name)
  if type(v) ~= "number" or v ~= v then argerror(n, name, "number expected, got " .. typename(v)) end
  return v
end

local function finite(v, n, name)
  number(v, n, name)
  if v == math.huge or v == -math.huge then
    argerror(n, name, "finite number expected, got " .. tostring(v))
  end
  return v
end

local function nonnegative(v, n, name, what)
  number(v, n, name)
  if v < 0 then argerror(n, name, format("%s must be >= 0, got %s", what, tostring(v))) end
  return v
end

local function optional_number(v, n, name, default)
  if v == nil then return default end
  return number(v, n, name)
end

local function options(t, n, name, allowed)
  if type(t) ~= "table" or getmetatable(t) ~= nil then
    argerror(n, name, "table expected, got " .. typename(t))
  end
  for k in pairs(t) do
    if not allowed[k] then
      local names = {}
      for a in pairs(allowed) do names[#names + 1] = a end
      sort(names)
      argerror(n, name, format("unknown option '%s'; valid options: %s", tostring(k), concat(names, ", ")))
    end
  end
  return t
end

local function set(...)
  local s = {}
  for i = 1, select("#", ...) do s[select(i, ...)] = true end
  return s
end

local function choice(v, n, name, valid)
  if type(v) ~= "string" then argerror(n, name, "string expected, got " .. typename(v)) end
  for _, ok in ipairs(valid) do
    if ok == v then return v end
  end
  argerror(n, name, format("invalid option '%s'; expected one of '%s'", v, concat(valid, "', '")))
end

local anchor_names = {
  "center", "top", "bottom", "leading", "trailing",
  "topLeading", "topTrailing", "bottomLeading", "bottomTrailing",
}

-- A SwiftUI anchor: a name, or a unit point {x, y} / {x = , y = }.
local function anchor(v, n, name)
  if v == nil then return "center" end
  if type(v) == "string" then return choice(v, n, name, anchor_names) end
  if type(v) == "table" and getmetatable(v) == nil then
    local x, y = v.x or v[1], v.y or v[2]
    if type(x) == "number" and type(y) == "number" and x == x and y == y then return { x, y } end
  end
  argerror(n, name, "anchor name or unit point {x, y} expected, got " .. typename(v))
end

local function is_color(v) return getmetatable(v) == "morph.Color" end

local function paint(v, n, name)
  if is_color(v) then return v end
  if type(v) == "string" then
    local ok, c = pcall(color, v)
    if ok then return c end
    argerror(n, name, (tostring(c):match("%((.*)%)$") or tostring(c)))
  end
  if type(v) == "table" and getmetatable(v) == "morph.Gradient" then return v end
  argerror(n, name, "colour or gradient expected, got " .. typename(v))
end

local function is_node(v) return getmetatable(v) == "morph.Node" end

local function node(v, n, name)
  if is_node(v) then return v end
  if is_color(v) or type(v) == "string" then
    -- A colour where a view is expected fills its frame (SwiftUI's Color view).
    return setmetatable({ kind = "shape", shape = "rect", mods = { { "fill", paint(v, n, name) } } }, Node)
  end
  argerror(n, name, "node expected, got " .. typename(v))
end

local function add(self, ...)
  local mods = self.mods
  mods[#mods + 1] = { ... }
  return self
end

local function new(fields)
  fields.mods = {}
  return setmetatable(fields, Node)
end

-- Constructors -----------------------------------------------------------

function morph.rect() return new { kind = "shape", shape = "rect" } end
function morph.circle() return new { kind = "shape", shape = "circle" } end
function morph.ellipse() return new { kind = "shape", shape = "ellipse" } end
function morph.capsule() return new { kind = "shape", shape = "capsule" } end
function morph.empty() return new { kind = "empty" } end

function morph.spacer(minLength)
  local length = nonnegative(optional_number(minLength, 1, "spacer", 0), 1, "spacer", "minLength")
  return new { kind = "spacer", minLength = length }
end

local corner_styles = { "continuous", "circular" }
local rounded_options = set("r", "radius", "style")

--- roundedRect(r [, style]) or roundedRect{r = , style = }.
function morph.roundedRect(r, style)
  if type(r) == "table" then
    options(r, 1, "roundedRect", rounded_options)
    r, style = r.r or r.radius, r.style
  end
  nonnegative(r, 1, "roundedRect", "corner radius")
  style = style == nil and "continuous" or choice(style, 2, "roundedRect", corner_styles)
  return new { kind = "shape", shape = "roundedRect", radius = r, style = style }
end

function morph.shape(path)
  if getmetatable(path) ~= "morph.Path" then
    argerror(1, "shape", "morph.Path expected, got " .. typename(path))
  end
  return new { kind = "shape", shape = "path", path = path }
end

local text_options = set("size", "weight", "color")
local weights = { "regular", "bold" }

function morph.text(s, opts)
  if type(s) == "number" then s = tostring(s) end
  if type(s) ~= "string" then argerror(1, "text", "string expected, got " .. typename(s)) end
  local size, weight, c = 17, "regular", nil
  if opts ~= nil then
    options(opts, 2, "text", text_options)
    size = nonnegative(optional_number(opts.size, 2, "text", 17), 2, "text", "size")
    weight = opts.weight == nil and "regular" or choice(opts.weight, 2, "text", weights)
    c = opts.color ~= nil and paint(opts.color, 2, "text") or nil
  end
  return new { kind = "text", text = s, size = size, weight = weight, color = c }
end

local gradient_options = set("colors", "stops", "from", "to")
local Gradient = { __name = "morph.Gradient", __metatable = "morph.Gradient" }

--- linearGradient{colors = {c1, c2, …}, from = "top", to = "bottom"} or with
--- stops = {{c, location}, …}.
function morph.linearGradient(opts)
  options(opts, 1, "linearGradient", gradient_options)
  local stops = {}
  if opts.stops ~= nil then
    for i, s in ipairs(opts.stops) do
      stops[i] = { paint(s[1], 1, "linearGradient"), number(s[2], 1, "linearGradient") }
    end
  elseif type(opts.colors) == "table" then
    local n = #opts.colors
    for i, c in ipairs(opts.colors) do
      stops[i] = { paint(c, 1, "linearGradient"), n == 1 and 0 or (i - 1) / (n - 1) }
    end
  end
  if #stops == 0 then
    argerror(1, "linearGradient", "'colors' or 'stops' with at least one colour expected")
  end
  return setmetatable({
    stops = stops,
    from = anchor(opts.from or "top", 1, "linearGradient"),
    to = anchor(opts.to or "bottom", 1, "linearGradient"),
  }, Gradient)
end

local stack_options = set("alignment", "spacing")

local function stack(kind, name)
  return function(t)
    if type(t) ~= "table" or getmetatable(t) ~= nil then
      argerror(1, name, "table of children expected, got " .. typename(t))
    end
    local children, keys = {}, {}
    for k in pairs(t) do
      if type(k) == "number" then
        keys[#keys + 1] = k
      elseif not stack_options[k] then
        argerror(1, name, format("unknown option '%s'; valid options: alignment, spacing", tostring(k)))
      end
    end
    sort(keys)
    local function collect(v)
      if v == false or v == nil then return end
      if type(v) == "table" and getmetatable(v) == nil then
        -- A plain array of nodes (ForEach) is spliced in.
        for _, inner in ipairs(v) do collect(inner) end
      else
        children[#children + 1] = node(v, 1, name)
      end
    end
    for _, k in ipairs(keys) do collect(t[k]) end
    local spacing = t.spacing
    if spacing ~= nil then nonnegative(spacing, 1, name, "spacing") end
    return new {
      kind = kind, children = children, spacing = spacing, alignment = anchor(t.alignment, 1, name),
    }
  end
end

morph.zstack = stack("zstack", "zstack")
morph.vstack = stack("vstack", "vstack")
morph.hstack = stack("hstack", "hstack")

-- Modifiers --------------------------------------------------------------

local frame_options = set("width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight", "alignment")

--- frame(width, height [, alignment]) or frame{width =, maxWidth = math.huge, …}.
function Node:frame(w, h, align)
  if type(w) == "table" and getmetatable(w) == nil then
    local o = options(w, 1, "frame", frame_options)
    for _, k in ipairs({ "width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight" }) do
      if o[k] ~= nil then nonnegative(o[k], 1, "frame", k) end
    end
    return add(self, "frame", o.width, o.height, anchor(o.alignment, 1, "frame"),
      o.minWidth, o.maxWidth, o.minHeight, o.maxHeight)
  end
  if w ~= nil then nonnegative(w, 1, "frame", "width") end
  if h ~= nil then nonnegative(h, 2, "frame", "height") end
  return add(self, "frame", w, h, anchor(align, 3, "frame"))
end

local padding_options = set("top", "leading", "bottom", "trailing", "horizontal", "vertical", "all")

--- padding(n), padding() (16, SwiftUI's default), or padding{top =, horizontal =, …}.
function Node:padding(v)
  if v == nil then v = 16 end
  if type(v) == "number" then
    finite(v, 1, "padding")
    return add(self, "padding", v, v, v, v)
  end
  local o = options(v, 1, "padding", padding_options)
  for k, x in pairs(o) do
    if type(x) ~= "number" or x ~= x then
      argerror(1, "padding", format("option '%s': number expected, got %s", k, typename(x)))
    end
  end
  local all = o.all or 0
  local h, vv = o.horizontal or all, o.vertical or all
  return add(self, "padding", o.top or vv, o.leading or h, o.bottom or vv, o.trailing or h)
end

function Node:offset(x, y)
  return add(self, "offset", finite(x or 0, 1, "offset"), finite(y or 0, 2, "offset"))
end

function Node:position(x, y)
  return add(self, "position", finite(x, 1, "position"), finite(y, 2, "position"))
end

--- scale(s [, anchor]) or scale(sx, sy [, anchor]).
function Node:scale(sx, sy, a)
  finite(sx, 1, "scale")
  if type(sy) == "number" then
    return add(self, "scale", sx, finite(sy, 2, "scale"), anchor(a, 3, "scale"))
  end
  return add(self, "scale", sx, sx, anchor(sy, 2, "scale"))
end

function Node:rotate(degrees, a)
  return add(self, "rotate", finite(degrees, 1, "rotate"), anchor(a, 2, "rotate"))
end

local rotate3d_options = set("axis", "anchor", "perspective")

--- rotate3d(degrees [, {axis = {x, y, z}, anchor = , perspective = 1}]).
function Node:rotate3d(degrees, o)
  finite(degrees, 1, "rotate3d")
  o = o == nil and {} or options(o, 2, "rotate3d", rotate3d_options)
  local axis = o.axis or { 0, 1, 0 }
  if type(axis) ~= "table" then
    argerror(2, "rotate3d", "option 'axis': {x, y, z} expected, got " .. typename(axis))
  end
  local x, y, z = axis.x or axis[1] or 0, axis.y or axis[2] or 0, axis.z or axis[3] or 0
  for _, c in ipairs({ x, y, z }) do
    if type(c) ~= "number" or c ~= c or c == math.huge or c == -math.huge then
      argerror(2, "rotate3d", "option 'axis': finite numbers expected")
    end
  end
  if x == 0 and y == 0 and z == 0 then argerror(2, "rotate3d", "option 'axis' must not be zero") end
  local p = o.perspective == nil and 1 or nonnegative(o.perspective, 2, "rotate3d", "perspective")
  return add(self, "rotate3d", degrees, x, y, z, anchor(o.anchor, 2, "rotate3d"), p)
end

function Node:opacity(a)
  return add(self, "opacity", finite(a, 1, "opacity"))
end

function Node:fill(p)
  return add(self, "fill", paint(p, 1, "fill"))
end

local stroke_options = set("color", "width", "dash", "dashPhase", "cap", "join")
local caps, joins = { "butt", "round", "square" }, { "miter", "round", "bevel" }

--- stroke(color [, width]) or stroke{color =, width =, dash = {4, 3}, dashPhase =, cap =, join =}.
function Node:stroke(c, width)
  local o
  if type(c) == "table" and getmetatable(c) == nil then
    o = options(c, 1, "stroke", stroke_options)
  else
    o = { color = c, width = width }
  end
  local dash = {}
  if o.dash ~= nil then
    if type(o.dash) ~= "table" then argerror(1, "stroke", "option 'dash': array of lengths expected") end
    for i, d in ipairs(o.dash) do dash[i] = nonnegative(d, 1, "stroke", "dash length") end
  end
  return add(self, "stroke", o.color == nil and color("#000000") or paint(o.color, 1, "stroke"),
    nonnegative(o.width == nil and 1 or o.width, o.width == nil and 1 or 2, "stroke", "width"),
    dash, finite(o.dashPhase or 0, 1, "stroke"),
    o.cap == nil and "butt" or choice(o.cap, 1, "stroke", caps),
    o.join == nil and "miter" or choice(o.join, 1, "stroke", joins))
end

local shadow_options = set("color", "radius", "x", "y")

--- shadow{color = (black 0.33), radius =, x = 0, y = 0}.
function Node:shadow(o)
  options(o, 1, "shadow", shadow_options)
  local c = o.color == nil and color(0, 0, 0, 0.33) or paint(o.color, 1, "shadow")
  if not is_color(c) then argerror(1, "shadow", "option 'color': colour expected") end
  return add(self, "shadow", c, nonnegative(o.radius or 0, 1, "shadow", "radius"),
    finite(o.x or 0, 1, "shadow"), finite(o.y or 0, 1, "shadow"))
end

--- clip(shape): clips to a shape node (m.circle(), m.roundedRect(12), m.shape(path)); default rect.
function Node:clip(shape)
  shape = shape == nil and morph.rect() or shape
  if not is_node(shape) or shape.kind ~= "shape" then
    argerror(1, "clip", "shape node expected, got " .. typename(shape))
  end
  return add(self, "clip", shape)
end

local blend_modes = {
  "normal", "multiply", "screen", "overlay", "darken", "lighten", "colorDodge", "colorBurn",
  "softLight", "hardLight", "difference", "exclusion", "plusLighter",
  "destinationOut", "destinationOver", "sourceAtop",
}

function Node:blend(mode)
  return add(self, "blend", choice(mode, 1, "blend", blend_modes))
end

function Node:group() return add(self, "group") end

function Node:z(index)
  return add(self, "z", finite(index, 1, "z"))
end

function Node:id(name)
  if type(name) == "number" then name = tostring(name) end
  if type(name) ~= "string" then argerror(1, "id", "string expected, got " .. typename(name)) end
  return add(self, "id", name)
end

function Node:overlay(v, a)
  return add(self, "overlay", node(v, 1, "overlay"), anchor(a, 2, "overlay"))
end

function Node:background(v, a)
  return add(self, "background", node(v, 1, "background"), anchor(a, 2, "background"))
end

local function handler(self, kind, f)
  if type(f) ~= "function" then argerror(1, kind, "function expected, got " .. typename(f)) end
  return add(self, kind, f)
end

function Node:onTap(f) return handler(self, "onTap", f) end
function Node:onDrag(f) return handler(self, "onDrag", f) end
function Node:onLongPress(f) return handler(self, "onLongPress", f) end
function Node:onDoubleTap(f) return handler(self, "onDoubleTap", f) end
