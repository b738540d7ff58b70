#ifndef MORPH_CLUA_H
#define MORPH_CLUA_H
/* Lua 5.4's C API, found through pkg-config. morphhost's own C lives in CMorphLua. */
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>
#endif
