-- The parts of morph.path written in Lua (the builder calls back into Lua).
local morph = ...
local newPath = morph.newPath
morph.newPath = nil

--- morph.path([build]): a new path; `build(p)` may add to it at once.
function morph.path(build)
  local p = newPath()
  if build ~= nil then
    if type(build) ~= "function" then
      error(("bad argument #1 to 'path' (function expected, got %s)"):format(type(build)), 2)
    end
    build(p)
  end
  return p
end
