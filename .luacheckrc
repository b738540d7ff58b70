-- luacheck configuration for plugins and examples: the host provides `morph`.
std = "lua54"
read_globals = { "morph" }
max_line_length = 120
-- The meta file declares, never runs; its type aliases are long lines by nature.
files["Sources/MorphScript/Lua/morph.meta.lua"] = { ignore = { "212", "241", "131", "111", "112", "121", "122", "631" } }
