-- `morphhost bench`'s node-building measurement: 1000 nodes with three
-- modifiers each built through `morph`, against the floor: the same records
-- as plain tables, with no checks. The plain records follow the node format
-- (NodeSchema); a test checks that both builders make the same tree.
local m = morph
local count = 1000

local function through_morph()
  local c = {}
  for i = 1, count do c[i] = m.rect():frame(10, 10):offset(i, 0):opacity(0.5) end
  return m.zstack(c)
end

local function plain_tables()
  local c = {}
  for i = 1, count do
    c[i] = {
      op = "rect",
      mods = {
        { op = "frame", width = 10, height = 10 }, { op = "offset", x = i, y = 0 }, { op = "opacity", alpha = 0.5 },
      },
    }
  end
  return { op = "zstack", children = c, mods = {} }
end

return through_morph, plain_tables
