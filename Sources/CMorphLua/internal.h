#ifndef MORPH_LUA_INTERNAL_H
#define MORPH_LUA_INTERNAL_H
/* What the C files of CMorphLua share, and Swift never sees. */
#include "morph_lua.h"

/* Instructions between two runs of the count hook while nothing is stopped. */
#define MORPH_HOOK_EVERY 1000

/* Units of C work between two calls of morph_spend in bounded loops. */
#define MORPH_TICK_EVERY 1024

/* [-0, +1, m] Like luaL_where, from `level` up, but skipping the host's own
   Lua (chunks named "=morph.*") and C: errors and stops are the plugin's
   doing, so they name the plugin's line (as support.lua's raise does). */
void morph_where(lua_State *L, int level);

/* [-0, +1, m] Pushes the message of the time budget, as plugins see it. */
void morph_pushbudgetmessage(lua_State *L);

/* [-0, +1, m] Pushes the message of the stop in force ("plugin exceeded its
   time budget (...)" or "not enough memory"). */
void morph_pushstopmessage(lua_State *L);

/* [-0, +0, m] Whether the count hook ever raised inside the coroutine at idx: Lua leaves such
   a coroutine with hooks off, so its __close handlers must never run. */
int morph_hookraisedin(lua_State *L, int idx);

/* One unit of C work in a bounded loop: charges the budget every
   MORPH_TICK_EVERY units. [-0, +0, v] */
static inline void morph_tick(lua_State *L) {
  morph_limits *lim = morph_getlimits(L);
  if (++lim->ticks >= MORPH_TICK_EVERY) {
    lim->ticks = 0;
    morph_spend(L, MORPH_TICK_EVERY);
  }
}

/* Installers of the bounded library parts (morph_openbounded calls them). */
void morph_openbounded_string(lua_State *L);
void morph_openbounded_table(lua_State *L);
void morph_openbounded_base(lua_State *L);

#endif
