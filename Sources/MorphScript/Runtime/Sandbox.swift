import CLua

/// The sandbox plugins run in, written in Lua because it is mostly table
/// copying. The prelude runs once per state with the full standard library,
/// captures what plugins may use, closes the rest, and returns `make_env`.
enum Sandbox {
  static let prelude = """
    local host_write = ...
    local G = _G
    local pairs, ipairs, type, tostring, error, select = pairs, ipairs, type, tostring, error, select
    local load, collectgarbage, setmetatable = load, collectgarbage, setmetatable
    local concat = table.concat

    -- ("").dump would reach string.dump through the string metatable.
    string.dump = nil
    -- getmetatable("") now answers false, and the metatable cannot be changed.
    getmetatable("").__metatable = false
    -- Deterministic unless a plugin reseeds.
    math.randomseed(0x6D6F7270)

    local base = {
      "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
      "tostring", "type", "xpcall", "rawequal", "rawget", "rawset", "rawlen",
      "setmetatable", "getmetatable", "_VERSION",
    }
    local libraries = { "string", "table", "math", "utf8", "coroutine" }
    local safe_os = { clock = os.clock, time = os.time, difftime = os.difftime }

    local function copy(t)
      local c = {}
      for k, v in pairs(t) do c[k] = v end
      return c
    end

    local function print(...)
      local n = select("#", ...)
      local parts = { ... }
      for i = 1, n do parts[i] = tostring(parts[i]) end
      host_write(concat(parts, "\\t", 1, n))
    end

    local function make_env(morph)
      local env = {}
      for _, k in ipairs(base) do env[k] = G[k] end
      for _, k in ipairs(libraries) do env[k] = copy(G[k]) end
      env.os = copy(safe_os)
      env.print = print
      env.morph = morph
      env._G = env
      env.collectgarbage = function(option)
        if option == nil or option == "count" then return collectgarbage("count") end
        error("collectgarbage: plugins may only ask for \\"count\\"", 2)
      end
      -- Text chunks only; a loaded chunk sees this environment unless given one.
      env.load = function(chunk, name, _, chunk_env)
        if chunk_env == nil then chunk_env = env end
        return load(chunk, name, "t", chunk_env)
      end
      env.require = function(name)
        if name == "morph" then return morph end
        error(("module '%s' not found: plugins may require only 'morph'"):format(tostring(name)), 2)
      end
      return env
    end

    -- What the host's own code may not leave lying around in _G either.
    for _, k in ipairs({ "io", "debug", "package", "dofile", "loadfile", "require" }) do
      G[k] = nil
    end
    os.execute, os.exit, os.remove, os.rename, os.getenv, os.tmpname = nil, nil, nil, nil, nil, nil

    return make_env
    """

  /// Lua source of `morphhost eval`'s pretty printer.
  static let inspectSource = """
    local function key_order(a, b)
      local ta, tb = type(a), type(b)
      if ta ~= tb then return ta < tb end
      if ta == "number" or ta == "string" then return a < b end
      return tostring(a) < tostring(b)
    end

    local function inspect(value, indent, seen)
      if type(value) == "string" then return string.format("%q", value) end
      if type(value) ~= "table" then return tostring(value) end
      if seen[value] then return "<cycle>" end
      seen[value] = true
      local keys = {}
      for k in pairs(value) do keys[#keys + 1] = k end
      table.sort(keys, key_order)
      if #keys == 0 then return "{}" end
      local pad = string.rep("  ", indent + 1)
      local lines = {}
      local n = #value
      for _, k in ipairs(keys) do
        local shown = inspect(value[k], indent + 1, seen)
        if math.type(k) == "integer" and k >= 1 and k <= n then
          lines[#lines + 1] = pad .. shown
        elseif type(k) == "string" and k:match("^[%a_][%w_]*$") then
          lines[#lines + 1] = pad .. k .. " = " .. shown
        else
          lines[#lines + 1] = pad .. "[" .. inspect(k, 0, {}) .. "] = " .. shown
        end
      end
      seen[value] = nil
      return "{\\n" .. table.concat(lines, ",\\n") .. "\\n" .. string.rep("  ", indent) .. "}"
    end

    return function(value) return inspect(value, 0, {}) end
    """

  /// `print` in a plugin ends here: one string argument, already formatted.
  static let hostWrite: morph_hostfn = { lua in
    guard let lua else { return 0 }
    let state = LuaState.owner(of: lua)
    state.output(state.stringValue(at: 1))
    return 0
  }
}
