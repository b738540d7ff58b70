-- A static deck-fan-like scene: four continuous rounded cards, each scaled,
-- rotated about its bottom and offset, with a shadow and a zIndex.
local m = morph
local colors = { "#2F6FED", "#7C5CFF", "#EC4899", "#F59E0B" }

return {
  name = "Fan fixture",
  size = { 380, 240 },
  body = function(p)
    local cards = {}
    for i, c in ipairs(colors) do
      local index = i - 1
      local t = index / 3 * 2 - 1
      local eased = m.ease.outBack(m.clamp((p - index * 0.09) / 0.73, 0, 1))
      cards[i] = m.roundedRect(16)
        :fill(c)
        :frame(96, 132)
        :scale(m.lerp(1 - index * 0.04, 1, eased))
        :rotate(m.lerp(0, t * 14, eased), "bottom")
        :offset(m.lerp(0, t * 70, eased), m.lerp(index * 8, -18, eased))
        :shadow { color = m.color(0, 0, 0, 0.24), radius = m.lerp(6, 18, eased), y = 4 }
        :z(index)
        :id("card" .. i)
    end
    return m.zstack(cards):frame { maxWidth = math.huge, maxHeight = math.huge }:background("#FFFFFF")
  end,
}
