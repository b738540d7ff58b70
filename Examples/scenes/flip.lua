-- A card turned 60° about y with perspective, faces by opacity, a wash
-- overlay, a group shadow, and a centred label.
local m = morph

local function face(color)
  return m.roundedRect(20):fill(color):overlay(m.circle():fill("#2F6FED"):frame(40, 40))
end

return {
  name = "Flip fixture",
  size = { 380, 240 },
  body = m.zstack {
    face("#FFFFFF"):opacity(1):id("front"),
    face("#101317"):rotate3d(180):opacity(0):id("back"),
  }
    :overlay(m.color(0, 0, 0, 0.087))
    :scale(0.974)
    :rotate3d(60, { axis = { 0, 1, 0 }, perspective = 0.6 })
    :shadow { color = m.color(0, 0, 0, 0.22), radius = 10, y = 3 }
    :frame(220, 140)
    :overlay(m.text("Flip", { size = 17, weight = "bold", color = "#14161C" }), "bottom"),
}
