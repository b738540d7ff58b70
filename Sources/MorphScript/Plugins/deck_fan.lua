-- Deck Fan · syxUI · https://syxui.dev/components/morph-deck-fan
-- Free in any project. Keep this line and credit syxUI where a person can read it.
--
-- A tight stack of cards that fans out like a hand, each on its own delayed
-- spring. One shared progress `p` drives every card: each reads its own
-- staggered slice of it, `pi = clamp((p − i·stagger) / span, 0, 1)`, and runs
-- that slice through easeOutBack itself, so the small per-card overshoot on
-- arrival is baked into the geometry rather than into a delayed animation.
-- That is what keeps controlled mode (scrubbing `--progress`) identical to a
-- real tap or drag.
local m = morph

-- How much of the shared progress each card's own arc consumes.
local SPAN = 0.73
-- Drag distance, in points, that moves the fan by one whole unit.
local POINTS_PER_UNIT = 120

--- Rest-state offsets: a shallow cascade so the closed deck still reads as
--- separate cards, not one solid block.
local function rest_lift(index) return index * 8 end
local function rest_scale(index) return 1 - index * 0.04 end

--- -1…1 across the deck, centred on the middle card(s).
local function spread_position(index, count)
  if count <= 1 then return 0 end
  return index / (count - 1) * 2 - 1
end

local function per_card_progress(p, index, stagger)
  return m.clamp((p - index * stagger) / SPAN, 0, 1)
end

--- Springs to `target`, or jumps there when the host asks for reduced motion.
local function settle(self, target)
  if self.reduceMotion then
    self.interactive = target
  else
    self:animate(m.spring { response = 0.46, dampingFraction = 0.74 }, { interactive = target })
  end
end

return m.component {
  name = "Deck Fan",
  description = "Four cards that fan out like a hand, each on its own staggered easeOutBack; tap or drag.",
  size = { 380, 240 },
  props = {
    cardColors = {
      m.color "#2F6FED", -- 0.184, 0.435, 0.929
      m.color "#7C5CFF", -- 0.486, 0.361, 1.0
      m.color "#EC4899", -- 0.925, 0.282, 0.600
      m.color "#F59E0B", -- 0.961, 0.620, 0.043
    },
    background = m.color "#FFFFFF",
    spread = 70,
    maxRotation = 14,
    lift = 18,
    stagger = 0.09,
  },
  -- `dragStart` is the seed's `Double?`: false, or the base value while a
  -- drag runs (declared false, so it is never animated).
  state = { interactive = 0, dragStart = false },
  progress = "interactive",
  progressRange = { 0, 1 },
  dragMinimumDistance = 4,

  body = function(self)
    local p = self.interactive
    local colors = self.cardColors
    local count = math.max(#colors, 1)
    local cards = {}
    for i, color in ipairs(colors) do
      local index = i - 1
      local eased = m.ease.outBack(per_card_progress(p, index, self.stagger))
      local t = spread_position(index, count)
      cards[i] = m.roundedRect(16, "continuous")
        :fill(color)
        :frame(96, 132)
        :scale(m.lerp(rest_scale(index), 1, eased))
        :rotate(m.lerp(0, t * self.maxRotation, eased), "bottom")
        :offset(m.lerp(0, t * self.spread, eased), m.lerp(rest_lift(index), -self.lift, eased))
        :shadow { color = m.color(0, 0, 0, 0.24), radius = m.lerp(6, 18, eased), y = 4 }
        :z(index)
        :id("card" .. i)
    end
    return m.zstack(cards)
      :frame { maxWidth = math.huge, maxHeight = math.huge }
      :background(self.background)
  end,

  -- SwiftUI reads the model value in `toggle()`: a second tap mid-flight
  -- reverses toward where the first was not headed.
  tap = function(self)
    settle(self, self.target.interactive > 0.5 and 0 or 1)
  end,

  drag = function(self, event)
    if event.phase == "ended" then
      self.dragStart = false
      settle(self, self.interactive > 0.5 and 1 or 0)
      return
    end
    -- Captured on the first change, from the live (presented) value — not
    -- from wherever the last spring was headed — so grabbing the fan
    -- mid-settle starts the drag from what is actually on screen.
    local base = self.dragStart
    if base == false then
      base = self.interactive
      self.dragStart = base
    end
    self.interactive = m.clamp(base + event.translation.x / POINTS_PER_UNIT, 0, 1)
  end,

  accessibility = function(self)
    return {
      label = "Card fan",
      -- Accessibility values do not animate: SwiftUI reads the model value.
      value = self.target.interactive > 0.5 and "Fanned" or "Stacked",
      hint = "Drag or tap to fan the cards",
      traits = { "button" },
    }
  end,
}
