#ifndef MORPH_LUA_H
#define MORPH_LUA_H
/*
 * The C side of morphhost's Lua layer.
 *
 * Swift cannot import Lua's function-like macros, and a Lua error must never
 * longjmp across Swift frames. So:
 *  - macros get plain C wrappers (morph_pcall, morph_pop, ...);
 *  - Swift host functions are plain C-callable functions that return a result
 *    count, or MORPH_RAISE after pushing an error message; the trampoline
 *    (calls.c) is what actually calls lua_error;
 *  - limits (memory cap, instruction budget, wall clock) live in C, in the
 *    allocator's userdata, so the allocator, the count hook and the bounded
 *    library functions (bounded_*.c) can all see them.
 *
 * Each function's stack effect is written as in Lua's manual, [-o, +p, x]:
 * pops o values, pushes p; x is '-' (never raises), 'm' (only memory errors),
 * 'v' (raises on purpose) or 'e' (may raise any error).
 */
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>
#include <stddef.h>

#define MORPH_RAISE (-1)

/* The Lua releases morphhost supports, as LUA_VERSION_RELEASE_NUM: 5.4.4 to
   5.4.8. The C target refuses to compile against any other (bounded.c). */
#define MORPH_LUA_OLDEST 50404
#define MORPH_LUA_NEWEST 50408

/* [-0, +0, -] The release of the Lua headers this was built with
   (LUA_VERSION_RELEASE_NUM, e.g. 50404 for 5.4.4). */
int morph_lua_release(void);

/* ---------------------------------------------------------------- limits */

/* Why a call was stopped: set once, sticky until the host's next call. */
enum { MORPH_RUNNING = 0, MORPH_STOP_BUDGET = 1, MORPH_STOP_MEMORY = 2, MORPH_STOP_CANCEL = 3 };

typedef struct morph_limits {
  size_t used;       /* bytes allocated by this state, plus bytes charged by host objects */
  size_t cap;        /* 0 = no cap */
  int in_host;       /* > 0 while Swift runs (host functions, set-up): no cap,
                        so an allocation never fails under Swift */
  long long budget;  /* instructions allowed per call; 0 = none */
  long long spent;   /* instructions counted since the last reset */
  double deadline;   /* monotonic seconds; 0 = none */
  double wall_limit; /* seconds allowed per call (for the message) */
  int stopped;       /* MORPH_STOP_*: a limit fired in this call */
  long long ticks;   /* C work not yet charged to `spent` (see morph_spend) */
  volatile int cancel; /* set from another thread (morph_cancel): stop at once */
  char near_cap[160]; /* "file:line: " of the plugin line last running while the heap
                         was near its cap (see morph_nearcap); "" when none */
} morph_limits;

/* [-0, +0, -] Where the plugin was running the last time the count hook saw its heap
   near the cap ("file:line: "), or "": what a memory error raised by the allocator,
   which carries no position, is placed at. Cleared at each call's start. */
const char *morph_nearcap(lua_State *L);

/* [-0, +0, -] Asks the state to stop what it runs (the user quit): the next
   count hook or charged C loop stops the call, as a limit would. Safe from
   any thread; it stays set (the host is on its way out). */
void morph_cancel(morph_limits *lim);

/* [-0, +0, -] Creates a state whose allocator enforces `lim`, with the count
   hook set; NULL when out of memory. Swift owns it (in_host = 1) until it
   calls into Lua. */
lua_State *morph_newstate(morph_limits *lim);

/* [-0, +0, -] The limits of L's state. */
morph_limits *morph_getlimits(lua_State *L);

/* [-0, +0, -] Starts a fresh budget for one call from the host: clears a
   stop and sets the hook of L (the main thread) back to its normal pace. */
void morph_resetbudget(lua_State *L);

/* [-0, +0, v] Counts `n` units of work done in C as instructions; raises the
   budget error (and makes it sticky) once the budget or the deadline is past.
   For library functions whose loops the count hook cannot see. */
void morph_spend(lua_State *L, long long n);

/* [-0, +0, -] Charges `delta` bytes held outside Lua's heap (host objects)
   to the state's memory account. A positive charge that would go past the
   cap, even after a full collection, is refused: returns 0 and charges
   nothing. Returns 1 otherwise. Call from host functions only. */
int morph_charge(lua_State *L, long long delta);

/* [-0, +0, -] Whether `bytes` more would still fit under the cap (after a
   full collection if needed). Charges nothing. */
int morph_fits(lua_State *L, size_t bytes);

/* [-0, +0, -] A full collection. After a call that ran out of memory, its
   garbage fills the heap; the next call must not start there (a refusal at
   its first allocation, before the hook notes a line, would have no place). */
void morph_collect(lua_State *L);

/* [-0, +0, -] Records that a limit fired (`why`, a MORPH_STOP_*) unless one
   already did, and makes L's hook fire at every instruction from now on, so
   no handler can run on. */
void morph_stop(lua_State *L, int why);

/* ----------------------------------------------------------------- calls */

typedef int (*morph_hostfn)(lua_State *L);

/* [-nup, +1, m] Pushes the Swift host function `fn` with `nup` extra upvalues
   (already on the stack); inside `fn` they are upvalues 2...nup+1, found
   with morph_upvalueindex. */
void morph_pushhostfn(lua_State *L, morph_hostfn fn, int nup);

/* [-0, +0, -] The pseudo-index of a host function's i-th own upvalue. */
int morph_upvalueindex(int i);

/* [-(nargs + 1), +(nresults | 1), -] lua_pcall with a message handler that
   appends a traceback; returns the status. On error the stack holds
   "message\nstack traceback:...". Lua code runs under the cap (in_host is
   lowered for the call). */
int morph_pcall(lua_State *L, int nargs, int nresults);

/* [-0, +1, m] Compiles a text chunk (binary chunks are refused) as
   luaL_loadfile would: a UTF-8 byte-order mark is skipped, and a first line
   starting with '#' (a shebang) is read as an empty line, so line numbers
   stay right. Its tail calls are ordinary calls (morph_untail). Returns
   Lua's status; on error pushes the message. */
int morph_loadtext(lua_State *L, const char *code, size_t len, const char *name);

/* [-1, +1, m] lua_CFunction: the Lua function given, compiled again with
   each tail call an ordinary call (so an error in the callee still names the
   caller's line), sharing the original's upvalues; the function itself when
   it is C or its dump is not as expected. morph_loadtext applies it to
   every chunk; the sandbox to chunks from `load` and `morph.import`. */
int morph_untail(lua_State *L);

/* [-0, +0, -] What luaL_loadfile skips before compiling, and
   morph_loadtext too: a UTF-8 byte-order mark, then a first line starting
   with '#' (its newline stays, so line numbers hold). Returns where the
   chunk starts and shortens *len to match. */
const char *morph_skipprefix(const char *code, size_t *len);

/* ------------------------------------------------------ bounded library */

/* [-0, +0, e] Replaces, in the global tables, every library function whose C
   loop the count hook cannot interrupt with a bounded copy that charges its
   work to the budget (string.rep/find/match/gmatch/gsub, table.*), and the
   functions that could swallow a stop (pcall, xpcall, coroutine.*) with ones
   that let it through. Call once, after luaL_openlibs. */
void morph_openbounded(lua_State *L);

/* [-0, +1, -] Pushes Lua's own pcall, which returns a stop like any error:
   for the host's own Lua (chunks named "=morph.*"), which the count hook
   lets finish after a stop, so that it can restore its state before it
   raises the stop again. Plugins never see it. */
void morph_pushhostpcall(lua_State *L);

/* --------------------------------------------------------- macro wrappers */

/* [-n, +0, -] */
void morph_pop(lua_State *L, int n);
/* [-0, +1, m] */
void morph_newtable(lua_State *L);
/* [-0, +0, m] */
const char *morph_tostring(lua_State *L, int i);
/* [-0, +0, -] */
lua_Number morph_tonumber(lua_State *L, int i);
/* [-0, +0, -] */
lua_Integer morph_tointeger(lua_State *L, int i);
/* [-0, +0, -] */
int morph_isnil(lua_State *L, int i);
/* [-0, +0, -] */
int morph_isnoneornil(lua_State *L, int i);
/* [-0, +0, -] */
int morph_isfunction(lua_State *L, int i);
/* [-0, +0, -] */
int morph_istable(lua_State *L, int i);
/* [-0, +1, -] */
void morph_pushglobaltable(lua_State *L);
/* [-1, +0, -] */
void morph_remove(lua_State *L, int i);
/* [-1, +1, -] */
void morph_insert(lua_State *L, int i);
/* [-1, +0, -] */
void morph_replace(lua_State *L, int i);
/* [-0, +1, m] A full userdata of n bytes with one user value. */
void *morph_newuserdata(lua_State *L, size_t n);
/* [-0, +1, m] */
int morph_getmetatable(lua_State *L, const char *name);
/* [-0, +0, -] */
int morph_registryindex(void);
/* [-0, +0, -] */
void **morph_extraspace(lua_State *L);
/* [-0, +1, m] t[k] without metamethods, for the table at idx; returns the type. */
int morph_rawgetfield(lua_State *L, int idx, const char *k);
/* [-1, +0, m] t[k] = v (the value on top) without metamethods. */
void morph_rawsetfield(lua_State *L, int idx, const char *k);

#endif
