-- `morphhost bench`'s drawing measurement: the same 1000 nodes (a 40 × 25 grid of
-- 10 pt cells) drawn plainly — flat colours — and richly: every fifth cell a text,
-- the others linear, radial and angular gradients in turn, and one row blurred.
local m = morph
local columns, rows = 40, 25

local palette = { "#FF3B30", "#FF9500", "#FFCC00", "#34C759", "#007AFF", "#AF52DE" }
local linear = m.linearGradient { colors = { "#FF3B30", "#007AFF" } }
local radial = m.radialGradient { colors = { "#FFCC00", "#AF52DE" }, endRadius = 5 }
local angular = m.angularGradient { colors = { "#34C759", "#007AFF", "#34C759" } }
local gradients = { linear, radial, angular }

local function grid(cell)
  local lines = {}
  for r = 1, rows do
    local line = {}
    for c = 1, columns do line[c] = cell((r - 1) * columns + c) end
    lines[r] = m.hstack { spacing = 0, line }
  end
  return m.vstack { spacing = 0, lines }
end

local function plain()
  return grid(function(i) return m.roundedRect(3):fill(palette[i % #palette + 1]):frame(10, 10) end)
end

local function rich()
  local scene = grid(function(i)
    if i % 5 == 0 then return m.text("A", { size = 8 }):frame(10, 10) end
    return m.roundedRect(3):fill(gradients[i % 3 + 1]):frame(10, 10)
  end)
  -- One row of the 25, blurred as SwiftUI's .blur(radius: 3).
  scene.children[13] = scene.children[13]:blur(3)
  return scene
end

return plain, rich
