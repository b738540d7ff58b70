-- Tests of toast.lua (docs/testing.md): the transition's insertion and removal.
local test = morph.test
local at = test.at

-- Where the toast rests: its stack of 312 × 80.3 pt, 16 pt below the top edge included.
local rest = { 24, 0, 312, 80.307 }

return {
  test.case "a tap slides it in from above, and it leaves by itself" {
    plugin = "toast.lua",
    input = "0 tap",
    -- Moved up by most of its own height, fading in, under the spring.
    at(0.08) { shown = true, test.frame("toast", { 24, -56.925, 312, 80.307 }, 0.01) },
    at(1.2) {
      test.frame("toast", rest, 0.01),
      test.accessibility "Saved to your library. You will find it under Recent on every device.",
      test.snapshot "shown",
    },
    -- Two seconds after the tap (2 + 1/120 s) the timer's done hides it; it keeps drawing
    -- as it leaves.
    at(2.2) { shown = false, test.frame("toast", { 24, -68.058, 312, 80.307 }, 0.01) },
    test.settledBy(3.5),
    at(3.5) { test.accessibility "Hidden", test.snapshot "hidden" },
  },
  test.case "a second tap dismisses it while it slides in" {
    plugin = "toast.lua",
    input = "0 tap\n0.3 tap",
    at(0.4) { shown = false },
    -- The timer runs out its two seconds, doing nothing.
    test.settledBy(2.1),
  },
}
