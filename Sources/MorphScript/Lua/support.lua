-- Helpers the host's own Lua files share. Trusted: runs once per state,
-- before any plugin, and receives `debug.getinfo`, `debug.traceback` and
-- Lua's own `pcall` (which plugins never see).
local getinfo, traceback, host_pcall = ...
local type, getmetatable, error = type, getmetatable, error

local support = {}

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
--- (and outside C), whatever depth the check ran at. A plugin that tail-calls
--- into the host (`return node:rotate(x)`) leaves no frame to blame: then the
--- message has no position and the host names the file.
function support.raise(message)
  local level = 2
  while true do
    local info = getinfo(level, "S")
    if info == nil then
      level = 0
      break
    end
    if info.source:sub(1, 7) ~= "=morph." and info.what ~= "C" then break end
    level = level + 1
  end
  error(message, level)
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

return support
