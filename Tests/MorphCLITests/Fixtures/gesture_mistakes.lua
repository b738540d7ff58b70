-- A component whose long press and double tap handlers are broken: check
-- must poke both.
return morph.component {
  state = { p = 0 },
  progress = "p",
  body = function() return morph.rect():frame(100, 100) end,
  longPress = function(self) self.missing = 1 end,
  doubleTap = function(self) self:animate(morph.spring(), { p = "far" }) end,
  accessibility = function() return { label = "Broken", value = "yes" } end,
}
