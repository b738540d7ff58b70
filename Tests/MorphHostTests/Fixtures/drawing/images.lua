-- Goldens: tile.png (8×4 px) at its own size, resizable to fit and to fill an 80×80
-- frame (fill clipped), stretched, and with smooth interpolation.
local m = morph
local function framed(node) return node:frame(80, 80):background("#E5E5EA") end
return {
  name = "images",
  size = { 460, 100 },
  body = m.hstack {
    spacing = 10,
    framed(m.image("tile.png")),
    framed(m.image("tile.png", { resizable = true, contentMode = "fit", interpolation = "none" })),
    framed(m.image("tile.png", { resizable = true, contentMode = "fill", interpolation = "none" })):clip(),
    framed(m.image("tile.png", { resizable = true, interpolation = "none" })),
    framed(m.image("tile.png", { resizable = true, contentMode = "fit", interpolation = "high" })),
  },
}
