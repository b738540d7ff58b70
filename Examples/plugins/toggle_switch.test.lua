-- Tests of toggle_switch.lua (docs/testing.md).
local test = morph.test
local at, approx = test.at, test.approx

return {
  test.case "a tap switches it on with an overshoot" {
    plugin = "toggle_switch.lua",
    input = "0 tap",
    at(0) { on = 0, test.accessibility "Off", test.frame("knob", { 143, 93, 54, 54 }), test.snapshot "off" },
    -- Past 1: a spring of response 0.35 s, damping 0.62, from the release one tick after 0.
    at(0.2) { on = approx(1.067036, 1e-3) },
    test.settledBy(0.6),
    at(1) { on = 1, test.accessibility "On", test.frame("knob", { 183, 93, 54, 54 }), test.snapshot "on" },
  },
}
