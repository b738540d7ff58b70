-- Spinner: an activity indicator that starts by itself, written the SwiftUI
-- way. `appear` (SwiftUI's onAppear) starts two endless animations on the first
-- frame: the ring turns linearly, and its trimmed arc grows and shrinks.
-- `morphhost run Examples/plugins/spinner.lua`
local m = morph

return m.component {
  name = "Spinner",
  description = "An activity ring that spins from the first frame (appear, trim, repeatForever).",
  size = { 240, 240 },
  props = {
    tint = m.color "#007AFF",
    track = m.color "#007AFF":opacity(0.15),
    diameter = 96,
    lineWidth = 10,
    period = 1,
  },
  -- turn: turns of the ring (0…1 a cycle); sweep: the arc's share of the ring.
  state = { turn = 0, sweep = 0.15 },
  progress = "turn",

  -- withAnimation(.linear(duration: 1).repeatForever(autoreverses: false)) { turn = 1 }
  appear = function(self)
    self:animate(m.linear(self.period):repeatForever { autoreverses = false }, { turn = 1 })
    self:animate(m.easeInOut(self.period * 0.75):repeatForever(), { sweep = 0.7 })
  end,

  body = function(self)
    local d, w = self.diameter, self.lineWidth
    return m.zstack {
      m.circle():stroke(self.track, w),
      -- A circle's trim starts at 3 o'clock; -90° puts the start at 12 o'clock.
      m.circle()
        :trim(0, self.sweep)
        :stroke { color = self.tint, width = w, cap = "round" }
        :rotate(-90 + 360 * self.turn)
        :id("arc"),
    }
      :frame(d, d)
      :frame { maxWidth = math.huge, maxHeight = math.huge }
  end,

  accessibility = function()
    return { label = "Loading", value = "in progress", traits = { "updatesFrequently" } }
  end,
}
