-- Notches punched with destinationOut inside a compositing group, a dashed
-- guide, a clip to a custom path, and a rotated stub.
local m = morph

--- A saw-tooth perforation along the piece's bottom (or, flipped, its top):
--- straight teeth, unlike the bundled ticket_tear plugin's smoothed rip.
local function edge(w, h, amplitude, flipped)
  return m.path(function(p)
    local base = flipped and 0 or h
    local teeth = 16
    if flipped then p:move(0, h) else p:move(0, 0):line(w, 0) end
    for k = 0, teeth do
      local i = flipped and k or teeth - k
      local depth = (i % 2 == 0 and 1 or -1) * amplitude
      p:line(w * i / teeth, base + (flipped and -depth or depth))
    end
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
