#ifndef MORPH_LUA_PATTERN_H
#define MORPH_LUA_PATTERN_H
/*
 * morphhost's matcher for the Lua pattern language (reference manual,
 * §6.4.1), shared by string.find/match/gmatch/gsub in bounded_string.c.
 *
 * It reads the pattern text as it goes (nothing is compiled ahead): Lua
 * reports a malformed part of a pattern only when the matcher reaches it,
 * so `("b"):find("a[")` is nil, not an error, and so it is here. There is
 * no C recursion: every choice still open (a repetition that may give back
 * a character, an optional item, an open or closed capture that must be
 * undone on failure) is a frame on a small array, popped on backtracking.
 * Lua's matcher allows 200 nested calls of its recursive matcher (its
 * MAXCCALLS); the frames here are exactly those calls past the first, so a
 * pattern is "too complex" at the same point: the 200th frame.
 */
#include "internal.h"

#define MORPH_MAXCAPTURES 32 /* LUA_MAXCAPTURES */
#define MORPH_MATCH_CALLS 200 /* MAXCCALLS of Lua's matcher */

/* A capture's length while it is open, and for a position capture "()". */
#define MORPH_CAP_OPEN (-1)
#define MORPH_CAP_POSITION (-2)

typedef struct morph_match {
  lua_State *L;           /* where errors are raised and work is charged */
  morph_limits *lim;
  const char *subject;    /* the whole subject (positions count from here) */
  const char *subject_end;
  const char *pattern_end;
  int ncap;               /* captures opened so far (open or closed) */
  struct {
    const char *start;
    ptrdiff_t len;        /* a length, MORPH_CAP_OPEN or MORPH_CAP_POSITION */
  } cap[MORPH_MAXCAPTURES];
} morph_match;

/* [-0, +0, v] Prepares `m` for a subject and a pattern (without its '^'). */
void morph_match_init(morph_match *m, lua_State *L, const char *s, size_t slen,
                      const char *p, size_t plen);

/* [-0, +0, v] Matches the pattern `p` (up to m->pattern_end) at `s`,
   returning the end of the match, or NULL; captures are in m->cap. Raises
   the pattern errors Lua raises, where Lua raises them, and charges each
   step to the budget. */
const char *morph_match_at(morph_match *m, const char *s, const char *p);

/* Charges `n` units of matcher work (see morph_tick). */
static inline void morph_match_charge(morph_match *m, long long n) {
  if ((m->lim->ticks += n) >= MORPH_TICK_EVERY) {
    long long due = m->lim->ticks;
    m->lim->ticks = 0;
    morph_spend(m->L, due);
  }
}

#endif
