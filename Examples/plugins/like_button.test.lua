-- Tests of like_button.lua (docs/testing.md). The input is the example script beside it.
local test = morph.test
local at, approx = test.at, test.approx

return {
  test.case "a tap likes, a second unlikes" {
    plugin = "like_button.lua",
    inputFile = "../inputs/like.txt",
    at(0) { liked = 0, test.accessibility "Not liked" },
    at(0.2) { liked = approx(0.955352, 1e-3), test.snapshot "liking" },
    at(1.1) {
      liked = approx(1, 1e-3),
      test.accessibility "Liked",
      test.frame("heart", { 72.0168, 72.0168, 95.9664, 95.9664 }),
    },
    at(1.7) { liked = approx(0, 1e-3), test.accessibility "Not liked" },
  },
}
