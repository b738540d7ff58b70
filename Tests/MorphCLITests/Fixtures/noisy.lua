-- A component that puts terminal escapes everywhere a host shows its text:
-- its name, its accessibility value, what it prints, and an error on tap.
local m = morph
local osc52 = "\27]52;c;aGVsbG8=\7"

return m.component {
  name = "noisy" .. osc52,
  size = { 100, 60 },
  state = { p = 0 },
  progress = "p",
  body = function(self)
    print("body says" .. osc52)
    return m.rect():fill("#2F6FED"):frame(40 + 10 * self.p, 40)
  end,
  tap = function()
    error("tapped" .. osc52)
  end,
  accessibility = function()
    return { label = "noisy", value = "v" .. osc52 }
  end,
}
