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

#include <ctype.h>
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

/* Pushes capture i of the match [s, e): its text, or its position for "()";
   with no captures, i = 0 is the whole match. Raises for an index past the
   captures and for a capture never closed. */
static void push_capture(morph_match *m, int i, const char *s, const char *e) {
  if (i >= m->ncap) {
    if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
    lua_pushlstring(m->L, s, (size_t)(e - s));
    return;
  }
  ptrdiff_t len = m->cap[i].len;
  if (len == MORPH_CAP_OPEN) luaL_error(m->L, "unfinished capture");
  if (len == MORPH_CAP_POSITION)
    lua_pushinteger(m->L, (lua_Integer)(m->cap[i].start - m->subject) + 1);
  else
    lua_pushlstring(m->L, m->cap[i].start, (size_t)len);
}

/* Pushes every capture, or the whole match [s, e) when there is none and s
   is not NULL; returns how many values. */
static int push_captures(morph_match *m, const char *s, const char *e) {
  int n = m->ncap == 0 && s != NULL ? 1 : m->ncap;
  luaL_checkstack(m->L, n, "too many captures");
  for (int i = 0; i < n; i++) push_capture(m, i, s, e);
  return n;
}

/* ---------------------------------------------------- string.find, match */

/* Whether p holds none of the bytes that make a pattern more than text. */
static int is_plain_text(const char *p, size_t len) {
  static const char magic[] = "^$*+?.([%-";
  for (size_t i = 0; i < len; i++)
    if (p[i] != 0 && strchr(magic, p[i]) != NULL) return 0;
  return 1;
}

/* The first place at or after `from` where the `nlen` bytes of `needle`
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

/* Whether a match can only start where the subject has byte *p: the
   pattern opens with an ordinary byte that must appear once or more. Lets
   the search skip other places with memchr (where Lua's matcher would fail
   at once, raising nothing). */
static int opens_with_byte(const char *p, const char *pend) {
  if (p == pend || strchr("^$*+?.([%-)", *p) != NULL || *p == 0) return 0;
  return !(p + 1 < pend && (p[1] == '*' || p[1] == '?' || p[1] == '-'));
}

static int find_or_match(lua_State *L, int find) {
  size_t slen, plen;
  const char *s = luaL_checklstring(L, 1, &slen);
  const char *p = luaL_checklstring(L, 2, &plen);
  size_t start = start_offset(luaL_optinteger(L, 3, 1), slen);
  if (start > slen) {
    luaL_pushfail(L);
    return 1;
  }
  if (find && (lua_toboolean(L, 4) || is_plain_text(p, plen))) {
    const char *at = find_text(L, s + start, s + slen, p, plen);
    if (at == NULL) {
      luaL_pushfail(L);
      return 1;
    }
    lua_pushinteger(L, (lua_Integer)(at - s) + 1);
    lua_pushinteger(L, (lua_Integer)(at - s + (ptrdiff_t)plen));
    return 2;
  }
  int anchored = plen > 0 && *p == '^';
  if (anchored) {
    p++;
    plen--;
  }
  morph_match m;
  morph_match_init(&m, L, s, slen, p, plen);
  const char *send = s + slen;
  int skip = !anchored && opens_with_byte(p, p + plen);
  for (const char *at = s + start;; at++) {
    if (skip) {
      at = at < send ? memchr(at, *p, (size_t)(send - at)) : NULL;
      if (at == NULL) break;
    }
    m.ncap = 0;
    const char *e = morph_match_at(&m, at, p);
    if (e != NULL) {
      if (!find) return push_captures(&m, at, e);
      lua_pushinteger(L, (lua_Integer)(at - s) + 1);
      lua_pushinteger(L, (lua_Integer)(e - s));
      return 2 + push_captures(&m, NULL, NULL);
    }
    if (anchored || at >= send) break;
  }
  luaL_pushfail(L);
  return 1;
}

static int bounded_find(lua_State *L) { return find_or_match(L, 1); }

static int bounded_match(lua_State *L) { return find_or_match(L, 0); }

/* ----------------------------------------------------------- string.gmatch */

/* The iterator's state, a userdata kept with the subject and the pattern
   (upvalues 1 and 2, so the pointers stay valid). */
typedef struct gmatch_state {
  const char *next;      /* where the next search starts */
  const char *last_end;  /* where the last match ended (no empty match there) */
  const char *pattern;
  int skip;              /* opens_with_byte(pattern) */
  morph_match m;
} gmatch_state;

static int gmatch_next(lua_State *L) {
  gmatch_state *g = (gmatch_state *)lua_touserdata(L, lua_upvalueindex(3));
  g->m.L = L; /* the iterator may run in another coroutine */
  const char *send = g->m.subject_end;
  for (const char *at = g->next; at <= send; at++) {
    if (g->skip && (at == send || (at = memchr(at, *g->pattern, (size_t)(send - at))) == NULL))
      return 0;
    g->m.ncap = 0;
    const char *e = morph_match_at(&g->m, at, g->pattern);
    if (e != NULL && e != g->last_end) {
      g->next = g->last_end = e;
      return push_captures(&g->m, at, e);
    }
  }
  return 0;
}

/* A '^' at the start is an ordinary byte here: gmatch never anchors. */
static int bounded_gmatch(lua_State *L) {
  size_t slen, plen;
  const char *s = luaL_checklstring(L, 1, &slen);
  const char *p = luaL_checklstring(L, 2, &plen);
  size_t start = start_offset(luaL_optinteger(L, 3, 1), slen);
  if (start > slen) start = slen + 1; /* nothing to find, and no overflow */
  lua_settop(L, 2);
  gmatch_state *g = (gmatch_state *)lua_newuserdatauv(L, sizeof *g, 0);
  morph_match_init(&g->m, L, s, slen, p, plen);
  g->next = s + start;
  g->last_end = NULL;
  g->pattern = p;
  g->skip = opens_with_byte(p, p + plen);
  lua_pushcclosure(L, gmatch_next, 3);
  return 1;
}

/* ------------------------------------------------------------ string.gsub */

/* Appends the replacement string (argument 3) for the match [s, e): "%0" is
   the match, "%1".."%9" its captures, "%%" a '%'. */
static void add_template(morph_match *m, luaL_Buffer *b, const char *s, const char *e) {
  lua_State *L = m->L;
  size_t len;
  const char *t = lua_tolstring(L, 3, &len);
  const char *tend = t + len;
  morph_match_charge(m, (long long)len);
  while (t < tend) {
    const char *esc = memchr(t, '%', (size_t)(tend - t));
    if (esc == NULL) {
      luaL_addlstring(b, t, (size_t)(tend - t));
      return;
    }
    luaL_addlstring(b, t, (size_t)(esc - t));
    int c = esc + 1 < tend ? (unsigned char)esc[1] : 0;
    if (c == '%') {
      luaL_addchar(b, '%');
    } else if (c == '0') {
      luaL_addlstring(b, s, (size_t)(e - s));
    } else if (isdigit(c)) {
      push_capture(m, c - '1', s, e);
      luaL_addvalue(b); /* a position capture is added as its digits */
    } else {
      luaL_error(L, "invalid use of '%c' in replacement string", '%');
    }
    t = esc + 2;
  }
}

/* Appends what replaces the match [s, e), as argument 3 (of type `kind`)
   says; returns whether the text changed (false or nil keeps the match). */
static int add_replacement(morph_match *m, luaL_Buffer *b, const char *s, const char *e,
                           int kind) {
  lua_State *L = m->L;
  if (kind == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    int n = push_captures(m, s, e);
    lua_call(L, n, 1);
  } else if (kind == LUA_TTABLE) {
    push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  } else {
    add_template(m, b, s, e);
    return 1;
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1))
    return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(b);
  return 1;
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
  int anchored = plen > 0 && *p == '^';
  if (anchored) {
    p++;
    plen--;
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  morph_match m;
  morph_match_init(&m, L, s, slen, p, plen);
  const char *at = s, *send = s + slen, *last_end = NULL;
  lua_Integer count = 0;
  int changed = 0;
  int skip = !anchored && opens_with_byte(p, p + plen);
  while (count < limit) {
    if (skip) { /* bytes where no match can start are copied as they are */
      const char *hit = at < send ? memchr(at, *p, (size_t)(send - at)) : NULL;
      const char *to = hit != NULL ? hit : send;
      luaL_addlstring(&b, at, (size_t)(to - at));
      at = to;
      if (at == send) break;
    }
    m.ncap = 0;
    const char *e = morph_match_at(&m, at, p);
    if (e != NULL && e != last_end) {
      count++;
      changed |= add_replacement(&m, &b, at, e, kind);
      at = last_end = e;
    } else if (at < send) {
      luaL_addchar(&b, *at++);
    } else {
      break;
    }
    if (anchored) break;
  }
  if (changed) {
    luaL_addlstring(&b, at, (size_t)(send - at));
    luaL_pushresult(&b);
  } else {
    lua_pushvalue(L, 1); /* the subject itself */
  }
  lua_pushinteger(L, count);
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
