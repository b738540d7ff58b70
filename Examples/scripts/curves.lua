-- Plots the curves the bundled plugins move with, as text, so you can see
-- them without a window:  morphhost eval -f Examples/scripts/curves.lua
local m = morph

local width, height = 60, 12

--- Draws `f` over t in [0, duration] into a text chart with a 0 and a 1 line.
local function plot(title, f, duration, lo, hi)
  local rows = {}
  for r = 1, height do rows[r] = {} for c = 1, width do rows[r][c] = " " end end
  local function row_of(v) return height - math.floor((v - lo) / (hi - lo) * (height - 1) + 0.5) end
  for c = 1, width do
    rows[row_of(0)][c] = "."
    rows[row_of(1)][c] = "."
  end
  for c = 1, width do
    local t = (c - 1) / (width - 1) * duration
    local r = m.clamp(row_of(f(t)), 1, height)
    rows[r][c] = "*"
  end
  print(("%s  (0 to %.2f s)"):format(title, duration))
  for r = 1, height do print("  |" .. table.concat(rows[r])) end
  print("  +" .. string.rep("-", width))
  print()
end

local deck = m.spring { response = 0.46, dampingFraction = 0.74 }
plot("Deck fan settle: spring(response 0.46, dampingFraction 0.74)",
  function(t) return deck:value(t) end, deck.settlingDuration, -0.1, 1.2)

local flip = m.timing(0.22, 1, 0.36, 1, 0.55)
plot("Flip: timingCurve(0.22, 1, 0.36, 1, 0.55 s)", function(t) return flip(t) end, 0.55, 0, 1.1)

local ticket = m.spring { response = 0.50, dampingFraction = 0.70 }
plot("Ticket tear: spring(0.50, 0.70)", function(t) return ticket:value(t) end, 1.2, -0.1, 1.2)

plot("Per-card slice through easeOutBack", function(x) return m.ease.outBack(x) end, 1, 0, 1.2)

local stack = m.interpolatingSpring { stiffness = 300, damping = 40 }
print(("Card stack snap: interpolatingSpring(stiffness 300, damping 40) — response %.3f s, "
  .. "damping ratio %.3f, settles in %.3f s"):format(
  stack.response, stack.dampingRatio, stack.settlingDuration))
