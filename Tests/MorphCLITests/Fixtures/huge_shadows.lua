-- 200 rectangles with shadows of radius 1e300 (each clamped to σ 256): this
-- frame took 36 s to draw before the frame budget refused it up front.
local m = morph
return {
  name = "huge shadows",
  size = { 380, 240 },
  body = function(_)
    local cards = {}
    for i = 1, 200 do
      cards[i] = m.rect():fill("#EC4899"):frame(20, 20)
        :offset(i % 17 * 20 - 170, i % 11 * 20 - 110)
        :shadow { radius = 1e300 }
    end
    return m.zstack(cards)
  end,
}
