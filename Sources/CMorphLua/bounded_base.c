/*
 * pcall, xpcall and the coroutine functions, changed only so that a stopped
 * call stays stopped: a stop (budget, clock, memory) is raised again instead
 * of returned, an error handler is skipped once the call is stopped, and a
 * coroutine the count hook raised in (Lua leaves it with hooks off) never runs
 * its __close handlers. Otherwise they are Lua 5.4's own (lbaselib.c,
 * lcorolib.c; Copyright (C) 1994-2022 Lua.org, PUC-Rio, MIT licence).
 */
#include "internal.h"

/* A memory error (status LUA_ERRMEM) stops the call like the budget does. */
static int is_stop(lua_State *L, int status) {
  if (status == LUA_ERRMEM) morph_stop(L, MORPH_STOP_MEMORY);
  return morph_getlimits(L)->stopped != MORPH_RUNNING;
}

/* [-0, +0, v] Raises again the error object on top (a stop). */
static int rethrow(lua_State *L) { return lua_error(L); }

static int finishpcall(lua_State *L, int status, lua_KContext extra) {
  if (status != LUA_OK && status != LUA_YIELD) { /* error? */
    if (is_stop(L, status)) return rethrow(L);
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2; /* false, message */
  }
  return lua_gettop(L) - (int)extra; /* all results */
}

static int bounded_pcall(lua_State *L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1); /* first result if no errors */
  lua_insert(L, 1);
  int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finishpcall);
  return finishpcall(L, status, 0);
}

/* The handler xpcall really installs: the plugin's, unless the call is
   stopped (then Lua would run it with hooks off, where nothing stops it). */
static int guarded_handler(lua_State *L) {
  if (morph_getlimits(L)->stopped != MORPH_RUNNING) return 1; /* the message as is */
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

static int bounded_xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, guarded_handler, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1); /* first result */
  lua_pushvalue(L, 1);   /* function */
  lua_rotate(L, 3, 2);   /* move them below the function's arguments */
  int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finishpcall);
  return finishpcall(L, status, 2);
}

/* ------------------------------------------------------------ coroutines */

static lua_State *getco(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co, 1, "thread");
  return co;
}

/* Resumes `co`; returns the result count, or -1 with the error on top. A
   stop inside the coroutine is raised again in the resumer. */
static int auxresume(lua_State *L, lua_State *co, int narg) {
  int nres;
  if (!lua_checkstack(co, narg)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  lua_xmove(L, co, narg);
  int status = lua_resume(co, L, narg, &nres);
  if (status == LUA_OK || status == LUA_YIELD) {
    if (!lua_checkstack(L, nres + 1)) {
      lua_pop(co, nres);
      lua_pushliteral(L, "too many results to resume");
      return -1;
    }
    lua_xmove(co, L, nres);
    return nres;
  }
  lua_xmove(co, L, 1); /* the error */
  if (is_stop(L, status)) rethrow(L);
  return -1;
}

static int bounded_resume(lua_State *L) {
  lua_State *co = getco(L);
  int r = auxresume(L, co, lua_gettop(L) - 1);
  if (r < 0) {
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2; /* false, message */
  }
  lua_pushboolean(L, 1);
  lua_insert(L, -(r + 1));
  return r + 1;
}

/* [-0, +0, -] Closes a dead or suspended coroutine's to-be-closed variables,
   unless the count hook raised in it. Returns the status; on error the
   error object is moved to L. */
static int close_coroutine(lua_State *L, lua_State *co, int co_index) {
  if (morph_hookraisedin(L, co_index)) {
    lua_pushliteral(L, "cannot close a coroutine that a limit stopped");
    return LUA_ERRRUN;
  }
#if LUA_VERSION_RELEASE_NUM >= 50406
  int status = lua_closethread(co, L); /* 5.4.6 on: right for nested closes */
#else
  int status = lua_resetthread(co);
#endif
  if (status != LUA_OK) lua_xmove(co, L, 1);
  return status;
}

static int auxwrap(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  int r = auxresume(L, co, lua_gettop(L));
  if (r < 0) {
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD) { /* error in the coroutine? */
      lua_pop(L, 1); /* the error moves again, after closing */
      lua_pushvalue(L, lua_upvalueindex(1));
      status = close_coroutine(L, co, -1);
      lua_remove(L, -2);
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
      luaL_where(L, 1); /* add extra info, if available */
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  return r;
}

static int bounded_create(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *co = lua_newthread(L); /* inherits L's hook (lstate.c) */
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  return 1;
}

static int bounded_wrap(lua_State *L) {
  bounded_create(L);
  lua_pushcclosure(L, auxwrap, 1);
  return 1;
}

/* What coroutine.status would answer, as lcorolib.c's auxstatus. */
static const char *costatus(lua_State *L, lua_State *co) {
  if (L == co) return "running";
  switch (lua_status(co)) {
    case LUA_YIELD:
      return "suspended";
    case LUA_OK: {
      lua_Debug ar;
      if (lua_getstack(co, 0, &ar)) return "normal"; /* it has frames: it is running */
      return lua_gettop(co) == 0 ? "dead" : "suspended"; /* or not started */
    }
    default: /* some error occurred */
      return "dead";
  }
}

static int bounded_close(lua_State *L) {
  lua_State *co = getco(L);
  const char *status = costatus(L, co);
  if (status[0] != 'd' && status[0] != 's') {
    return luaL_error(L, "cannot close a %s coroutine", status);
  }
  if (close_coroutine(L, co, 1) == LUA_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_insert(L, -2);
  return 2; /* false, error */
}

/* Lua's own pcall, kept for the host's Lua (see morph_pushhostpcall). */
static const char hostpcall_key = 'p';

void morph_pushhostpcall(lua_State *L) { lua_rawgetp(L, LUA_REGISTRYINDEX, &hostpcall_key); }

void morph_openbounded_base(lua_State *L) {
  lua_getglobal(L, "pcall");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &hostpcall_key);
  lua_pushcfunction(L, bounded_pcall);
  lua_setglobal(L, "pcall");
  lua_pushcfunction(L, bounded_xpcall);
  lua_setglobal(L, "xpcall");
  static const luaL_Reg coroutine[] = {
      {"create", bounded_create},
      {"resume", bounded_resume},
      {"wrap", bounded_wrap},
      {"close", bounded_close},
      {NULL, NULL},
  };
  lua_getglobal(L, "coroutine");
  luaL_setfuncs(L, coroutine, 0);
  lua_pop(L, 1);
}
