-- A component laid out in the size its host offers (`self.size`): the live
-- view's window and the preview's page offer theirs. Its value says the size.
local m = morph

return m.component {
  name = "Adaptive",
  size = { 200, 100 },
  body = function(self)
    local s = self.size
    return m.rect():fill(s.width > 2 * s.height and "#2F6FED" or "#E5484D")
      :frame(s.width, s.height)
  end,
  accessibility = function(self)
    local s = self.size
    return { label = "adaptive", value = string.format("offered %.0fx%.0f", s.width, s.height) }
  end,
}
