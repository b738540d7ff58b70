-- Tests of flip.lua: `morphhost test Plugins/` runs them (docs/testing.md).
-- The tap lands on the release, one 1/120 s tick after 0; then turns follows
-- 0.5 · bezier(0.22, 1, 0.36, 1) over `duration` seconds.
local test = morph.test
local at, approx = test.at, test.approx

return {
  test.case "a tap turns the card half a turn along its timing curve" {
    plugin = "flip.lua",
    input = "0 tap",
    at(0) { turns = 0 },
    -- 0.5 · bezier((0.3 - 1/120) / 0.55)
    at(0.3) { turns = approx(0.484933, 1e-3) },
    -- About 175° round: the back face, its near edge taller under perspective.
    at(0.3) { test.frame("back", { 83.806, 48.167, 218.569, 143.665 }) },
    test.settledBy(0.6),
    at(0.6) { turns = 0.5, test.accessibility "Showing back", test.snapshot "back" },
  },
  test.case "face-on at rest" {
    plugin = "flip.lua",
    at(0) {
      test.frame("card", { 80, 50, 220, 140 }),
      test.quad("front", { { 80, 50 }, { 300, 50 }, { 300, 190 }, { 80, 190 } }),
      test.accessibility { label = "Flip card", value = "Showing front" },
      test.snapshot "front",
    },
  },
  test.case "a longer duration prop stretches the flip" {
    plugin = "flip.lua",
    props = { duration = 1.1 },
    input = "0 tap",
    -- 0.5 · bezier((0.3 - 1/120) / 1.1)
    at(0.3) { turns = approx(0.393746, 1e-3) },
    test.settledBy(1.2),
  },
}
