-- Toggle Switch: an iOS-style switch whose knob rides a spring. Written only
-- in Lua: `morphhost run Examples/plugins/toggle_switch.lua`.
local m = morph

return m.component {
  name = "Toggle Switch",
  description = "A switch whose knob springs across; tap or drag it.",
  size = { 380, 240 },
  props = {
    onColor = m.color "#34C759",
    offColor = m.color "#E9E9EB",
    knobColor = m.color "#FFFFFF",
    width = 102,
    height = 62,
  },
  -- `on` animates 0 → 1 (so it can overshoot); `dragFrom` is false when not dragging.
  state = { on = 0, dragFrom = false },
  progress = "on",
  dragMinimumDistance = 4,

  body = function(self)
    local inset = 4
    local knob = self.height - 2 * inset
    local travel = self.width - knob - 2 * inset
    -- The knob stretches a little while it moves fastest, like UIKit's.
    local stretch = 1 + 0.18 * math.sin(math.pi * m.clamp(self.on, 0, 1))
    return m.capsule()
      :fill(self.offColor:mix(self.onColor, m.clamp(self.on, 0, 1)))
      :overlay(
        m.capsule()
          :fill(self.knobColor)
          :frame(knob * stretch, knob)
          :shadow { color = m.color(0, 0, 0, 0.18), radius = 3, y = 2 }
          :offset(inset + travel * self.on - knob * (stretch - 1) / 2, 0)
          :id("knob"),
        "leading")
      :frame(self.width, self.height)
      :id("track")
      :frame { maxWidth = math.huge, maxHeight = math.huge }
  end,

  tap = function(self)
    local target = self.target.on > 0.5 and 0 or 1
    self:animate(m.spring { response = 0.35, dampingFraction = 0.62 }, { on = target })
  end,

  drag = function(self, e)
    local travel = self.width - self.height
    if e.phase == "ended" then
      local target = e.predictedEndTranslation.x / travel + (self.dragFrom or 0) > 0.5 and 1 or 0
      self.dragFrom = false
      self:animate(m.spring { response = 0.35, dampingFraction = 0.62 }, { on = target })
      return
    end
    if self.dragFrom == false then self.dragFrom = self.on end
    self.on = m.clamp(self.dragFrom + e.translation.x / travel, 0, 1)
  end,

  accessibility = function(self)
    return { label = "Switch", value = self.on > 0.5 and "On" or "Off", hint = "Tap to toggle",
      traits = { "button" } }
  end,
}
