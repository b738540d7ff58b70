-- A box that says where the pointer hovers over it (the live view's hover test).
return morph.component {
  name = "Hover Probe",
  size = { 200, 100 },
  state = { over = false, x = 0, y = 0 },
  body = function(self)
    return morph.rect():fill(self.over and "#FF2D55" or "#007AFF")
  end,
  hover = function(self, event)
    self.over = event.phase == "active"
    if self.over then self.x, self.y = event.location.x, event.location.y end
  end,
  accessibility = function(self)
    local where = string.format("hovered at %d,%d", math.floor(self.x), math.floor(self.y))
    return { label = "Hover probe", value = self.over and where or "not hovered" }
  end,
}
