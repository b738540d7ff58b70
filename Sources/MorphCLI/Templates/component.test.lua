-- Tests of {{name}}.lua: run them with `morphhost test` (docs/testing.md).
-- Each case loads the plugin afresh, plays its input on a virtual clock and
-- checks what must hold at each time. To compare pictures too, add
-- `test.snapshot "name"` inside an at(t){…}; `morphhost test --update`
-- records its golden beside this file (look at it before committing).
local test = morph.test
local at, approx = test.at, test.approx

return {
  test.case "at rest" {
    plugin = "{{name}}.lua",
    at(0) {
      p = 0,
      -- The 120 × 120 shape centred in the 380 × 240 frame.
      test.frame("shape", { 130, 60, 120, 120 }),
      test.accessibility { label = "{{title}}", value = "Off" },
    },
  },
  test.case "a tap springs it on" {
    plugin = "{{name}}.lua",
    input = "0 tap",
    -- The spring (response 0.4 s, damping 0.7) from the release, one 1/120 s tick after 0.
    at(0.2) { p = approx(0.966833, 1e-3) },
    test.settledBy(1),
    at(1) { p = 1, test.accessibility "On" },
  },
}
