-- Segmented Control: a pill that follows the finger and, on release, snaps
-- to a segment on a spring that starts at the finger's speed; its colour
-- animates between the segments' colours (through OKLab) and it swells a
-- little while held. Written only in Lua:
-- `morphhost run Examples/plugins/segmented_control.lua --input Examples/inputs/segments.txt`.
local m = morph

local snap = m.spring { duration = 0.4, bounce = 0.25 }

return m.component {
  name = "Segmented Control",
  description = "A pill that follows the finger and snaps with its release velocity.",
  size = { 380, 240 },
  props = {
    segments = { "Day", "Week", "Month" },
    colors = { m.color "#007AFF", m.color "#34C759", m.color "#FF9500" },
    width = 320,
    height = 44,
  },
  -- `pill` is the pill's position in segments (the progress); `tint` a
  -- colour and `press` a size, both animatable; `grab` where a drag began.
  state = { pill = 0, tint = m.color "#007AFF", press = { width = 0, height = 0 }, grab = false },
  progress = "pill",
  progressRange = function(self) return 0, #self.segments - 1 end,
  dragMinimumDistance = 2,

  body = function(self)
    local n = #self.segments
    local w = self.width / n
    local labels = {}
    for i, name in ipairs(self.segments) do
      -- A label is white while the pill sits under it.
      local under = m.clamp(1 - math.abs(self.pill - (i - 1)), 0, 1)
      labels[i] = m.text(name, { size = 15, weight = "bold",
        color = m.color "#3C3C43":mix(m.color "#FFFFFF", under) }):frame(w, self.height)
    end
    local inset = 3
    return m.zstack {
      m.capsule():fill(m.color "#E9E9EB"):frame(self.width, self.height),
      m.capsule():fill(self.tint)
        :frame(w - 2 * inset + self.press.width, self.height - 2 * inset + self.press.height)
        :shadow { color = m.color(0, 0, 0, 0.15), radius = 3, y = 1 }
        :offset((self.pill - (n - 1) / 2) * w, 0)
        :id("pill"),
      m.hstack { spacing = 0, labels },
    }:frame { maxWidth = math.huge, maxHeight = math.huge }
  end,

  tap = function(self, e)
    local n = #self.segments
    local index = math.floor((e.x - (380 - self.width) / 2) / (self.width / n))
    if index < 0 or index >= n then return end
    self:animate(snap, { pill = index })
    self:animate(m.easeInOut(0.3), { tint = self.colors[index + 1] })
  end,

  drag = function(self, e)
    local n = #self.segments
    local w = self.width / n
    if e.phase == "began" then
      self.grab = self.pill
      self:animate(m.spring { duration = 0.25 }, { press = { width = 10, height = 4 } })
    end
    if e.phase ~= "ended" then
      -- The pill rides the finger; the colour heads for the nearest segment.
      local at = m.clamp(self.grab + e.translation.x / w, 0, n - 1)
      self.pill = at
      local nearest = math.floor(at + 0.5)
      if self.target.tint ~= self.colors[nearest + 1] then
        self:animate(m.easeInOut(0.25), { tint = self.colors[nearest + 1] })
      end
      return
    end
    -- Where a flick would come to rest, snapped; the spring starts at the
    -- finger's speed (segments per second), so the handoff has no jolt.
    local index = m.clamp(math.floor(self.grab + e.predictedEndTranslation.x / w + 0.5), 0, n - 1)
    self.grab = false
    self:animate(snap, { pill = index }, { velocity = { pill = e.velocity.x / w } })
    self:animate(m.easeInOut(0.3), { tint = self.colors[index + 1] })
    self:animate(m.spring { duration = 0.3 }, { press = { width = 0, height = 0 } })
  end,

  -- Controlled mode: the colour a parent's binding would show.
  controlled = function(self, value)
    self.tint = self.colors[m.clamp(math.floor(value + 0.5), 0, #self.segments - 1) + 1]
  end,

  accessibility = function(self)
    local index = m.clamp(math.floor(self.target.pill + 0.5), 0, #self.segments - 1)
    return { label = "Segments", value = self.segments[index + 1], traits = { "button" } }
  end,
}
