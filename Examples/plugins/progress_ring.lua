-- Progress Ring: a ring that fills along a timing curve, with the percentage
-- in the middle. Written only in Lua: each tap adds a quarter.
local m = morph

--- The arc from 12 o'clock, clockwise, for a fraction of a turn.
local function arc(size, width, fraction)
  local r = (size - width) / 2
  return m.path(function(p)
    if fraction <= 0 then return end
    p:arc(size / 2, size / 2, r, -90, -90 + 360 * math.min(fraction, 0.9999), false)
  end)
end

return m.component {
  name = "Progress Ring",
  description = "A ring that fills along a timing curve; tap to add 25%.",
  size = { 380, 240 },
  props = {
    tint = m.color "#FF9500",
    track = m.color "#FF9500":opacity(0.18),
    diameter = 160,
    lineWidth = 18,
    duration = 0.8,
  },
  state = { value = 0 },
  progress = "value",

  body = function(self)
    local d, w = self.diameter, self.lineWidth
    local shown = m.clamp(self.value, 0, 1)
    return m.zstack {
      m.circle():stroke(self.track, w):frame(d - w, d - w),
      m.shape(arc(d, w, shown))
        :stroke { color = self.tint, width = w, cap = "round" }
        :frame(d, d)
        :id("arc"),
      m.text(string.format("%d%%", math.floor(shown * 100 + 0.5)),
        { size = 34, weight = "bold", color = "#1C1C1E" }):id("label"),
    }
      :frame(d, d)
      :frame { maxWidth = math.huge, maxHeight = math.huge }
  end,

  tap = function(self)
    local next = self.target.value >= 1 and 0 or math.min(1, self.target.value + 0.25)
    self:animate(m.timing("easeInOut", self.duration), { value = next })
  end,

  accessibility = function(self)
    return { label = "Progress", value = string.format("%d percent", math.floor(self.value * 100 + 0.5)),
      hint = "Tap to add a quarter", traits = { "updatesFrequently" } }
  end,
}
