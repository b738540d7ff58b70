-- Flip Card · syxUI · https://syxui.dev/components/morph-flip
-- Free in any project. Keep this line and credit syxUI where a person can read it.
--
-- A card that flips continuously about one axis, faces swapping at the
-- edge-on moment with a shadow that tightens mid-turn. One angle — always
-- advancing, never reversing — drives everything: which face is opaque, the
-- shadow's radius and offset, a scale dip, and a dim wash. The faces are never
-- swapped by replacing nodes; only opacity changes.
local m = morph

local function face(color, accent)
  return m.roundedRect(20, "continuous")
    :fill(color)
    :overlay(m.circle():fill(accent):frame(40, 40))
end

--- 0 at every face-on rest point, 1 at every edge-on crossing (every 180°).
local function edge_bump(angle)
  local segment = angle / 180
  return math.sin((segment - math.floor(segment)) * math.pi)
end

local function is_front_facing(angle)
  local normalized = angle % 360 -- Lua's % is floored: never negative here
  return normalized < 90 or normalized >= 270
end

return m.component {
  name = "Flip Card",
  description = "A card that flips about one axis with perspective; tap to flip.",
  size = { 380, 240 },
  props = {
    frontColor = m.color "#FFFFFF",
    backColor = m.color "#101317",
    accent = m.color "#2F6FED",
    duration = 0.55,
    perspective = 0.6,
    -- Axis of rotation: {0, 1, 0} flips horizontally, {1, 0, 0} vertically.
    axis = { 0, 1, 0 },
  },
  -- Half-turns completed in progress units (0.5 = 180°). Only ever grows.
  state = { turns = 0 },
  progress = "turns",
  progressRange = { 0, 1 },

  body = function(self)
    local angle = 360 * self.turns
    local front = is_front_facing(angle)
    local bump = edge_bump(angle)
    return m.zstack {
      face(self.frontColor, self.accent):opacity(front and 1 or 0):id("front"),
      -- Pre-rotated 180° so its content reads correctly once the outer
      -- rotation brings it forward.
      face(self.backColor, self.accent)
        :rotate3d(180, { axis = self.axis })
        :opacity(front and 0 or 1)
        :id("back"),
    }
      :overlay(m.color(0, 0, 0, 0.10 * bump))
      :scale(1 - 0.03 * bump)
      :rotate3d(angle, { axis = self.axis, perspective = self.perspective })
      :shadow { color = m.color(0, 0, 0, 0.22), radius = m.lerp(24, 8, bump), y = m.lerp(12, 2, bump) }
      :frame(220, 140)
      :id("card")
      :frame { maxWidth = math.huge, maxHeight = math.huge }
  end,

  tap = function(self)
    local turns = self.target.turns + 0.5
    if self.reduceMotion then
      self.turns = turns
    else
      self:animate(m.timing(0.22, 1, 0.36, 1, self.duration), { turns = turns })
    end
  end,

  accessibility = function(self)
    return {
      label = "Flip card",
      -- Accessibility values do not animate: SwiftUI reads the model value.
      value = is_front_facing(360 * self.target.turns) and "Showing front" or "Showing back",
      hint = "Flips to the other side",
      traits = { "button" },
    }
  end,
}
