-- Tests of progress_ring.lua (docs/testing.md).
local test = morph.test
local at, approx = test.at, test.approx

return {
  test.case "each tap fills another quarter" {
    plugin = "progress_ring.lua",
    input = [[
      0.0 tap
      0.9 tap
    ]],
    -- 0.25 · easeInOut((0.4 - 1/120) / 0.8), from the release one tick after 0.
    at(0.4) { value = approx(0.120511, 1e-3) },
    test.settledBy(0.82),
    at(0.85) { value = 0.25, test.accessibility "25 percent", test.frame("arc", { 110, 40, 160, 160 }) },
    at(1.8) { value = 0.5, test.accessibility "50 percent", test.snapshot "half" },
  },
  test.case "a shorter duration prop" {
    plugin = "progress_ring.lua",
    props = { duration = 0.2 },
    input = "0 tap",
    test.settledBy(0.22),
  },
}
