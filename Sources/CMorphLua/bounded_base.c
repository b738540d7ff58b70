/*
 * pcall, xpcall and coroutine.create/resume/wrap/close for the sandbox,
 * written for morphhost from the reference manual (§6.1, §6.2) so that a
 * stopped call stays stopped: a stop (budget, clock, memory, cancel) is raised
 * again instead of returned, an error handler is skipped once the call is
 * stopped, and a coroutine the count hook raised in (Lua leaves it with hooks
 * off) never runs its __close handlers. Otherwise they answer as Lua's own.
 */
#include "internal.h"

/* [-0, +0, -] Whether the call is stopped, counting a memory error (status
   LUA_ERRMEM) as a stop, as the budget is. */
static int stopped_by(lua_State *L, int status) {
  if (status == LUA_ERRMEM) morph_stop(L, MORPH_STOP_MEMORY);
  return morph_getlimits(L)->stopped != MORPH_RUNNING;
}

/* ------------------------------------------------------- pcall, xpcall */

/* What pcall and xpcall return once the protected call is over (they call it
   directly, or Lua calls this as the continuation after a yield). `below`
   counts the values under `true` and the results that are not results. */
static int protected_outcome(lua_State *L, int status, lua_KContext below) {
  if (status == LUA_OK || status == LUA_YIELD) return lua_gettop(L) - (int)below;
  if (stopped_by(L, status)) return lua_error(L); /* the stop, raised again */
  lua_pushboolean(L, 0);
  lua_insert(L, -2);
  return 2; /* false, the error */
}

static int bounded_pcall(lua_State *L) {
  luaL_checkany(L, 1);
  int nargs = lua_gettop(L) - 1;
  lua_pushboolean(L, 1); /* the first result on success */
  lua_insert(L, 1);
  return protected_outcome(L, lua_pcallk(L, nargs, LUA_MULTRET, 0, 0, protected_outcome), 0);
}

/* The message handler xpcall installs: the plugin's, unless the call is
   stopped (Lua would run it with hooks off, where nothing could stop it). */
static int handler_unless_stopped(lua_State *L) {
  if (morph_getlimits(L)->stopped != MORPH_RUNNING) return 1; /* the stop as it is */
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

/* Stack while it runs: 1 the function, 2 the guarded handler, 3 true, 4 the
   function again, then the arguments. */
static int bounded_xpcall(lua_State *L) {
  int nargs = lua_gettop(L) - 2;
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, handler_unless_stopped, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2); /* true and the function go below the arguments */
  return protected_outcome(L, lua_pcallk(L, nargs, LUA_MULTRET, 2, 2, protected_outcome), 2);
}

/* ---------------------------------------------------------- coroutines */

/* [-0, +0, v] Argument 1 as a coroutine. */
static lua_State *coroutine_arg(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co != NULL, 1, "thread");
  return co;
}

/* [-n, +r, v] Hands the n values on top of L to `co` and resumes it. Returns
   how many values it yielded or returned (now on L), or -1 with an error
   message on L. A stop inside the coroutine is raised again here. */
static int resume_with(lua_State *L, lua_State *co, int n) {
  if (!lua_checkstack(co, n)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  lua_xmove(L, co, n);
  int nresults;
  int status = lua_resume(co, L, n, &nresults);
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_xmove(co, L, 1); /* the error */
    if (stopped_by(L, status)) lua_error(L);
    return -1;
  }
  if (!lua_checkstack(L, nresults + 1)) {
    lua_pop(co, nresults);
    lua_pushliteral(L, "too many results to resume");
    return -1;
  }
  lua_xmove(co, L, nresults);
  return nresults;
}

static int bounded_resume(lua_State *L) {
  lua_State *co = coroutine_arg(L);
  int n = resume_with(L, co, lua_gettop(L) - 1);
  lua_pushboolean(L, n >= 0);
  if (n < 0) {
    lua_insert(L, -2);
    return 2; /* false, the error */
  }
  lua_insert(L, -(n + 1));
  return n + 1; /* true, the values */
}

/* [-0, +(0|1), -] Closes the pending to-be-closed variables of a dead or
   suspended coroutine (at stack index co_index of L), unless the count hook
   raised in it. Returns the status; on error the error is pushed on L. */
static int close_pending(lua_State *L, lua_State *co, int co_index) {
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

/* The function coroutine.wrap returns: resumes the coroutine (upvalue 1)
   and returns its values, or raises its error, after closing it when the
   error happened inside it; a string error gets this caller's position. */
static int resume_wrapped(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  int n = resume_with(L, co, lua_gettop(L));
  if (n >= 0) return n;
  int status = lua_status(co);
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pop(L, 1); /* the error comes back from the close */
    lua_pushvalue(L, lua_upvalueindex(1));
    status = close_pending(L, co, -1);
    lua_remove(L, -2);
  }
  if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

static int bounded_create(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *co = lua_newthread(L); /* with L's hook: the budget reaches it */
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  return 1;
}

static int bounded_wrap(lua_State *L) {
  bounded_create(L);
  lua_pushcclosure(L, resume_wrapped, 1);
  return 1;
}

/* What coroutine.status says of `co`, seen from L. */
static const char *coroutine_state(lua_State *L, lua_State *co) {
  if (co == L) return "running";
  int status = lua_status(co);
  if (status == LUA_YIELD) return "suspended";
  if (status != LUA_OK) return "dead"; /* it ended with an error */
  lua_Debug frame;
  if (lua_getstack(co, 0, &frame)) return "normal"; /* it resumed another */
  return lua_gettop(co) == 0 ? "dead" : "suspended"; /* finished, or not started */
}

static int bounded_close(lua_State *L) {
  lua_State *co = coroutine_arg(L);
  const char *state = coroutine_state(L, co);
  if (state[0] != 'd' && state[0] != 's') return luaL_error(L, "cannot close a %s coroutine", state);
  int status = close_pending(L, co, 1);
  lua_pushboolean(L, status == LUA_OK);
  if (status == LUA_OK) return 1;
  lua_insert(L, -2);
  return 2; /* false, the error */
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
      {"create", bounded_create}, {"resume", bounded_resume}, {"wrap", bounded_wrap},
      {"close", bounded_close},   {NULL, NULL},
  };
  lua_getglobal(L, "coroutine");
  luaL_setfuncs(L, coroutine, 0);
  lua_pop(L, 1);
}
