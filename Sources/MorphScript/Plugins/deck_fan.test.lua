-- Tests of deck_fan.lua: `morphhost test Plugins/` runs them (docs/testing.md).
local test = morph.test
local at, approx = test.at, test.approx
-- A tap springs `interactive` to 1 (response 0.46 s, damping 0.74) from the release, one
-- 1/120 s tick after 0: 1 - e^(-ζω₀t)(cos ω_d t + ζω₀/ω_d sin ω_d t).

return {
  test.case "stacked at rest" {
    plugin = "deck_fan.lua",
    at(0) {
      interactive = 0,
      -- 96 × 132 centred in 380 × 240; each card behind is 4 % smaller and 8 pt lower.
      test.frame("card1", { 142, 54, 96, 132 }),
      test.frame("card4", { 147.76, 85.92, 84.48, 116.16 }),
      test.accessibility "Stacked",
      test.snapshot "stacked",
    },
  },
  test.case "a tap fans the cards out on a spring" {
    plugin = "deck_fan.lua",
    input = "0 tap",
    at(0.2) { interactive = approx(0.871552, 1e-3) },
    test.settledBy(0.6),
    at(2) {
      interactive = 1,
      -- Tilted 14° left about its bottom edge, 70 pt left and 18 pt up.
      test.frame("card1", { 41.4921, 28.3087, 125.0821, 151.3035 }),
      test.accessibility "Fanned",
      test.snapshot "fanned",
    },
  },
  test.case "a drag to the right fans the cards as it goes" {
    plugin = "deck_fan.lua",
    input = "0 drag 190,120 -> 262,120 over 0.25",
    -- 72 pt at 120 pt a unit.
    at(0.25) { interactive = approx(0.6, 1e-9) },
    -- Released past halfway: springs on to fanned.
    test.settledBy(1),
    at(1) { interactive = 1 },
  },
}
