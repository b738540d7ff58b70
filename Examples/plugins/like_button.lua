-- Like Button: a heart that pops on a bouncy spring, glows while liked (a
-- repeatForever) and throws a keyframed burst ring. Written only in Lua:
-- `morphhost run Examples/plugins/like_button.lua --input Examples/inputs/like.txt`.
local m = morph
local k = m.keyframe

local grey, red = m.color "#8E8E93", m.color "#FF2D55"
local heartSize = 96

-- A heart in a 1 × 1 box, scaled to its frame.
local heart = m.path(function(p)
  p:move(0.5, 0.3)
    :cubic(0.5, 0.27, 0.45, 0.15, 0.25, 0.15)
    :cubic(0, 0.15, 0, 0.4, 0, 0.4)
    :cubic(0, 0.55, 0.2, 0.77, 0.5, 0.92)
    :cubic(0.8, 0.77, 1, 0.55, 1, 0.4)
    :cubic(1, 0.4, 1, 0.15, 0.75, 0.15)
    :cubic(0.6, 0.15, 0.5, 0.27, 0.5, 0.3)
    :close()
end):scaled(heartSize)

-- The pop: squash, then a bouncy spring back (SwiftUI's keyframe pop).
local pop = m.keyframes({
  scale = {
    k.linear(0.78, 0.08, "easeOut"),
    k.spring(1.0, { spring = m.spring { duration = 0.45, bounce = 0.55 }, startVelocity = 6 }),
  },
  -- The burst ring: appears at once, grows out on a cubic, then is gone.
  ring = { k.move(0), k.cubic(1, 0.45, { startVelocity = 4 }), k.move(0) },
}, { scale = 1, ring = 0 })

local function like(self)
  self:animate(m.spring { duration = 0.35, bounce = 0.2 }, { liked = 1, tint = red })
  self:play(pop)
  -- The glow breathes for as long as the heart stays liked.
  self:animate(m.easeInOut(0.9):repeatForever(), { glow = 1 })
end

return m.component {
  name = "Like Button",
  description = "A heart that pops and glows; tap to like, double-tap to like with a burst.",
  size = { 240, 240 },
  -- `liked` is the progress; `tint` a colour (it animates through OKLab);
  -- `scale`, `ring` and `glow` are driven by keyframes and a repeating curve.
  state = { liked = 0, tint = grey, scale = 1, ring = 0, glow = 0 },
  progress = "liked",

  body = function(self)
    local ringScale = 0.7 + 0.9 * self.ring
    local ringAlpha = self.ring > 0 and (1 - self.ring) or 0
    return m.zstack {
      m.circle():stroke(red, 6 * (1 - self.ring) + 1):frame(heartSize, heartSize)
        :scale(ringScale):opacity(ringAlpha):id("ring"),
      m.shape(heart):fill(self.tint):frame(heartSize, heartSize)
        :shadow { color = red:opacity(0.6 * self.glow * self.liked), radius = 6 + 10 * self.glow }
        :scale(self.scale):id("heart"),
    }:frame { maxWidth = math.huge, maxHeight = math.huge }
  end,

  tap = function(self)
    if self.target.liked > 0.5 then
      self:animate(m.easeOut(0.25), { liked = 0, tint = grey, glow = 0 })
    else
      like(self)
    end
  end,

  -- Instagram's rule: a double tap only ever likes, with the burst again.
  doubleTap = like,

  -- Controlled mode (filmstrips, --progress): the colour and the ring follow.
  controlled = function(self, value)
    self:set { tint = grey:mix(red, m.clamp(value, 0, 1)), ring = m.clamp(value, 0, 1) * 0.999 }
  end,

  accessibility = function(self)
    return { label = "Like", value = self.target.liked > 0.5 and "Liked" or "Not liked",
      hint = "Double-tap to like", traits = { "button" } }
  end,
}
