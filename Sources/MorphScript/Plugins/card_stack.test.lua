-- Tests of card_stack.lua: `morphhost test Plugins/` runs them (docs/testing.md).
local test = morph.test
local at, approx = test.at, test.approx

return {
  test.case "the first card on top at rest" {
    plugin = "card_stack.lua",
    at(0) {
      currentIndex = 0,
      -- 390 wide less 50 pt of padding each side, 400 high.
      test.frame("card1", { 50, 51.4258, 290, 400 }),
      test.accessibility "Card 1 of 6",
      test.snapshot "first",
    },
  },
  test.case "a flick to the left brings the next card" {
    plugin = "card_stack.lua",
    input = "0 drag 300,250 -> 120,250 over 0.15",
    at(0.3) { currentIndex = approx(0.893749, 1e-3) },
    test.settledBy(0.7),
    at(2) { currentIndex = 1, finalIndex = 1, test.accessibility "Card 2 of 6", test.snapshot "second" },
  },
  test.case "a tap on the top card names it" {
    plugin = "card_stack.lua",
    input = "0 tap 195,250",
    at(0.1) { tappedIndex = 0 },
  },
}
