-- A plugin with seeded mistakes for `morphhost check`: no accessibility, a
-- body that fails past half progress, and a tap whose animation never ends.
local m = morph

local function bounce(self)
  self:animate(m.easeInOut(0.2), { p = 1 - self.target.p }, bounce)
end

return m.component {
  name = "Mistakes",
  state = { p = 0 },
  progress = "p",
  body = function(self)
    if self.p > 0.6 then error("body breaks past 0.6") end
    return m.rect():fill("#FF0000"):frame(100 + 50 * self.p, 60)
  end,
  tap = bounce,
}
