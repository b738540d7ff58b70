-- Tests of tab_bar.lua (docs/testing.md): the pill's matched geometry.
local test = morph.test
local at = test.at

-- Where the pill rests behind each label (component points).
local home = { 34.527, 30.923, 70.635, 34.153 }
local library = { 191.873, 30.923, 79.116, 34.153 }

return {
  test.case "a tap glides the pill to the tapped tab and stretches it" {
    plugin = "tab_bar.lua",
    input = "0 tap 231,48",
    at(0) { test.frame("pill", home, 0.01) },
    -- On the spring's way: a quarter of the distance, wider than Home's label.
    at(0.1) { selected = "Library", test.frame("pill", { 111.521, 30.923, 74.785, 34.153 }, 0.01) },
    test.settledBy(2),
    at(2) {
      test.frame("pill", library, 0.01),
      test.accessibility "Library",
      test.snapshot "library",
    },
  },
  test.case "a tap while it moves turns it back from where it is" {
    plugin = "tab_bar.lua",
    input = "0 tap 231,48\n1 tap 300,48\n1.15 tap 70,48",
    -- Still on its way to Me, already heading home: no jump.
    at(1.2) { selected = "Home", test.frame("pill", { 232.7, 30.923, 55.448, 34.153 }, 0.01) },
    test.settledBy(3.5),
    at(3.5) { test.frame("pill", home, 0.01), test.snapshot "home" },
  },
}
