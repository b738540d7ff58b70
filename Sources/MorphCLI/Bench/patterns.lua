-- `morphhost bench --patterns`: typical pattern calls of plugins (parsing
-- props, colours, numbers, splitting and trimming text), run `rounds` times.
-- The same chunk runs with the sandbox's bounded string functions and with
-- Lua's own; the bench prints the ratio of their times.
local rounds = ...
local text = ("title=Deck Fan, cards=12; colour=#336699 angle=-12.5deg  "
  .. "  Lorem ipsum dolor sit amet, consectetur 2024-05-17 adipiscing elit.\n"):rep(3)
local words, found = 0, 0
for _ = 1, rounds do
  found = found + (text:find("%d+") or 0) + (text:find("adipiscing", 1, true) or 0)
  local key, value = text:match("(%w+)=(%w+)")
  found = found + #key + #value
  found = found + #(text:match("#(%x%x%x%x%x%x)") or "")
  found = found + #(text:match("^%s*(.-)%s*$"))
  local y, m, d = text:match("(%d+)-(%d+)-(%d+)")
  found = found + #y + #m + #d
  for word in text:gmatch("%a+") do words = words + #word end
  for field in text:gmatch("[^,;]+") do words = words + #field end
  local squeezed, n = text:gsub("%s+", " ")
  found = found + #squeezed + n
  found = found + select(2, text:gsub("%f[%w]%w+", "<%0>"))
  found = found + #(text:gsub("(%w+)=(%w+)", "%2=%1"))
  found = found + #(text:gsub("%-?%d+%.?%d*", function(number) return number .. "!" end))
end
return words + found
