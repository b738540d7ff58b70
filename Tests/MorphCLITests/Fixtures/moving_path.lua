-- A 40 000-point path whose points all move every frame: issue 37's Lottie memory
-- case (90 000 points there), small enough for a test. `progress` lifts it by 100 pt.
local m = morph

return m.component {
  name = "MovingPath",
  size = { 400, 300 },
  state = { lift = 0 },
  progress = "lift",
  body = function(self)
    local lift = self.lift * 100
    return m.shape(m.path(function(p)
      p:move(0, 150 + lift)
      for i = 1, 39999 do
        p:line(i * 400 / 40000, 150 + 100 * math.sin(i * 0.001) + lift)
      end
    end)):stroke(m.color "#000000", 1)
  end,
}
