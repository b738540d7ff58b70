-- Tests of like_button.lua (docs/testing.md). The input is the taps of
-- Examples/inputs/like.txt, written here: a test reads no file outside its folder.
local test = morph.test
local at, approx = test.at, test.approx

return {
  test.case "a tap likes, a second unlikes" {
    plugin = "like_button.lua",
    input = "0.0 tap\n1.2 tap\n1.8 doubletap",
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
