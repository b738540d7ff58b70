/* The bounded library, installed over Lua's own (see bounded_*.c). */
#include "internal.h"

void morph_openbounded(lua_State *L) {
  morph_openbounded_string(L);
  morph_openbounded_table(L);
  morph_openbounded_base(L);
}
