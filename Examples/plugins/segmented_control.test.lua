-- Tests of segmented_control.lua (docs/testing.md).
local test = morph.test
local at = test.at

return {
  test.case "a tap on a segment moves the pill there" {
    plugin = "segmented_control.lua",
    input = "0 tap 300,120",
    at(0) { pill = 0, test.frame("pill", { 33, 101, 100.6667, 38 }), test.snapshot "first" },
    test.settledBy(0.55),
    -- Two segments of 100.67 pt to the right.
    at(1) {
      pill = 2,
      test.accessibility "Month",
      test.frame("pill", { 246.3333, 101, 100.6667, 38 }),
      test.snapshot "last",
    },
  },
}
