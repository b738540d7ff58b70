/* Calls across the Swift/Lua border: host functions, protected calls, loading. */
#include "internal.h"

#include <stdint.h>
#include <string.h>

/* Calls the Swift function in upvalue 1; raises from C when it asks to, or
   when what it allocated (or charged) left the heap over the cap. */
static int trampoline(lua_State *L) {
  morph_hostfn fn = (morph_hostfn)(uintptr_t)lua_touserdata(L, lua_upvalueindex(1));
  morph_limits *lim = morph_getlimits(L);
  lim->in_host++;
  int n = fn(L);
  lim->in_host--;
  if (n == MORPH_RAISE) {
    /* Like luaL_error: prefix the caller's position to a string message. */
    if (lua_type(L, -1) == LUA_TSTRING) {
      morph_where(L, 1);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  if (lim->cap && lim->in_host == 0 && lim->used > lim->cap) {
    lua_gc(L, LUA_GCCOLLECT);
    if (lim->used > lim->cap) {
      morph_stop(L, MORPH_STOP_MEMORY);
      lim->in_host++;
      morph_where(L, 1);
      lua_pushliteral(L, "not enough memory");
      lua_concat(L, 2);
      lim->in_host--;
      return lua_error(L);
    }
  }
  return n;
}

void morph_pushhostfn(lua_State *L, morph_hostfn fn, int nup) {
  lua_pushlightuserdata(L, (void *)(uintptr_t)fn);
  lua_insert(L, -(nup + 1));
  lua_pushcclosure(L, trampoline, nup + 1);
}

int morph_upvalueindex(int i) { return lua_upvalueindex(i + 1); }

/* Message handler for protected calls: message plus traceback. Keeps the
   plain message at the front so the Swift side can parse "chunk:line:". A
   stopped call gets no __tostring: that would be plugin code running on. */
static int message_handler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (morph_getlimits(L)->stopped == MORPH_RUNNING && luaL_callmeta(L, 1, "__tostring") &&
        lua_type(L, -1) == LUA_TSTRING) {
      msg = lua_tostring(L, -1);
    } else {
      msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

int morph_pcall(lua_State *L, int nargs, int nresults) {
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, message_handler);
  lua_insert(L, base);
  morph_limits *lim = morph_getlimits(L);
  lim->in_host--;
  int status = lua_pcall(L, nargs, nresults, base);
  lim->in_host++;
  lua_remove(L, base);
  return status;
}

const char *morph_skipprefix(const char *code, size_t *len) {
  static const char bom[] = "\xEF\xBB\xBF";
  if (*len >= 3 && memcmp(code, bom, 3) == 0) {
    code += 3;
    *len -= 3;
  }
  if (*len > 0 && code[0] == '#') {
    const char *newline = memchr(code, '\n', *len);
    size_t skipped = newline ? (size_t)(newline - code) : *len;
    code += skipped;
    *len -= skipped;
  }
  return code;
}

int morph_loadtext(lua_State *L, const char *code, size_t len, const char *name) {
  morph_limits *lim = morph_getlimits(L);
  code = morph_skipprefix(code, &len);
  if (!morph_fits(L, len)) {
    lua_pushliteral(L, "not enough memory");
    return LUA_ERRMEM;
  }
  /* Compiling allocates for the plugin: under the cap, like running it. */
  int saved = lim->in_host;
  lim->in_host = 0;
  int status = luaL_loadbufferx(L, code, len, name, "t");
  if (status == LUA_OK) {
    /* [-1, +1]: the chunk again, its tail calls made ordinary (untail.c). */
    lua_pushcfunction(L, morph_untail);
    lua_insert(L, -2);
    status = lua_pcall(L, 1, 1, 0);
  }
  lim->in_host = saved;
  return status;
}
