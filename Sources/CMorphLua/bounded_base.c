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

/* [-n, +0, -] Moves the n values on top of L onto `co`, when it has room
   for them; otherwise leaves them and pushes why not. Returns whether
   they went. */
static int pass_arguments(lua_State *L, lua_State *co, int n) {
  int room = lua_checkstack(co, n);
  if (room)
    lua_xmove(L, co, n);
  else
    lua_pushliteral(L, "too many arguments to resume");
  return room;
}

/* [-0, +(n|1), -] Moves the n values `co` yielded or returned onto L, when
   L has room for them and one more; otherwise drops them and pushes why
   not. Returns whether they came. */
static int collect_results(lua_State *L, lua_State *co, int n) {
  int room = lua_checkstack(L, n + 1);
  if (room) {
    lua_xmove(co, L, n);
  } else {
    lua_pop(co, n);
    lua_pushliteral(L, "too many results to resume");
  }
  return room;
}

/* [-n, +(r|1), v] Resumes `co` with the n values on top of L. Returns 1
   with what it yielded or returned on L (*count of them), or 0 with one
   error value on L. A stop inside the coroutine is raised again here. */
static int resume_into(lua_State *L, lua_State *co, int n, int *count) {
  if (!pass_arguments(L, co, n)) return 0;
  int status = lua_resume(co, L, n, count);
  if (status == LUA_OK || status == LUA_YIELD) return collect_results(L, co, *count);
  lua_xmove(co, L, 1); /* the error */
  if (stopped_by(L, status)) lua_error(L);
  return 0;
}

static int bounded_resume(lua_State *L) {
  lua_State *co = coroutine_arg(L);
  int count;
  int ok = resume_into(L, co, lua_gettop(L) - 1, &count);
  if (!ok) count = 1; /* the error */
  lua_pushboolean(L, ok);
  lua_insert(L, -(count + 1)); /* before the values */
  return count + 1;
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

/* [-1, +0, v] Raises, from a wrapped coroutine's function, the error value
   on top of L that resuming the coroutine `co` (upvalue 1) ended with. When
   the error came from inside the coroutine, the coroutine is closed first
   and the close's error is raised instead. A string error is prefixed with
   this caller's position, unless memory ran out. */
static int raise_wrapped_error(lua_State *L, lua_State *co) {
  int status = lua_status(co);
  int died = status != LUA_OK && status != LUA_YIELD;
  if (died) {
    lua_pushvalue(L, lua_upvalueindex(1));
    status = close_pending(L, co, -1); /* pushes the error to raise */
    lua_replace(L, -3);                /* over the one the resume gave */
    lua_pop(L, 1);                     /* the coroutine */
  }
  int with_position = status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING;
  if (with_position) {
    luaL_where(L, 1);
    lua_rotate(L, -2, 1);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

/* The function coroutine.wrap returns: the coroutine's values, or its
   error raised. */
static int resume_wrapped(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  int count;
  return resume_into(L, co, lua_gettop(L), &count) ? count : raise_wrapped_error(L, co);
}

/* [-0, +1, v] A new coroutine whose body is argument 1 (a function). It
   gets L's hook, so the budget reaches it. */
static lua_State *push_new_coroutine(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_State *co = lua_newthread(L);
  lua_rotate(L, 1, 1); /* the thread below its body */
  lua_xmove(L, co, 1);
  return co;
}

static int bounded_create(lua_State *L) {
  push_new_coroutine(L);
  return 1;
}

static int bounded_wrap(lua_State *L) {
  push_new_coroutine(L);
  lua_pushcclosure(L, resume_wrapped, 1);
  return 1;
}

/* The states coroutine.status names. */
typedef enum { CO_RUNNING, CO_SUSPENDED, CO_NORMAL, CO_DEAD } coroutine_state;

static const char *const state_names[] = {"running", "suspended", "normal", "dead"};

/* [-0, +0, -] What coroutine.status would say of `co`, seen from L. */
static coroutine_state state_of(lua_State *L, lua_State *co) {
  int status = lua_status(co);
  if (status == LUA_YIELD) return CO_SUSPENDED;
  if (status != LUA_OK) return CO_DEAD; /* it ended with an error */
  if (co == L) return CO_RUNNING;
  lua_Debug frame;
  if (lua_getstack(co, 0, &frame)) return CO_NORMAL; /* it resumed another */
  /* no frame: its body waits to start, or it has returned */
  return lua_gettop(co) > 0 ? CO_SUSPENDED : CO_DEAD;
}

static int bounded_close(lua_State *L) {
  lua_State *co = coroutine_arg(L);
  coroutine_state state = state_of(L, co);
  if (state == CO_RUNNING || state == CO_NORMAL)
    return luaL_error(L, "cannot close a %s coroutine", state_names[state]);
  lua_pushboolean(L, 0); /* the answer when the close fails */
  if (close_pending(L, co, 1) != LUA_OK) return 2; /* false, the error */
  lua_pushboolean(L, 1);
  return 1;
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
