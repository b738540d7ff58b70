/* Lua's function-like macros as functions, for Swift (which cannot import them). */
#include "internal.h"

void morph_pop(lua_State *L, int n) { lua_pop(L, n); }
void morph_newtable(lua_State *L) { lua_newtable(L); }
const char *morph_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
lua_Number morph_tonumber(lua_State *L, int i) { return lua_tonumber(L, i); }
lua_Integer morph_tointeger(lua_State *L, int i) { return lua_tointeger(L, i); }
int morph_isnil(lua_State *L, int i) { return lua_isnil(L, i); }
int morph_isnoneornil(lua_State *L, int i) { return lua_isnoneornil(L, i); }
int morph_isfunction(lua_State *L, int i) { return lua_isfunction(L, i); }
int morph_istable(lua_State *L, int i) { return lua_istable(L, i); }
void morph_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
void morph_remove(lua_State *L, int i) { lua_remove(L, i); }
void morph_insert(lua_State *L, int i) { lua_insert(L, i); }
void morph_replace(lua_State *L, int i) { lua_replace(L, i); }
void *morph_newuserdata(lua_State *L, size_t n) { return lua_newuserdatauv(L, n, 1); }
int morph_getmetatable(lua_State *L, const char *name) { return luaL_getmetatable(L, name); }
int morph_registryindex(void) { return LUA_REGISTRYINDEX; }
void **morph_extraspace(lua_State *L) { return (void **)lua_getextraspace(L); }

/* Raw field access: never runs a metamethod, so never raises from Lua code. */
int morph_rawgetfield(lua_State *L, int idx, const char *k) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, k);
  return lua_rawget(L, idx);
}

void morph_rawsetfield(lua_State *L, int idx, const char *k) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, k);
  lua_insert(L, -2);
  lua_rawset(L, idx);
}
