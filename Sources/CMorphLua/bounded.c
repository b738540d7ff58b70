/* The bounded library, installed over Lua's own (see bounded_*.c). */
#include "internal.h"

/* The Lua 5.4 releases morphhost is built and tested against. The bounded
   library matches their string and table libraries result for result (the
   differential tests check the one linked); a release outside the range may
   differ in wording or behaviour, so it must be tried and added here first. */
#if LUA_VERSION_NUM != 504 || LUA_VERSION_RELEASE_NUM < MORPH_LUA_OLDEST || \
    LUA_VERSION_RELEASE_NUM > MORPH_LUA_NEWEST
#error "morphhost needs Lua 5.4.4 to 5.4.8 (pkg-config lua5.4 found another release)"
#endif

int morph_lua_release(void) { return LUA_VERSION_RELEASE_NUM; }

void morph_openbounded(lua_State *L) {
  morph_openbounded_string(L);
  morph_openbounded_table(L);
  morph_openbounded_base(L);
}
