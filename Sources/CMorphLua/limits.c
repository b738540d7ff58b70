/* The memory cap, the instruction budget and the wall clock of a state. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Lua's allocator contract, with a cap. Host functions may overshoot the cap
   (their allocations must not fail mid-Swift); the trampoline checks after. */
static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
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

morph_limits *morph_getlimits(lua_State *L) {
  void *ud = NULL;
  lua_getallocf(L, &ud);
  return (morph_limits *)ud;
}

static int past_limits(const morph_limits *lim) {
  int over_budget = lim->budget > 0 && lim->spent > lim->budget;
  int over_time = lim->deadline > 0 && now() > lim->deadline;
  return over_budget || over_time || __atomic_load_n(&lim->cancel, __ATOMIC_RELAXED);
}

/* Why a call past its limits stops. */
static int stop_reason(const morph_limits *lim) {
  return __atomic_load_n(&lim->cancel, __ATOMIC_RELAXED) ? MORPH_STOP_CANCEL : MORPH_STOP_BUDGET;
}

void morph_cancel(morph_limits *lim) { __atomic_store_n(&lim->cancel, 1, __ATOMIC_RELAXED); }

/* Coroutines the count hook raised in, as keys of a weak table. */
static const char hookraised_key = 'h';

/* [-0, +0, m] */
static void mark_hookraised(lua_State *L) {
  if (lua_pushthread(L)) { /* the main thread: pcall restores its hooks */
    lua_pop(L, 1);
    return;
  }
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &hookraised_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &hookraised_key);
  }
  lua_insert(L, -2);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

int morph_hookraisedin(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &hookraised_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    return 0;
  }
  lua_pushvalue(L, idx);
  int raised = lua_rawget(L, -2) != LUA_TNIL;
  lua_pop(L, 2);
  return raised;
}

static void counthook(lua_State *L, lua_Debug *ar);

/* Whether the hooked function is the host's own Lua (trusted, bounded). */
static int is_host_lua(lua_State *L, lua_Debug *ar) {
  lua_getinfo(L, "S", ar);
  return strncmp(ar->source, "=morph.", 7) == 0;
}

void morph_stop(lua_State *L, int why) {
  morph_limits *lim = morph_getlimits(L);
  if (lim->stopped == MORPH_RUNNING) lim->stopped = why;
  lua_sethook(L, counthook, LUA_MASKCOUNT, 1);
}

void morph_pushbudgetmessage(lua_State *L) {
  const morph_limits *lim = morph_getlimits(L);
  char text[160];
  snprintf(text, sizeof text, "plugin exceeded its time budget (%lld instructions or %.15g ms per call)",
           lim->budget, lim->wall_limit * 1000.0);
  lua_pushstring(L, text);
}

void morph_pushstopmessage(lua_State *L) {
  int stopped = morph_getlimits(L)->stopped;
  if (stopped == MORPH_STOP_MEMORY) {
    lua_pushliteral(L, "not enough memory");
  } else if (stopped == MORPH_STOP_CANCEL) {
    lua_pushliteral(L, "stopped: the host was asked to quit");
  } else {
    morph_pushbudgetmessage(L);
  }
}

void morph_where(lua_State *L, int level) {
  lua_Debug ar;
  for (; lua_getstack(L, level, &ar); level++) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0 && strncmp(ar.source, "=morph.", 7) != 0) {
      lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
      return;
    }
  }
  lua_pushliteral(L, "");
}

/* [-0, +0, v] Raises the stop in force, blamed on the plugin's line at or
   above `level`. The message is built outside the cap: it must not fail for
   lack of memory. */
static int raise_stop(lua_State *L, int level) {
  morph_limits *lim = morph_getlimits(L);
  lim->in_host++;
  morph_where(L, level);
  morph_pushstopmessage(L);
  lua_concat(L, 2);
  lim->in_host--;
  return lua_error(L);
}

/* While nothing is stopped: counts instructions and checks the limits every
   MORPH_HOOK_EVERY instructions. Once something is: fires at every
   instruction of every thread it reaches and raises again, so no pcall,
   error handler, __close or coroutine can keep running. */
/* Notes the plugin line running now while the heap is within a quarter of its cap. The
   allocator refuses with no position (Lua raises "not enough memory" without one, and
   the allocator cannot walk the stack safely: it runs mid-reallocation), so this is
   where such a refusal is placed: within MORPH_HOOK_EVERY instructions of it, in the
   file (an import's own) whose code filled the heap. Only a state near its cap pays. */
static void note_near_cap(lua_State *L, morph_limits *lim) {
  if (!lim->cap || lim->used < lim->cap - lim->cap / 4) return;
  lua_Debug ar;
  for (int level = 0; lua_getstack(L, level, &ar); level++) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0 && strncmp(ar.source, "=morph.", 7) != 0) {
      snprintf(lim->near_cap, sizeof lim->near_cap, "%s:%d: ", ar.short_src, ar.currentline);
      return;
    }
  }
}

const char *morph_nearcap(lua_State *L) { return morph_getlimits(L)->near_cap; }

static void counthook(lua_State *L, lua_Debug *ar) {
  morph_limits *lim = morph_getlimits(L);
  if (lim->stopped == MORPH_RUNNING) {
    int count = lua_gethookcount(L);
    lim->spent += count;
    if (count != MORPH_HOOK_EVERY) lua_sethook(L, counthook, LUA_MASKCOUNT, MORPH_HOOK_EVERY);
    note_near_cap(L, lim);
    if (!past_limits(lim)) return;
  } else if (is_host_lua(L, ar)) {
    return; /* the host's own Lua restores its state, then raises the stop again */
  }
  morph_stop(L, stop_reason(lim));
  lim->in_host++;
  mark_hookraised(L);
  lim->in_host--;
  /* Level 0 is the hooked function: a hook has no frame of its own. */
  raise_stop(L, 0);
}

void morph_spend(lua_State *L, long long n) {
  morph_limits *lim = morph_getlimits(L);
  lim->spent += n;
  if (lim->stopped == MORPH_RUNNING && !past_limits(lim)) return;
  morph_stop(L, stop_reason(lim));
  raise_stop(L, 1);
}

int morph_fits(lua_State *L, size_t bytes) {
  morph_limits *lim = morph_getlimits(L);
  if (lim->cap == 0 || (bytes <= lim->cap && lim->used <= lim->cap - bytes)) return 1;
  lua_gc(L, LUA_GCCOLLECT);
  return bytes <= lim->cap && lim->used <= lim->cap - bytes;
}

void morph_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }

int morph_charge(lua_State *L, long long delta) {
  morph_limits *lim = morph_getlimits(L);
  if (delta < 0) {
    size_t release = (size_t)(-delta);
    lim->used -= release < lim->used ? release : lim->used;
    return 1;
  }
  if (!morph_fits(L, (size_t)delta)) return 0;
  lim->used += (size_t)delta;
  return 1;
}

lua_State *morph_newstate(morph_limits *lim) {
  lim->in_host = 1; /* Swift owns the state until it calls into Lua */
  lua_State *L = lua_newstate(capped_alloc, lim);
  if (L) lua_sethook(L, counthook, LUA_MASKCOUNT, MORPH_HOOK_EVERY);
  return L;
}

void morph_resetbudget(lua_State *L) {
  morph_limits *lim = morph_getlimits(L);
  lim->spent = 0;
  lim->ticks = 0;
  lim->stopped = MORPH_RUNNING;
  lim->near_cap[0] = 0;
  lim->deadline = lim->wall_limit > 0 ? now() + lim->wall_limit : 0;
  lua_sethook(L, counthook, LUA_MASKCOUNT, MORPH_HOOK_EVERY);
}
