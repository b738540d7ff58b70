#ifndef MORPH_CLUA_SHIM_H
#define MORPH_CLUA_SHIM_H
/*
 * The C side of morphhost's Lua layer.
 *
 * Swift cannot import Lua's function-like macros, and a Lua error must never
 * longjmp across Swift frames. So:
 *  - macros get static inline wrappers (morph_pcall, morph_pop, ...);
 *  - Swift host functions are plain C-callable functions that return a result
 *    count, or MORPH_RAISE after pushing an error message; the trampoline
 *    below (C) is what actually calls lua_error;
 *  - limits (memory cap, instruction budget, wall clock) live in C, in the
 *    allocator's userdata, so the allocator and the count hook can see them.
 */
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MORPH_RAISE (-1)

/* ---------------------------------------------------------------- limits */

typedef struct morph_limits {
  size_t used;          /* bytes currently allocated by this state */
  size_t cap;           /* 0 = no cap */
  int in_host;          /* > 0 while Swift runs (host functions, set-up): no
                           cap, so an allocation never fails under Swift */
  long long budget;     /* instructions allowed per call; 0 = none */
  long long spent;      /* instructions counted since the last reset */
  double deadline;      /* monotonic seconds; 0 = none */
  double wall_limit;    /* seconds allowed per call (for the message) */
  int stopped;          /* set when a limit fired, for the Swift side */
} morph_limits;

static inline double morph_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Lua's allocator contract, with a cap. Host functions may overshoot the cap
   (their allocations must not fail mid-Swift); the trampoline checks after. */
static inline void *morph_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  morph_limits *lim = (morph_limits *)ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    lim->used -= old;
    return NULL;
  }
  if (lim->cap && !lim->in_host && nsize > old && lim->used - old + nsize > lim->cap) {
    return NULL;
  }
  void *p = realloc(ptr, nsize);
  if (p) lim->used = lim->used - old + nsize;
  return p;
}

static inline morph_limits *morph_getlimits(lua_State *L) {
  void *ud = NULL;
  lua_getallocf(L, &ud);
  return (morph_limits *)ud;
}

#define MORPH_HOOK_EVERY 1000

static inline void morph_counthook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  morph_limits *lim = morph_getlimits(L);
  lim->spent += MORPH_HOOK_EVERY;
  int over_budget = lim->budget > 0 && lim->spent > lim->budget;
  int over_time = lim->deadline > 0 && morph_now() > lim->deadline;
  if (over_budget || over_time) {
    lim->stopped = 1;
    luaL_error(L, "plugin exceeded its time budget (%lld instructions or %.0f ms)",
               lim->budget, lim->wall_limit * 1000.0);
  }
}

/* Creates a state whose allocator enforces `lim`, with the count hook set. */
static inline lua_State *morph_newstate(morph_limits *lim) {
  lim->in_host = 1; /* Swift owns the state until it calls into Lua */
  lua_State *L = lua_newstate(morph_alloc, lim);
  if (L) lua_sethook(L, morph_counthook, LUA_MASKCOUNT, MORPH_HOOK_EVERY);
  return L;
}

/* Starts a fresh budget for one call from the host. */
static inline void morph_resetbudget(lua_State *L) {
  morph_limits *lim = morph_getlimits(L);
  lim->spent = 0;
  lim->stopped = 0;
  lim->deadline = lim->wall_limit > 0 ? morph_now() + lim->wall_limit : 0;
}

/* ------------------------------------------------------------ trampoline */

typedef int (*morph_hostfn)(lua_State *L);

/* Calls the Swift function in upvalue 1; raises from C when it asks to. */
static inline int morph_trampoline(lua_State *L) {
  morph_hostfn fn = (morph_hostfn)(uintptr_t)lua_touserdata(L, lua_upvalueindex(1));
  morph_limits *lim = morph_getlimits(L);
  lim->in_host++;
  int n = fn(L);
  lim->in_host--;
  if (n == MORPH_RAISE) {
    /* Like luaL_error: prefix the caller's position to a string message. */
    if (lua_type(L, -1) == LUA_TSTRING) {
      luaL_where(L, 1);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  if (lim->cap && lim->in_host == 0 && lim->used > lim->cap) {
    lua_gc(L, LUA_GCCOLLECT);
    if (lim->used > lim->cap) {
      lua_pushliteral(L, "not enough memory");
      return lua_error(L);
    }
  }
  return n;
}

/* Pushes a Swift host function with `nup` extra upvalues (already on the
   stack); inside the function they are upvalues 2...nup+1. */
static inline void morph_pushhostfn(lua_State *L, morph_hostfn fn, int nup) {
  lua_pushlightuserdata(L, (void *)(uintptr_t)fn);
  lua_insert(L, -(nup + 1));
  lua_pushcclosure(L, morph_trampoline, nup + 1);
}

static inline int morph_upvalueindex(int i) { return lua_upvalueindex(i + 1); }

/* Message handler for protected calls: message plus traceback. Keeps the
   plain message at the front so the Swift side can parse "chunk:line:". */
static inline int morph_msgh(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
      msg = lua_tostring(L, -1);
    } else {
      msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* lua_pcall with morph_msgh underneath the function; returns the status.
   On error the stack holds "message\nstack traceback:..." */
static inline int morph_pcall(lua_State *L, int nargs, int nresults) {
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, morph_msgh);
  lua_insert(L, base);
  morph_limits *lim = morph_getlimits(L);
  lim->in_host--;
  int status = lua_pcall(L, nargs, nresults, base);
  lim->in_host++;
  lua_remove(L, base);
  return status;
}

/* --------------------------------------------------------- macro wrappers */

static inline void morph_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void morph_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *morph_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
static inline lua_Number morph_tonumber(lua_State *L, int i) { return lua_tonumber(L, i); }
static inline lua_Integer morph_tointeger(lua_State *L, int i) { return lua_tointeger(L, i); }
static inline int morph_isnil(lua_State *L, int i) { return lua_isnil(L, i); }
static inline int morph_isnoneornil(lua_State *L, int i) { return lua_isnoneornil(L, i); }
static inline int morph_isfunction(lua_State *L, int i) { return lua_isfunction(L, i); }
static inline int morph_istable(lua_State *L, int i) { return lua_istable(L, i); }
static inline void morph_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline void morph_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void morph_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void morph_replace(lua_State *L, int i) { lua_replace(L, i); }
static inline void *morph_newuserdata(lua_State *L, size_t n) { return lua_newuserdatauv(L, n, 1); }
static inline int morph_getmetatable(lua_State *L, const char *name) { return luaL_getmetatable(L, name); }
static inline int morph_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void **morph_extraspace(lua_State *L) { return (void **)lua_getextraspace(L); }

/* Raw field access: never runs a metamethod, so never raises from Lua code. */
static inline int morph_rawgetfield(lua_State *L, int idx, const char *k) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, k);
  return lua_rawget(L, idx);
}
static inline void morph_rawsetfield(lua_State *L, int idx, const char *k) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, k);
  lua_insert(L, -2);
  lua_rawset(L, idx);
}

/* Loads a text chunk only; binary chunks are refused by mode "t". */
static inline int morph_loadtext(lua_State *L, const char *code, size_t len, const char *name) {
  return luaL_loadbufferx(L, code, len, name, "t");
}

#endif
