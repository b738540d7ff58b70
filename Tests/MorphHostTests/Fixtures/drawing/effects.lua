-- Goldens: blur (on a shape and on a stack), mask (a gradient masked by a circle, and
-- a stack masked by bars), and group opacity composited once.
local m = morph
local bars = m.vstack { spacing = 6, m.rect():frame(70, 10), m.rect():frame(70, 10), m.rect():frame(70, 10) }

-- Two overlapping circles side by side.
local function pair(colour, size, dx, a, b)
  return m.zstack {
    m.circle():fill(a or colour):frame(size, size):offset(-dx, 0),
    m.circle():fill(b or colour):frame(size, size):offset(dx, 0),
  }
end

return {
  name = "effects",
  size = { 340, 200 },
  body = m.vstack {
    spacing = 16,
    m.hstack {
      spacing = 16,
      m.roundedRect(10):fill("#34C759"):frame(60, 60):blur(4),
      pair(nil, 40, 12, "#FF3B30", "#007AFF"):frame(70, 70):blur(8),
      m.rect():fill(m.linearGradient { colors = { "#FF9500", "#AF52DE" } }):frame(70, 70)
        :mask(m.circle():frame(56, 56)),
      m.rect():fill("#007AFF"):frame(70, 70):mask(bars),
    },
    m.hstack {
      spacing = 16,
      -- Without group: each circle fades alone and the overlap is darker.
      pair("#000000", 50, 14):frame(90, 60):opacity(0.4),
      -- With group: composited once, one even grey.
      pair("#000000", 50, 14):frame(90, 60):group():opacity(0.4),
      -- Masked, then blurred: SwiftUI's order (mask first, the blur spreads past it).
      m.rect():fill("#FF2D55"):frame(60, 60):mask(m.circle():frame(40, 40)):blur(3),
    },
  },
}
