-- What CrossPathTests reads along every path: completions that start more motion
-- (timing curves, a spring, a keyframe timeline's `done`), a delayed repeat, and a
-- node inserted by a `done` whose `onAppear` animates.
local m = morph
local k = m.keyframe

local hop = m.keyframes({
  z = { k.linear(1, 0.3), k.spring(0, { spring = m.spring "bouncy" }) },
}, { z = 0 })

return m.component {
  name = "Chain",
  size = { 200, 120 },
  state = { clock = 0, y = 0, s = 0, z = 0, r = 0, bar = 0, shown = false },

  appear = function(self)
    self:animate(m.linear(1), { clock = 1 }, function()
      self:animate(m.linear(1), { y = 1 })
      self:animate(m.spring { duration = 0.4, bounce = 0.3 }, { s = 1 }, function()
        self:play(hop, { done = function() self.shown = true end })
      end)
    end)
    self:animate(m.easeInOut(0.35):delay(0.1):repeatCount(3), { r = 1 })
  end,

  tap = function(self)
    self:animate(m.spring "snappy", { s = self.s + 0.5 })
  end,

  body = function(self)
    local children = {
      m.rect():fill("#D0D0D8"):frame(20 + 100 * self.y, 20)
        :offset(0, 30 * self.s - 15)
        :rotate3d(60 * self.r + 30 * self.z, { axis = { 0, 1, 0 }, perspective = 0.4 }),
    }
    if self.shown then
      children[2] = m.circle():fill("#E04040"):frame(30, 30)
        :offset(60 * self.bar, 0)
        :onAppear(function(s) s:animate(m.linear(0.5), { bar = 1 }) end)
    end
    return m.zstack(children)
  end,
}
