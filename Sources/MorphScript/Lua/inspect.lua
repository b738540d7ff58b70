-- How `morphhost eval` shows values: Lua's tostring for scalars and objects,
-- a sorted, nested listing for tables.
local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

local function inspect(value, indent, seen)
  if type(value) == "string" then return string.format("%q", value) end
  if type(value) ~= "table" then return tostring(value) end
  if seen[value] then return "<cycle>" end
  seen[value] = true
  local keys = {}
  for k in pairs(value) do keys[#keys + 1] = k end
  table.sort(keys, key_order)
  if #keys == 0 then return "{}" end
  local pad = string.rep("  ", indent + 1)
  local lines = {}
  local n = #value
  for _, k in ipairs(keys) do
    local shown = inspect(value[k], indent + 1, seen)
    if math.type(k) == "integer" and k >= 1 and k <= n then
      lines[#lines + 1] = pad .. shown
    elseif type(k) == "string" and k:match("^[%a_][%w_]*$") then
      lines[#lines + 1] = pad .. k .. " = " .. shown
    else
      lines[#lines + 1] = pad .. "[" .. inspect(k, 0, {}) .. "] = " .. shown
    end
  end
  seen[value] = nil
  return "{\n" .. table.concat(lines, ",\n") .. "\n" .. string.rep("  ", indent) .. "}"
end

return function(value) return inspect(value, 0, {}) end
