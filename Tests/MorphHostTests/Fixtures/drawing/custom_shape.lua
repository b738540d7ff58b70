-- Golden: a shape(function(rect)) fills whatever frame layout gives it, beside built-in
-- shapes in an HStack: a triangle, flexible, between fixed circles; and a star clip.
local m = morph
local function triangle(r)
  return m.path(function(p)
    p:move(r.width / 2, 0):line(r.width, r.height):line(0, r.height):close()
  end)
end
local function diamond(r)
  return m.path(function(p)
    p:move(r.width / 2, 0):line(r.width, r.height / 2):line(r.width / 2, r.height):line(0, r.height / 2):close()
  end)
end
return {
  name = "custom_shape",
  size = { 360, 180 },
  body = m.vstack {
    spacing = 12,
    m.hstack {
      spacing = 8,
      m.circle():fill("#007AFF"):frame(40, 40),
      m.shape(triangle):fill("#FF9500"),
      m.circle():fill("#007AFF"):frame(40, 40),
    }:frame(nil, 80),
    m.hstack {
      spacing = 8,
      m.shape(diamond):stroke { color = "#34C759", width = 4 }:frame(60, 60),
      m.rect():fill("#AF52DE"):frame(120, 60):clipShape(m.shape(diamond)),
    },
  },
}
