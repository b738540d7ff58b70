-- Goldens: linear, radial and angular gradients as a fill, a stroke and a background,
-- and each under the flip's perspective (the gradient must stay on the turned card).
local m = morph
local linear = m.linearGradient { colors = { "#FF3B30", "#007AFF" }, from = "leading", to = "trailing" }
local radial = m.radialGradient { stops = { { "#FFCC00", 0 }, { "#FF9500", 0.5 }, { "#5856D6", 1 } }, endRadius = 34 }
local angular = m.angularGradient { colors = { "#FF3B30", "#FFCC00", "#34C759", "#007AFF", "#FF3B30" } }
local half = m.angularGradient { colors = { "#000000", "#FFFFFF" }, startAngle = -90, endAngle = 90 }

local function row(paint)
  return m.hstack {
    spacing = 10,
    m.roundedRect(12):fill(paint):frame(70, 70),
    m.circle():stroke { color = paint, width = 10 }:frame(70, 70),
    m.empty():frame(70, 70):background(paint),
    m.roundedRect(12):fill(paint):frame(70, 70):rotate3d(40, { axis = { 0, 1, 0 }, perspective = 0.5 }),
  }
end

return {
  name = "gradients",
  size = { 320, 340 },
  body = m.vstack { spacing = 14, row(linear), row(radial), row(angular), row(half) },
}
