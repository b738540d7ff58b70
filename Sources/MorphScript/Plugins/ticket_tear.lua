-- Ticket Tear · syxUI · https://syxui.dev/components/morph-ticket-tear
-- Free in any project. Keep this line and credit syxUI where a person can read it.
--
-- A perforated ticket whose stub tears away, the rip growing teeth as it
-- separates. The only thing that shapes the torn edge is the tear amplitude
-- (amplitude · p): at 0 the edge is exactly a straight line, and it grows into
-- a fibrous rip without ever swapping to a different path. The stub's
-- rotation, its drift and the notch radius are plain values of `p`.
local m = morph

local WIDTH, MAIN_HEIGHT, STUB_HEIGHT = 240, 118, 54

--- Runs a quadratic curve through the midpoints of each consecutive pair,
--- using the original vertex as the pull-toward control point, then a line
--- to the last point (the seed's addSmoothedEdge).
local function add_smoothed_edge(path, points)
  if #points < 2 then return end
  local previous = points[1]
  for index = 2, #points do
    local current = points[index]
    path:quad(previous[1], previous[2], (previous[1] + current[1]) / 2, (previous[2] + current[2]) / 2)
    previous = current
  end
  path:line(points[#points][1], points[#points][2])
end

--- The jagged perforation edge shared by both halves, for the rect (0, 0, w, h):
--- at the piece's own bottom for the main body, its own top for the stub.
local function torn_edge(w, h, amplitude, teeth, flipped)
  local count = math.max(math.floor(teeth), 2)
  local baseline = flipped and 0 or h
  local points = {}
  for i = 0, count do
    local x = w * i / count
    local sign = i % 2 == 0 and 1 or -1
    local jitter = 0.6 + 0.4 * m.hash(i)
    local depth = amplitude * jitter * sign
    -- Teeth point away from the piece's own body on both halves, so the two
    -- edges read as complementary fibres, not mirrors.
    points[i + 1] = { x, baseline + (flipped and -depth or depth) }
  end
  return m.path(function(path)
    if flipped then
      path:move(0, h):line(0, points[1][2])
      add_smoothed_edge(path, points)
      path:line(w, h)
    else
      path:move(0, 0):line(w, 0):line(w, points[count + 1][2])
      local reversed = {}
      for i = #points, 1, -1 do reversed[#reversed + 1] = points[i] end
      add_smoothed_edge(path, reversed)
    end
    path:close()
  end)
end

--- Perforation notches, punched with destinationOut rather than painted on,
--- so whatever sits behind the ticket shows through the holes.
local function notches(radius, width, height, at_bottom)
  local y = at_bottom and height or 0
  return m.zstack {
    m.circle():frame(radius * 2, radius * 2):position(0, y),
    m.circle():frame(radius * 2, radius * 2):position(width, y),
  }:blend("destinationOut")
end

--- One half of the ticket: fill and 1 pt rip highlight share the jagged
--- outline; the notches erase inside the piece's own compositing group.
local function piece(self, content, height, amplitude, flipped, radius)
  local edge = torn_edge(WIDTH, height, amplitude, self.teeth, flipped)
  return m.zstack {
    content:frame(WIDTH, height):clip(m.shape(edge)),
    m.shape(edge):stroke(self.accent:opacity(self.interactive), 1),
    notches(radius, WIDTH, height, not flipped),
  }
    :group()
    :frame(WIDTH, height)
end

-- SwiftUI's ZStack(alignment: .leading) centres its children vertically: the
-- padded bar column (43 pt tall) sits centred in the 118 pt body, as in the seed.
local function main_content(self)
  return m.zstack {
    alignment = "leading",
    m.rect():fill(self.paperColor),
    m.rect():fill(self.accent):frame(10, nil),
    m.vstack {
      alignment = "leading",
      spacing = 8,
      m.roundedRect(3):fill(self.inkColor:opacity(0.85)):frame(130, 10),
      m.roundedRect(3):fill(self.inkColor:opacity(0.4)):frame(90, 7),
    }
      :padding { leading = 26 }
      :padding { top = 18 },
  }
end

local function stub_content(self)
  local bars = {}
  for index = 0, 11 do
    bars[#bars + 1] = m.rect()
      :fill(self.inkColor:opacity(index % 2 == 0 and 0.8 or 0.35))
      :frame(2, nil)
  end
  return m.zstack {
    m.rect():fill(self.paperColor),
    m.hstack { spacing = 3, bars }:padding { horizontal = 24 },
  }
end

local function dashed_guide(self)
  return m.shape(m.path(function(path) path:move(0, 0):line(WIDTH, 0) end))
    :stroke { color = self.inkColor:opacity(0.35 * (1 - self.interactive)), width = 1, dash = { 4, 3 } }
    :frame(WIDTH, 1)
end

return m.component {
  name = "Ticket Tear",
  description = "A perforated ticket whose stub tears away, the rip growing teeth; tap to tear or rejoin.",
  size = { 380, 240 },
  props = {
    paperColor = m.color "#FFFDF7", -- 1.0, 0.992, 0.969
    inkColor = m.color "#14161C", -- 0.078, 0.086, 0.110
    accent = m.color "#E0442B", -- 0.878, 0.267, 0.169
    -- Tear amplitude at full separation. 0 keeps the perforation a flat line.
    amplitude = 7,
    teeth = 22,
    -- Notch radius while attached. Grows by 2 pt as the ticket opens.
    notchRadius = 9,
  },
  state = { interactive = 0 },
  progress = "interactive",
  progressRange = { 0, 1 },

  body = function(self)
    local p = self.interactive
    local amplitude = self.amplitude * p
    local radius = self.notchRadius + 2 * p
    return m.vstack {
      spacing = 10,
      piece(self, main_content(self), MAIN_HEIGHT, amplitude, false, radius)
        :overlay(dashed_guide(self), "bottom")
        :id("main"),
      piece(self, stub_content(self), STUB_HEIGHT, amplitude, true, radius)
        :rotate(6 * p, "topLeading")
        :offset(8 * p, 14 * p)
        :id("stub"),
    }
      :frame { maxWidth = math.huge, maxHeight = math.huge }
  end,

  -- SwiftUI reads the model value in `toggle()`.
  tap = function(self)
    local target = self.target.interactive > 0.5 and 0 or 1
    if self.reduceMotion then
      self.interactive = target
    else
      self:animate(m.spring { response = 0.50, dampingFraction = 0.70 }, { interactive = target })
    end
  end,

  accessibility = function(self)
    return {
      label = "Ticket stub",
      -- Accessibility values do not animate: SwiftUI reads the model value.
      value = self.target.interactive > 0.5 and "Torn away" or "Attached",
      hint = "Tears the stub away, or rejoins it",
      traits = { "button" },
    }
  end,
}
