-- Notches punched with destinationOut inside a compositing group, a dashed
-- guide, a clip to a custom path, and a rotated stub.
local m = morph

local function edge(w, h, amplitude, flipped)
  return m.path(function(p)
    local base = flipped and 0 or h
    local pts = {}
    for i = 0, 22 do
      local sign = i % 2 == 0 and 1 or -1
      local depth = amplitude * (0.6 + 0.4 * m.hash(i)) * sign
      pts[#pts + 1] = { w * i / 22, base + (flipped and -depth or depth) }
    end
    if flipped then
      p:move(0, h):line(0, pts[1][2])
    else
      p:move(0, 0):line(w, 0):line(w, pts[#pts][2])
      local r = {}
      for i = #pts, 1, -1 do r[#r + 1] = pts[i] end
      pts = r
    end
    local prev = pts[1]
    for i = 2, #pts do
      local cur = pts[i]
      p:quad(prev[1], prev[2], (prev[1] + cur[1]) / 2, (prev[2] + cur[2]) / 2)
      prev = cur
    end
    p:line(pts[#pts][1], pts[#pts][2])
    if flipped then p:line(w, h) end
    p:close()
  end)
end

local function piece(h, flipped, amplitude)
  local y = flipped and 0 or h
  return m.zstack {
    m.rect():fill("#FFFDF7"):frame(240, h):clip(m.shape(edge(240, h, amplitude, flipped))),
    m.shape(edge(240, h, amplitude, flipped)):stroke(m.color("#E0442B"):opacity(1), 1),
    m.zstack {
      m.circle():frame(20, 20):position(0, y),
      m.circle():frame(20, 20):position(240, y),
    }:blend("destinationOut"),
  }:group():frame(240, h)
end

return {
  name = "Ticket fixture",
  size = { 380, 240 },
  body = function()
    local guide = m.shape(m.path(function(p) p:move(0, 0):line(240, 0) end))
      :stroke { color = m.color("#14161C"):opacity(0.35), width = 1, dash = { 4, 3 } }
      :frame(240, 1)
    return m.vstack {
      spacing = 10,
      piece(118, false, 7):id("main"):overlay(guide, "bottom"),
      piece(54, true, 7):id("stub"):rotate(6, "topLeading"):offset(8, 14),
    }:frame { maxWidth = math.huge, maxHeight = math.huge }:background("#E8EEF7")
  end,
}
