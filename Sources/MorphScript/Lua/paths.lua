-- The parts of morph.path written in Lua (the builder calls back into Lua).
local morph, support = ...
local check_type = support.check.type
local newPath = morph.newPath
morph.newPath = nil

---A new path; `build(p)` may add to it at once.
---@param build? fun(p: morph.Path)
---@return morph.Path
function morph.path(build)
  local p = newPath()
  if build ~= nil then
    check_type(build, "function", 1, "path")
    build(p)
  end
  return p
end
