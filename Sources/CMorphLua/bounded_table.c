/*
 * table.insert, remove, move, concat, unpack and sort for the sandbox,
 * written for morphhost from the reference manual (§6.6). Their loops run in
 * C, where the count hook never looks, and a plugin can make them as long as
 * it likes (a __len of math.maxinteger, a range of 1e15, a C function as
 * __index): every element moved, read or compared costs one unit of the
 * call's budget (morph_tick). Results and error messages are those of Lua's
 * own library, which the differential tests check
 * (Tests/MorphScriptTests/DifferentialTests.swift). table.pack has no loop
 * to bound and stays Lua's.
 */
#include "internal.h"

#include <limits.h>

/* What a value that is not a table must offer, through its metatable, to
   stand for one. */
enum { NEEDS_INDEX = 1, NEEDS_NEWINDEX = 2, NEEDS_LEN = 4 };

/* Lua 5.4.5 names position 2 in table.remove's error; 5.4.4 named the table. */
#if LUA_VERSION_RELEASE_NUM >= 50405
#define REMOVE_POSITION_ARG 2
#else
#define REMOVE_POSITION_ARG 1
#endif

/* The metamethods behind each NEEDS_ bit, bit k naming entry k. */
static const char *const needed_metamethods[] = {"__index", "__newindex", "__len"};

/* [-0, +0, v] Raises Lua's "table expected" error unless argument `arg` is
   a table, or a value whose metatable holds (raw) every metamethod `needs`
   names. */
static void require_tablelike(lua_State *L, int arg, int needs) {
  if (lua_type(L, arg) == LUA_TTABLE) return;
  int offers = lua_getmetatable(L, arg);
  if (offers) {
    for (int k = 0; offers && k < 3; k++) {
      if (!(needs & (1 << k))) continue;
      lua_pushstring(L, needed_metamethods[k]);
      offers = lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 1);
    }
    lua_pop(L, 1); /* the metatable */
  }
  if (!offers) luaL_checktype(L, arg, LUA_TTABLE);
}

/* [-0, +0, e] The length of argument 1 (its __len if any), after checking
   it offers `needs` as well as a length. */
static lua_Integer checked_length(lua_State *L, int needs) {
  require_tablelike(L, 1, needs | NEEDS_LEN);
  return luaL_len(L, 1);
}

/* [-0, +0, e] t[to] = t[from], for the table at argument 1. */
static void copy_element(lua_State *L, lua_Integer from, lua_Integer to) {
  morph_tick(L);
  lua_geti(L, 1, from);
  lua_seti(L, 1, to);
}

/* [-0, +0, e] Moves the empty slot `hole` of the table at argument 1 to
   `target`, one element at a time: each element between them slides one
   place into the hole, and the hole takes its place. */
static void move_hole(lua_State *L, lua_Integer hole, lua_Integer target) {
  lua_Integer step = hole < target ? 1 : -1;
  while (hole != target) {
    copy_element(L, hole + step, hole);
    hole += step;
  }
}

/* Whether 1 <= pos <= last, compared unsigned so that nothing overflows:
   a `last` that wrapped to minint (a length of maxint plus one) admits
   every positive position. */
static int position_within(lua_Integer pos, lua_Integer last) {
  return (lua_Unsigned)pos - 1u < (lua_Unsigned)last;
}

/* table.insert(t, [pos,] value): the value always sits on top. */
static int bounded_insert(lua_State *L) {
  int nargs = lua_gettop(L);
  lua_Integer len = checked_length(L, NEEDS_INDEX | NEEDS_NEWINDEX);
  lua_Integer append_at = (lua_Integer)((lua_Unsigned)len + 1u); /* wraps, as Lua's does */
  if (nargs != 2 && nargs != 3) return luaL_error(L, "wrong number of arguments to 'insert'");
  lua_Integer at = append_at;
  if (nargs == 3) {
    at = luaL_checkinteger(L, 2);
    luaL_argcheck(L, position_within(at, append_at), 2, "position out of bounds");
    if (at < append_at) move_hole(L, append_at, at); /* t[at..len] one place up */
  }
  lua_seti(L, 1, at);
  return 0;
}

/* table.remove(t [, pos]) */
static int bounded_remove(lua_State *L) {
  lua_Integer len = checked_length(L, NEEDS_INDEX | NEEDS_NEWINDEX);
  int given = !lua_isnoneornil(L, 2);
  lua_Integer hole = given ? luaL_checkinteger(L, 2) : len;
  /* any position equal to the length goes; others must be in [1, len + 1]
     (unsigned, so a length of -1 admits any) */
  int fits = hole == len || (lua_Unsigned)hole - 1u <= (lua_Unsigned)len;
  luaL_argcheck(L, fits, REMOVE_POSITION_ARG, "position out of bounds");
  lua_geti(L, 1, hole); /* the result */
  if (hole < len) {
    move_hole(L, hole, len); /* t[hole+1..len] one place down */
    hole = len;
  }
  lua_pushnil(L);
  lua_seti(L, 1, hole);
  return 1;
}

/* table.move(a1, f, e, t [, a2]) */
static int bounded_move(lua_State *L) {
  lua_Integer first = luaL_checkinteger(L, 2);
  lua_Integer last = luaL_checkinteger(L, 3);
  lua_Integer to = luaL_checkinteger(L, 4);
  int dest = lua_isnoneornil(L, 5) ? 1 : 5;
  require_tablelike(L, 1, NEEDS_INDEX);
  require_tablelike(L, dest, NEEDS_NEWINDEX);
  if (last >= first) {
    luaL_argcheck(L, first > 0 || last < LUA_MAXINTEGER + first, 3, "too many elements to move");
    lua_Integer count = last - first + 1;
    luaL_argcheck(L, to <= LUA_MAXINTEGER - count + 1, 4, "destination wrap around");
    /* Backwards only when the ranges overlap in the same table with the
       destination after the source; forwards suits rehashing better. */
    int overlap = to > first && to <= last && (dest == 1 || lua_compare(L, 1, dest, LUA_OPEQ));
    for (lua_Integer k = 0; k < count; k++) {
      lua_Integer i = overlap ? count - 1 - k : k;
      morph_tick(L);
      lua_geti(L, 1, first + i);
      lua_seti(L, dest, to + i);
    }
  }
  lua_pushvalue(L, dest);
  return 1;
}

/* [-0, +0, e] Adds t[i] (a string or a number) to b. */
static void add_element(lua_State *L, luaL_Buffer *b, lua_Integer i) {
  morph_tick(L);
  lua_geti(L, 1, i);
  if (!lua_isstring(L, -1))
    luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1),
               (LUAI_UACINT)i);
  luaL_addvalue(b);
}

/* table.concat(t [, sep [, i [, j]]]) */
static int bounded_concat(lua_State *L) {
  lua_Integer last = checked_length(L, NEEDS_INDEX);
  size_t seplen;
  const char *sep = luaL_optlstring(L, 2, "", &seplen);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  last = luaL_optinteger(L, 4, last);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (i <= last) {
    /* counted from i up to last without i + 1 ever passing maxinteger */
    for (; i < last; i++) {
      add_element(L, &b, i);
      luaL_addlstring(&b, sep, seplen);
    }
    add_element(L, &b, last);
  }
  luaL_pushresult(&b);
  return 1;
}

/* [-0, +0, v] How many values t[first..last] are (none when first > last),
   after making room for them on the stack; raises when they cannot fit. */
static int room_for_range(lua_State *L, lua_Integer first, lua_Integer last) {
  if (first > last) return 0;
  lua_Unsigned extra = (lua_Unsigned)last - (lua_Unsigned)first; /* values past the first */
  if (extra < (lua_Unsigned)INT_MAX && lua_checkstack(L, (int)extra + 1)) return (int)extra + 1;
  return luaL_error(L, "too many results to unpack");
}

/* table.unpack(t [, i [, j]]) */
static int bounded_unpack(lua_State *L) {
  lua_Integer first = luaL_optinteger(L, 2, 1);
  lua_Integer last = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
  int count = room_for_range(L, first, last);
  /* counted down to the last, so that no index passes it */
  for (int left = count; left > 0; left--) {
    morph_tick(L);
    lua_geti(L, 1, last - (lua_Integer)(left - 1));
  }
  return count;
}

/* ------------------------------------------------------------ table.sort */

/* Quicksort with the median of three as pivot (Sedgewick): the partition
   runs two cursors toward each other, and a cursor that would leave its
   half means the order function is not a strict order, which is the error
   Lua reports. Elements are read and written through t[i] (metamethods
   included); values being compared sit on the stack.

   Lua's sort is this same published algorithm, so the comparisons come in
   the same order: even an inconsistent comparator leaves the same table and
   raises "invalid order function for sorting" exactly where Lua's does (the
   differential tests compare them as they are). The one place they part:
   after a badly lopsided partition of 100 elements or more, Lua varies its
   pivots by the clock and this sort by a fixed sequence; a consistent order
   still sorts, an inconsistent one still ends, with the same elements. */

typedef unsigned int sort_pos;

/* [-0, +0, e] Whether the value at stack index a sorts before the one at b. */
static int sorts_before(lua_State *L, int a, int b) {
  morph_tick(L);
  if (lua_isnil(L, 2)) return lua_compare(L, a, b, LUA_OPLT);
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, a);
  lua_pushvalue(L, b);
  lua_call(L, 2, 1);
  int before = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return before;
}

static void push_element(lua_State *L, sort_pos i) { lua_geti(L, 1, (lua_Integer)i); }

/* [-2, +0, e] t[i] = the value on top, t[j] = the one below it. */
static void store_two(lua_State *L, sort_pos i, sort_pos j) {
  lua_seti(L, 1, (lua_Integer)i);
  lua_seti(L, 1, (lua_Integer)j);
}

static void bad_order(lua_State *L) { luaL_error(L, "invalid order function for sorting"); }

/* [-1, +0, e] Splits [lo, up] around the pivot P on the stack, which is
   also at up - 1 (with t[lo] <= P <= t[up]), and returns P's final place:
   nothing before it sorts after P, nothing after it before P. One loop,
   two phases: `rising` moves the low cursor up past elements before P,
   then the high cursor moves down past elements after P; if they have not
   crossed, the two elements they stopped at change places and the low
   cursor rises again. A cursor that would leave its half means the order
   function is not a strict order. */
static sort_pos partition(lua_State *L, sort_pos lo, sort_pos up) {
  sort_pos low = lo, high = up - 1;
  int rising = 1;
  for (;;) {
    if (rising) {
      push_element(L, ++low); /* stack: P, t[low] */
      if (!sorts_before(L, -1, -2)) {
        rising = 0; /* t[low] stays on the stack */
        continue;
      }
      if (low == up - 1) bad_order(L); /* P before itself */
    } else {
      push_element(L, --high); /* stack: P, t[low], t[high] */
      if (sorts_before(L, -3, -1)) {
        if (high < low) bad_order(L); /* crossed, yet still after P */
      } else if (high < low) {
        lua_pop(L, 1);             /* t[high] */
        store_two(L, up - 1, low); /* t[up - 1] = t[low], t[low] = P */
        return low;
      } else {
        store_two(L, low, high); /* exchange t[low] and t[high] */
        rising = 1;
        continue;
      }
    }
    lua_pop(L, 1); /* the element just passed */
  }
}

/* A pivot place in the middle half of [lo, up], varied by `spread`. */
static sort_pos middle_half_pivot(sort_pos lo, sort_pos up, unsigned spread) {
  sort_pos quarter = (up - lo) / 4;
  return lo + quarter + spread % (quarter * 2);
}

/* [-0, +0, e] Exchanges t[lo] and t[up] when t[up] sorts before t[lo]. */
static void order_ends(lua_State *L, sort_pos lo, sort_pos up) {
  push_element(L, lo);
  push_element(L, up);
  if (sorts_before(L, -1, -2))
    store_two(L, lo, up);
  else
    lua_pop(L, 2);
}

/* [-0, +0, e] With the ends ordered, makes t[mid] the median of the three:
   it changes places with t[lo] when it sorts before that, else with t[up]
   when that sorts before it. */
static void order_middle(lua_State *L, sort_pos lo, sort_pos mid, sort_pos up) {
  push_element(L, mid);
  push_element(L, lo);
  int below_low = sorts_before(L, -2, -1);
  if (!below_low) {
    lua_pop(L, 1);
    push_element(L, up); /* stack: t[mid], t[up] */
  }
  if (below_low || sorts_before(L, -1, -2))
    store_two(L, mid, below_low ? lo : up);
  else
    lua_pop(L, 2);
}

/* [-0, +1, e] Moves the pivot t[mid] to up - 1 (t[up - 1] takes its place)
   and leaves a copy of it on the stack. */
static void set_pivot_aside(lua_State *L, sort_pos mid, sort_pos up) {
  push_element(L, mid);
  lua_pushvalue(L, -1);
  push_element(L, up - 1);
  store_two(L, mid, up - 1);
}

/* A range of t still to sort, with the spread its pivots use. */
typedef struct sort_task {
  sort_pos lo, up;
  unsigned spread;
} sort_task;

/* [-0, +0, e] Sorts t[1..n], without recursion: ranges still to sort wait on a stack
   of tasks. Each split pushes its larger part, then its smaller part, so
   the smaller is finished first and the stack holds at most one waiting
   part per halving (log2(n) of them). When a split comes out very
   lopsided, the larger part's pivots are taken at varying places in its
   middle half (fixed ones can be made to go quadratic). */
static void sort_all(lua_State *L, sort_pos n) {
  sort_task tasks[2 * CHAR_BIT * sizeof(sort_pos)];
  int waiting = 0;
  tasks[waiting++] = (sort_task){1, n, 0};
  while (waiting > 0) {
    sort_task task = tasks[--waiting];
    sort_pos lo = task.lo, up = task.up;
    if (lo >= up) continue;
    order_ends(L, lo, up);
    if (up - lo < 2) continue; /* two elements, now in order */
    int fixed = up - lo < 100 || task.spread == 0;
    sort_pos mid = fixed ? lo + (up - lo) / 2 : middle_half_pivot(lo, up, task.spread);
    order_middle(L, lo, mid, up);
    if (up - lo < 3) continue; /* three, now in order */
    set_pivot_aside(L, mid, up);
    sort_pos p = partition(L, lo, up);
    int lower_smaller = p - lo < up - p;
    sort_task smaller = lower_smaller ? (sort_task){lo, p - 1, task.spread}
                                      : (sort_task){p + 1, up, task.spread};
    sort_task larger = lower_smaller ? (sort_task){p + 1, up, task.spread}
                                     : (sort_task){lo, p - 1, task.spread};
    sort_pos smaller_size = lower_smaller ? p - lo : up - p;
    sort_pos span = larger.up - larger.lo;
    if (span / 128 > smaller_size) larger.spread = task.spread * 1103515245u + 12345u + span;
    tasks[waiting++] = larger;
    tasks[waiting++] = smaller;
  }
}

/* table.sort(t [, comp]) */
static int bounded_sort(lua_State *L) {
  lua_Integer n = checked_length(L, NEEDS_INDEX | NEEDS_NEWINDEX);
  if (n > 1) {
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    sort_all(L, (sort_pos)n);
  }
  return 0;
}

void morph_openbounded_table(lua_State *L) {
  static const luaL_Reg bounded[] = {
      {"concat", bounded_concat}, {"insert", bounded_insert}, {"unpack", bounded_unpack},
      {"remove", bounded_remove}, {"move", bounded_move},     {"sort", bounded_sort},
      {NULL, NULL},
  };
  lua_getglobal(L, "table");
  luaL_setfuncs(L, bounded, 0);
  lua_pop(L, 1);
}
