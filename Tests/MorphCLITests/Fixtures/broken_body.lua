return {
  body = function()
    return morph.rect():rotate("a lot")
  end,
}
