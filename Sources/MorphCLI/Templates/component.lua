-- {{title}}: a morphhost component. Run it with `morphhost run {{name}}.lua`;
-- every save reloads it and keeps its state.
local m = morph

return m.component {
  name = "{{title}}",
  description = "One line about what it does.",
  size = { 380, 240 },
  props = {
    color = m.color "#2F6FED",
  },
  -- Numbers animate; use false for "none" (nil cannot be stored).
  state = { p = 0 },
  -- The state key that --progress, filmstrips and `check` drive.
  progress = "p",
  progressRange = { 0, 1 },

  body = function(self)
    return m.roundedRect(24)
      :fill(self.color)
      :frame(120 + 80 * self.p, 120)
      :rotate(15 * self.p)
      :shadow { radius = m.lerp(4, 16, self.p), y = 4 }
      :id("shape")
      :frame { maxWidth = math.huge, maxHeight = math.huge }
  end,

  tap = function(self)
    local target = self.target.p > 0.5 and 0 or 1
    self:animate(m.spring { response = 0.4, dampingFraction = 0.7 }, { p = target })
  end,

  accessibility = function(self)
    return {
      label = "{{title}}",
      value = self.p > 0.5 and "On" or "Off",
      hint = "Tap to toggle",
      traits = { "button" },
    }
  end,
}
