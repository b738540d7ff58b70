-- Tests of ticket_tear.lua: `morphhost test Plugins/` runs them (docs/testing.md).
local test = morph.test
local at, approx = test.at, test.approx

return {
  test.case "attached at rest" {
    plugin = "ticket_tear.lua",
    at(0) {
      test.frame("main", { 70, 29, 240, 118 }),
      test.quad("stub", { { 70, 157 }, { 310, 157 }, { 310, 211 }, { 70, 211 } }),
      test.accessibility "Attached",
      test.snapshot "attached",
    },
  },
  test.case "a tap tears the stub away" {
    plugin = "ticket_tear.lua",
    input = "0 tap",
    -- A spring of response 0.5 s, damping 0.7, from the release one tick after 0.
    at(0.25) { interactive = approx(0.970506, 1e-3) },
    test.settledBy(0.85),
    at(2) {
      interactive = 1,
      -- Moved by (8, 14) and turned 6° about its top-left corner.
      test.quad("stub", {
        { 78, 171 }, { 316.6853, 196.0868 }, { 311.0407, 249.7910 }, { 72.3555, 224.7042 },
      }),
      test.accessibility "Torn away",
      test.snapshot "torn",
    },
  },
}
