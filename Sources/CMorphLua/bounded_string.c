/*
 * string.rep, find, match, gmatch and gsub for the sandbox, written for
 * morphhost from the reference manual (§6.4, §6.4.1): their C loops never
 * reach the count hook, so their work is charged to the call's budget (every
 * step of the matcher, every copy of string.rep), and a backtracking pattern
 * (".-.-.-b", "a?a?...aaa...b", a 2 MB pattern of '.') ends with the budget.
 * Results and error messages are those of Lua's own library, which the
 * differential tests check (Tests/MorphScriptTests/DifferentialTests.swift).
 */
#include "lua_pattern.h"

#include <limits.h>
#include <string.h>

/* The longest string string.rep makes: Lua's limit (it fits in an int). */
#define REP_MAX ((size_t)INT_MAX)

/* A 1-based, maybe negative, start position as a 0-based offset: negative
   counts from the end, 0 and anything before the start mean the start. The
   result can be past the end (the caller decides what that means). */
static size_t start_offset(lua_Integer pos, size_t len) {
  if (pos > 0) return (size_t)pos - 1;
  if (pos == 0 || pos < -(lua_Integer)len) return 0;
  return len - (size_t)(-pos);
}

/* ------------------------------------------------------------ string.rep */

static int bounded_rep(lua_State *L) {
  size_t len, seplen;
  const char *s = luaL_checklstring(L, 1, &len);
  lua_Integer n = luaL_checkinteger(L, 2);
  const char *sep = luaL_optlstring(L, 3, "", &seplen);
  size_t unit = len + seplen; /* one copy and the separator after it */
  if (n <= 0 || unit == 0) {
    lua_pushliteral(L, ""); /* nothing, however many times */
    return 1;
  }
  if (unit < len || unit > REP_MAX / (lua_Unsigned)n) return luaL_error(L, "resulting string too large");
  size_t total = (size_t)n * unit - seplen; /* no separator after the last copy */
  luaL_Buffer b;
  char *out = luaL_buffinitsize(L, &b, total);
  /* One copy with its separator, then the filled part copied onto the rest,
     doubling each time; each copy made costs one unit of the budget. */
  size_t done = len < total ? len : total;
  memcpy(out, s, done);
  if (done < total) {
    memcpy(out + done, sep, seplen);
    done += seplen;
  }
  while (done < total) {
    size_t chunk = total - done < done ? total - done : done;
    memcpy(out + done, out, chunk);
    done += chunk;
    morph_spend(L, (long long)(chunk / unit) + 1);
  }
  luaL_pushresultsize(&b, total);
  return 1;
}

/* -------------------------------------------------------------- captures */

/* [-0, +1, v] Pushes value i of the match [s, e): a capture's text, a
   position capture's 1-based position, or, when the pattern has no
   captures, the whole match for i = 0. Raises for any other index and for
   a capture still open. */
static void push_one(morph_match *m, int i, const char *s, const char *e) {
  lua_State *L = m->L;
  if (i < m->ncap) {
    const char *at = m->cap[i].start;
    switch (m->cap[i].len) {
      case MORPH_CAP_POSITION: lua_pushinteger(L, (lua_Integer)(at - m->subject) + 1); return;
      case MORPH_CAP_OPEN: luaL_error(L, "unfinished capture"); return;
      default: lua_pushlstring(L, at, (size_t)m->cap[i].len); return;
    }
  }
  if (i > 0) luaL_error(L, "invalid capture index %%%d", i + 1);
  lua_pushlstring(L, s, (size_t)(e - s));
}

/* [-0, +n, v] Pushes the values a match yields: its captures, or, when
   there are none and `s` is given, the match [s, e) itself; returns n. */
static int push_all(morph_match *m, const char *s, const char *e) {
  int whole = m->ncap == 0 && s != NULL;
  int n = whole ? 1 : m->ncap;
  luaL_checkstack(m->L, n, "too many captures");
  if (whole) {
    lua_pushlstring(m->L, s, (size_t)(e - s));
  } else {
    for (int i = 0; i < n; i++) push_one(m, i, s, e);
  }
  return n;
}

/* --------------------------------------------------------------- scanner */

/* Whether a match can only start where the subject has byte *p: the
   pattern opens with an ordinary byte that must appear once or more. Lets
   the search skip other places with memchr (where the matcher would fail
   at once, raising nothing). */
static int opens_with_byte(const char *p, const char *pend) {
  if (p == pend || strchr("^$*+?.([%-)", *p) != NULL || *p == 0) return 0;
  return !(p + 1 < pend && (p[1] == '*' || p[1] == '?' || p[1] == '-'));
}

/* Successive matches of one pattern over one subject, as find, match,
   gmatch and gsub all walk them: each match starts at or after the cursor,
   and an empty match may not end where the previous match ended. */
typedef struct scanner {
  morph_match m;
  const char *pattern;  /* without a '^' that anchors */
  const char *cursor;   /* the first place the next match may start */
  const char *prev_end; /* where the previous match ended, or NULL */
  int lead;             /* the byte every match starts with, or -1 */
  int anchored;         /* only the cursor itself, and only once */
  int finished;         /* nothing more to find */
} scanner;

/* [-0, +0, v] Prepares `sc` to scan s from offset `start` (past the end:
   nothing to find). With `anchors`, a leading '^' ties the one match to
   the start; without, '^' is an ordinary byte (as in gmatch). */
static void scanner_init(scanner *sc, lua_State *L, const char *s, size_t slen, const char *p,
                         size_t plen, size_t start, int anchors) {
  sc->anchored = anchors && plen > 0 && p[0] == '^';
  if (sc->anchored) {
    p++;
    plen--;
  }
  morph_match_init(&sc->m, L, s, slen, p, plen);
  sc->pattern = p;
  sc->finished = start > slen;
  sc->cursor = sc->finished ? s + slen : s + start;
  sc->prev_end = NULL;
  sc->lead = !sc->anchored && opens_with_byte(p, p + plen) ? (unsigned char)p[0] : -1;
}

/* [-0, +0, v] Finds the next match, setting [*from, *to) and moving the
   cursor to its end; returns 0 (and stays finished) when there is none. */
static int next_match(scanner *sc, const char **from, const char **to) {
  const char *end = sc->m.subject_end;
  const char *at = sc->cursor;
  while (!sc->finished) {
    if (sc->lead >= 0) {
      at = at < end ? memchr(at, sc->lead, (size_t)(end - at)) : NULL;
      if (at == NULL) break;
    }
    sc->m.ncap = 0;
    const char *stop = morph_match_at(&sc->m, at, sc->pattern);
    if (stop != NULL && stop != sc->prev_end) {
      *from = at;
      *to = sc->cursor = sc->prev_end = stop;
      sc->finished = sc->anchored;
      return 1;
    }
    if (sc->anchored || at == end) break;
    at++;
  }
  sc->finished = 1;
  return 0;
}

/* ---------------------------------------------------- string.find, match */

/* Whether p holds none of the bytes that make a pattern more than text. */
static int is_plain_text(const char *p, size_t len) {
  static const char magic[] = "^$*+?.([%-";
  for (size_t i = 0; i < len; i++)
    if (p[i] != 0 && strchr(magic, p[i]) != NULL) return 0;
  return 1;
}

/* [-0, +0, v] The first place at or after `from` where the `nlen` bytes of `needle`
   occur, or NULL. Compares at every place whose first byte fits, and
   charges each comparison. */
static const char *find_text(lua_State *L, const char *from, const char *end, const char *needle,
                             size_t nlen) {
  if (nlen == 0) return from;
  if ((size_t)(end - from) < nlen) return NULL;
  const char *last = end - nlen; /* the last place it could start */
  morph_limits *lim = morph_getlimits(L);
  while (from <= last) {
    const char *hit = memchr(from, needle[0], (size_t)(last - from) + 1);
    if (hit == NULL) return NULL;
    if ((lim->ticks += (long long)nlen) >= MORPH_TICK_EVERY) {
      long long due = lim->ticks;
      lim->ticks = 0;
      morph_spend(L, due);
    }
    if (memcmp(hit + 1, needle + 1, nlen - 1) == 0) return hit;
    from = hit + 1;
  }
  return NULL;
}

/* The arguments find and match share: subject, pattern, and where to start
   (a 0-based offset, maybe past the end). */
typedef struct search_args {
  const char *s, *p;
  size_t slen, plen, start;
} search_args;

/* [-0, +0, v] Reads arguments 1 to 3; returns 0 when init is past the end
   of the subject (where neither function looks at all). */
static int read_search_args(lua_State *L, search_args *a) {
  a->s = luaL_checklstring(L, 1, &a->slen);
  a->p = luaL_checklstring(L, 2, &a->plen);
  a->start = start_offset(luaL_optinteger(L, 3, 1), a->slen);
  return a->start <= a->slen;
}

/* [-0, +0, v] The first match of the pattern from init on, with '^'
   anchoring it there; returns 0 for none. */
static int search_from_init(lua_State *L, const search_args *a, scanner *sc, const char **from,
                            const char **to) {
  scanner_init(sc, L, a->s, a->slen, a->p, a->plen, a->start, 1);
  return next_match(sc, from, to);
}

/* [-0, +2, -] Pushes the 1-based positions of the bytes [from, to) of s. */
static int push_span(lua_State *L, const char *s, const char *from, const char *to) {
  lua_pushinteger(L, (lua_Integer)(from - s) + 1);
  lua_pushinteger(L, (lua_Integer)(to - s));
  return 2;
}

static int bounded_find(lua_State *L) {
  search_args a;
  const char *from, *to;
  if (read_search_args(L, &a)) {
    if (lua_toboolean(L, 4) || is_plain_text(a.p, a.plen)) {
      from = find_text(L, a.s + a.start, a.s + a.slen, a.p, a.plen);
      if (from != NULL) return push_span(L, a.s, from, from + a.plen);
    } else {
      scanner sc;
      if (search_from_init(L, &a, &sc, &from, &to))
        return push_span(L, a.s, from, to) + push_all(&sc.m, NULL, NULL);
    }
  }
  luaL_pushfail(L);
  return 1;
}

static int bounded_match(lua_State *L) {
  search_args a;
  scanner sc;
  const char *from, *to;
  if (read_search_args(L, &a) && search_from_init(L, &a, &sc, &from, &to))
    return push_all(&sc.m, from, to);
  luaL_pushfail(L);
  return 1;
}

/* ----------------------------------------------------------- string.gmatch */

/* The iterator: upvalue 3 is its scanner, upvalues 1 and 2 the subject and
   the pattern it points into (kept alive with it). */
static int gmatch_step(lua_State *L) {
  scanner *sc = (scanner *)lua_touserdata(L, lua_upvalueindex(3));
  const char *from, *to;
  sc->m.L = L; /* the iterator may run in another coroutine */
  return next_match(sc, &from, &to) ? push_all(&sc->m, from, to) : 0;
}

/* gmatch never anchors: a leading '^' is an ordinary byte. */
static int bounded_gmatch(lua_State *L) {
  size_t slen, plen;
  const char *s = luaL_checklstring(L, 1, &slen);
  const char *p = luaL_checklstring(L, 2, &plen);
  size_t start = start_offset(luaL_optinteger(L, 3, 1), slen);
  lua_settop(L, 2);
  scanner *sc = (scanner *)lua_newuserdatauv(L, sizeof *sc, 0);
  scanner_init(sc, L, s, slen, p, plen, start, 0);
  lua_pushcclosure(L, gmatch_step, 3);
  return 1;
}

/* ------------------------------------------------------------ string.gsub */

/* [-0, +0, v] Appends one '%' escape of a replacement string: `c` is the
   byte after the '%' (0 when the '%' ends the string). */
static void expand_escape(morph_match *m, luaL_Buffer *b, int c, const char *s, const char *e) {
  if (c == '%') {
    luaL_addchar(b, '%');
  } else if (c >= '0' && c <= '9') {
    /* "%0" is the match itself, whatever the captures */
    if (c == '0') {
      luaL_addlstring(b, s, (size_t)(e - s));
    } else {
      push_one(m, c - '1', s, e);
      luaL_addvalue(b); /* a position is added as its digits */
    }
  } else {
    luaL_error(m->L, "invalid use of '%c' in replacement string", '%');
  }
}

/* [-0, +0, v] Appends the replacement string t for the match [s, e),
   walking it as literal runs and escapes. */
static void expand_template(morph_match *m, luaL_Buffer *b, const char *t, size_t tlen,
                            const char *s, const char *e) {
  enum { LITERAL, AFTER_PERCENT } state = LITERAL;
  const char *run = t; /* literal bytes not yet appended start here */
  morph_match_charge(m, (long long)tlen);
  for (const char *c = t, *tend = t + tlen; c < tend; c++) {
    switch (state) {
      case LITERAL:
        if (*c == '%') {
          luaL_addlstring(b, run, (size_t)(c - run));
          state = AFTER_PERCENT;
        }
        break;
      case AFTER_PERCENT:
        expand_escape(m, b, (unsigned char)*c, s, e);
        run = c + 1;
        state = LITERAL;
        break;
    }
  }
  if (state == AFTER_PERCENT)
    expand_escape(m, b, 0, s, e); /* a '%' at the very end */
  else
    luaL_addlstring(b, run, (size_t)(t + tlen - run));
}

/* [-0, +0, e] Appends what replaces the match [s, e), as argument 3 (of
   type `kind`) says; returns 1 when that is new text, 0 when a false or
   nil result keeps the match. */
static int substitute(morph_match *m, luaL_Buffer *b, int kind, const char *s, const char *e) {
  lua_State *L = m->L;
  switch (kind) {
    case LUA_TTABLE:
      push_one(m, 0, s, e);
      lua_gettable(L, 3);
      break;
    case LUA_TFUNCTION: {
      lua_pushvalue(L, 3);
      int nargs = push_all(m, s, e);
      lua_call(L, nargs, 1);
      break;
    }
    default: { /* a string or a number */
      size_t tlen;
      const char *t = lua_tolstring(L, 3, &tlen);
      expand_template(m, b, t, tlen, s, e);
      return 1;
    }
  }
  if (lua_isstring(L, -1)) {
    luaL_addvalue(b);
    return 1;
  }
  if (lua_toboolean(L, -1))
    return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  lua_pop(L, 1);
  luaL_addlstring(b, s, (size_t)(e - s));
  return 0;
}

static int bounded_gsub(lua_State *L) {
  size_t slen, plen;
  const char *s = luaL_checklstring(L, 1, &slen);
  const char *p = luaL_checklstring(L, 2, &plen);
  int kind = lua_type(L, 3);
  lua_Integer limit = luaL_optinteger(L, 4, (lua_Integer)slen + 1);
  luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION ||
                          kind == LUA_TTABLE,
                   3, "string/function/table");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  scanner sc;
  scanner_init(&sc, L, s, slen, p, plen, 0, 1);
  /* The subject's bytes between matches are appended a gap at a time. */
  const char *kept = s, *from, *to;
  lua_Integer done = 0;
  int rewritten = 0;
  while (done < limit && next_match(&sc, &from, &to)) {
    luaL_addlstring(&b, kept, (size_t)(from - kept));
    rewritten |= substitute(&sc.m, &b, kind, from, to);
    kept = to;
    done++;
  }
  if (!rewritten) {
    lua_pushvalue(L, 1); /* the subject itself */
  } else {
    luaL_addlstring(&b, kept, (size_t)(s + slen - kept));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, done);
  return 2;
}

void morph_openbounded_string(lua_State *L) {
  static const luaL_Reg bounded[] = {
      {"rep", bounded_rep},       {"find", bounded_find}, {"match", bounded_match},
      {"gmatch", bounded_gmatch}, {"gsub", bounded_gsub}, {NULL, NULL},
  };
  lua_getglobal(L, "string");
  luaL_setfuncs(L, bounded, 0);
  lua_pop(L, 1);
}
