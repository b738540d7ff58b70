-- A scene that can draw only its first frame: any later one is an error, so an
-- export that checks its sizes up front never reaches it.
return {
  name = "first frame only",
  size = { 380, 240 },
  body = function(p)
    if p > 0 then error("frame past the first was rendered") end
    return morph.rect():fill("#2F6FED"):frame(100, 60)
  end,
}
