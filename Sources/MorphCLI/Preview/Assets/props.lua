-- Lists a component definition's declared props for the preview's props
-- panel: one line per prop, "name<TAB>kind<TAB>value", sorted by name.
-- Kinds: number, boolean, string, color, numbers (an array of numbers, shown
-- as a Lua literal) and table (anything else, shown but not editable).
local function kind_and_text(v)
  local t = type(v)
  if getmetatable(v) == "morph.Color" then return "color", tostring(v) end
  if t == "number" or t == "boolean" then return t, tostring(v) end
  if t == "string" then return t, (v:gsub("[\t\r\n]", " ")) end
  if t == "table" and #v > 0 then
    local parts = {}
    for i, x in ipairs(v) do
      if type(x) ~= "number" then return "table", "" end
      parts[i] = tostring(x)
    end
    return "numbers", "{" .. table.concat(parts, ", ") .. "}"
  end
  return "table", ""
end

return function(def)
  local props = def.props or {}
  local names = {}
  for name in pairs(props) do names[#names + 1] = name end
  table.sort(names)
  local lines = {}
  for i, name in ipairs(names) do
    local kind, text = kind_and_text(props[name])
    lines[i] = name .. "\t" .. kind .. "\t" .. text
  end
  return table.concat(lines, "\n")
end
