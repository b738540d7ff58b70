/*
 * The Lua pattern language (reference manual §6.4.1), matched without C
 * recursion. See lua_pattern.h for the shape of the matcher and why it reads
 * the pattern as it goes.
 *
 * A pattern is a sequence of items; the matcher keeps a position in the
 * subject (`s`) and one in the pattern (`p`) and walks forward while items
 * match. Where an item leaves a choice, it pushes a frame saying how to try
 * the next alternative; when an item fails, the newest frame is asked for its
 * next alternative, or popped (undoing what it recorded) when it has none.
 */
#include "lua_pattern.h"

#include <ctype.h>
#include <string.h>

/* What a frame remembers. */
enum {
  FRAME_OPENED,   /* a capture was opened: on failure, forget it */
  FRAME_CLOSED,   /* a capture was closed: on failure, open it again */
  FRAME_GREEDY,   /* x* or x+: on failure, give back one character */
  FRAME_LAZY,     /* x-: on failure, take one more character */
  FRAME_OPTIONAL, /* x? took its character: on failure, go on without it */
};

typedef struct frame {
  int kind;
  int capture;       /* FRAME_CLOSED: which capture */
  const char *from;  /* GREEDY: first repeated character; LAZY, OPTIONAL: where the rest starts */
  size_t count;      /* GREEDY: characters the repetition holds now */
  const char *item;  /* LAZY: the repeated item */
  const char *rest;  /* GREEDY, LAZY, OPTIONAL: the pattern after the item and its suffix */
} frame;

/* Room for every nested call Lua's matcher allows beyond its first. */
#define MAX_FRAMES (MORPH_MATCH_CALLS - 1)

void morph_match_init(morph_match *m, lua_State *L, const char *s, size_t slen,
                      const char *p, size_t plen) {
  m->L = L;
  m->lim = morph_getlimits(L);
  m->subject = s;
  m->subject_end = s + slen;
  m->pattern_end = p + plen;
  m->ncap = 0;
}

/* Whether byte `c` is in the class named by `letter` (%a, %d, ...; an upper
   case letter is the complement); any other character after '%' stands for
   itself. */
static int in_class(int letter, int c) {
  int found;
  switch (tolower(letter)) {
    case 'a': found = isalpha(c); break;
    case 'c': found = iscntrl(c); break;
    case 'd': found = isdigit(c); break;
    case 'g': found = isgraph(c); break;
    case 'l': found = islower(c); break;
    case 'p': found = ispunct(c); break;
    case 's': found = isspace(c); break;
    case 'u': found = isupper(c); break;
    case 'w': found = isalnum(c); break;
    case 'x': found = isxdigit(c); break;
    case 'z': found = c == 0; break; /* still accepted by Lua 5.4 */
    default: return letter == c;
  }
  if (isupper(letter)) return !found;
  return found != 0;
}

/* Whether byte `c` is in the set `[...]` that opens at `open` and whose
   closing ']' is at `close`. Inside, "%x" is a class or an escaped byte,
   "a-z" a range (a '-' first or last is itself), and a leading '^' turns
   the set into its complement. */
static int in_set(int c, const char *open, const char *close) {
  const char *q = open + 1;
  int inside = 1;
  if (*q == '^') {
    inside = 0;
    q++;
  }
  for (; q < close; q++) {
    unsigned char here = (unsigned char)*q;
    if (here == '%') {
      q++;
      if (in_class((unsigned char)*q, c)) return inside;
    } else if (q + 2 < close && q[1] == '-') {
      if (here <= c && c <= (unsigned char)q[2]) return inside;
      q += 2;
    } else if (here == c) {
      return inside;
    }
  }
  return !inside;
}

/* Where the single-character item at `p` ends: after ".", "x", "%x" or a
   whole "[...]" set. Raises for "%" at the end and for a set with no ']'
   (its first member may be ']': "[]]", "[^]]"). */
static const char *item_end(morph_match *m, const char *p) {
  const char *end = m->pattern_end;
  if (*p == '%') {
    if (p + 1 >= end) luaL_error(m->L, "malformed pattern (ends with '%%')");
    return p + 2;
  }
  if (*p != '[') return p + 1;
  const char *q = p + 1;
  if (q < end && *q == '^') q++;
  for (;;) {
    if (q >= end) luaL_error(m->L, "malformed pattern (missing ']')");
    if (*q++ == '%' && q < end) q++; /* an escaped byte, maybe ']' */
    if (q < end && *q == ']') return q + 1;
  }
}

/* Whether the item [p, ep) matches the byte at s (s is inside the subject). */
static inline int item_matches(const char *s, const char *p, const char *ep) {
  int c = (unsigned char)*s;
  switch (*p) {
    case '.': return 1;
    case '%': return in_class((unsigned char)p[1], c);
    case '[': return in_set(c, p, ep - 1);
    default: return (unsigned char)*p == c;
  }
}

/* How many bytes from s on the item [p, ep) matches in a row. */
static size_t run_length(morph_match *m, const char *s, const char *p, const char *ep) {
  size_t room = (size_t)(m->subject_end - s);
  if (*p == '.') {
    morph_match_charge(m, (long long)room);
    return room;
  }
  size_t n = 0;
  while (n < room && item_matches(s + n, p, ep)) n++;
  morph_match_charge(m, (long long)n + 1);
  return n;
}

/* The end of a balanced "%bxy" run starting at s, or NULL. */
static const char *balanced_end(morph_match *m, const char *s, int open, int close) {
  const char *end = m->subject_end;
  if (s >= end || (unsigned char)*s != open) return NULL;
  int depth = 1;
  const char *q = s + 1;
  for (; q < end; q++) {
    int c = (unsigned char)*q;
    if (c == close) {
      if (--depth == 0) break;
    } else if (c == open) {
      depth++;
    }
  }
  morph_match_charge(m, q - s);
  return q < end ? q + 1 : NULL;
}

/* The capture a back-reference "%1".."%9" (or a replacement's "%n") names;
   raises unless it is closed (or a position). */
static int referenced_capture(morph_match *m, int digit) {
  int i = digit - '1';
  if (i < 0 || i >= m->ncap || m->cap[i].len == MORPH_CAP_OPEN)
    luaL_error(m->L, "invalid capture index %%%d", i + 1);
  return i;
}

/* The matcher proper; `steps` counts the items tried, to be charged. */
static const char *match_here(morph_match *m, const char *s, const char *p, long long *steps) {
  frame frames[MAX_FRAMES];
  int depth = 0;
  const char *const pend = m->pattern_end;
  const char *const send = m->subject_end;
  lua_State *const L = m->L;

#define PUSH_FRAME(f)                                                   \
  do {                                                                  \
    if (depth == MAX_FRAMES) luaL_error(L, "pattern too complex");      \
    frames[depth++] = (f);                                              \
  } while (0)

  for (;;) {
    /* Forward: match items from (s, p) until the pattern ends or one fails. */
    for (;;) {
      if (++*steps >= MORPH_TICK_EVERY) {
        morph_match_charge(m, *steps);
        *steps = 0;
      }
      if (p == pend) return s;
      switch (*p) {
        case '(': {
          if (m->ncap >= MORPH_MAXCAPTURES) luaL_error(L, "too many captures");
          int position = p + 1 < pend && p[1] == ')';
          m->cap[m->ncap].start = s;
          m->cap[m->ncap].len = position ? MORPH_CAP_POSITION : MORPH_CAP_OPEN;
          m->ncap++;
          PUSH_FRAME(((frame){.kind = FRAME_OPENED}));
          p += position ? 2 : 1;
          continue;
        }
        case ')': {
          int i = m->ncap - 1;
          while (i >= 0 && m->cap[i].len != MORPH_CAP_OPEN) i--;
          if (i < 0) luaL_error(L, "invalid pattern capture");
          m->cap[i].len = s - m->cap[i].start;
          PUSH_FRAME(((frame){.kind = FRAME_CLOSED, .capture = i}));
          p++;
          continue;
        }
        case '$':
          if (p + 1 == pend) {
            if (s == send) return s;
            goto fail;
          }
          break; /* elsewhere '$' is an ordinary byte */
        case '%':
          if (p + 1 >= pend) break; /* item_end raises */
          switch (p[1]) {
            case 'b': {
              if (p + 2 >= pend - 1) luaL_error(L, "malformed pattern (missing arguments to '%%b')");
              s = balanced_end(m, s, (unsigned char)p[2], (unsigned char)p[3]);
              if (s == NULL) goto fail;
              p += 4;
              continue;
            }
            case 'f': {
              p += 2;
              if (p >= pend || *p != '[') luaL_error(L, "missing '[' after '%%f' in pattern");
              const char *ep = item_end(m, p);
              int before = s == m->subject ? 0 : (unsigned char)s[-1];
              int here = s < send ? (unsigned char)*s : 0;
              if (in_set(before, p, ep - 1) || !in_set(here, p, ep - 1)) goto fail;
              p = ep;
              continue;
            }
            case '0': case '1': case '2': case '3': case '4':
            case '5': case '6': case '7': case '8': case '9': {
              int i = referenced_capture(m, (unsigned char)p[1]);
              ptrdiff_t len = m->cap[i].len;
              if (len == MORPH_CAP_POSITION || send - s < len) goto fail;
              morph_match_charge(m, len);
              if (memcmp(m->cap[i].start, s, (size_t)len) != 0) goto fail;
              s += len;
              p += 2;
              continue;
            }
            default: break;
          }
          break;
        default: break;
      }
      /* A single-character item, maybe followed by '*', '+', '-' or '?'. */
      const char *ep = item_end(m, p);
      int suffix = ep < pend ? *ep : 0;
      if (s >= send || !item_matches(s, p, ep)) {
        if (suffix == '*' || suffix == '?' || suffix == '-') {
          p = ep + 1; /* zero repetitions */
          continue;
        }
        goto fail;
      }
      switch (suffix) {
        case '?':
          PUSH_FRAME(((frame){.kind = FRAME_OPTIONAL, .from = s, .rest = ep + 1}));
          s++;
          p = ep + 1;
          continue;
        case '*':
        case '+': {
          const char *from = suffix == '+' ? s + 1 : s;
          size_t count = run_length(m, from, p, ep);
          PUSH_FRAME(((frame){.kind = FRAME_GREEDY, .from = from, .count = count, .rest = ep + 1}));
          s = from + count;
          p = ep + 1;
          continue;
        }
        case '-':
          PUSH_FRAME(((frame){.kind = FRAME_LAZY, .from = s, .item = p, .rest = ep + 1}));
          p = ep + 1;
          continue;
        default:
          s++;
          p = ep;
          continue;
      }
    }

  fail:
    /* Backward: the newest frame with an alternative left resumes there. */
    for (;;) {
      if (depth == 0) return NULL;
      frame *f = &frames[depth - 1];
      ++*steps;
      switch (f->kind) {
        case FRAME_OPENED:
          m->ncap--;
          depth--;
          continue;
        case FRAME_CLOSED:
          m->cap[f->capture].len = MORPH_CAP_OPEN;
          depth--;
          continue;
        case FRAME_GREEDY:
          if (f->count == 0) {
            depth--;
            continue;
          }
          f->count--;
          s = f->from + f->count;
          p = f->rest;
          break;
        case FRAME_LAZY: {
          const char *ep = f->rest - 1;
          if (f->from >= send || !item_matches(f->from, f->item, ep)) {
            depth--;
            continue;
          }
          f->from++;
          s = f->from;
          p = f->rest;
          break;
        }
        default: /* FRAME_OPTIONAL: the rest without the character */
          depth--;
          s = f->from;
          p = f->rest;
          break;
      }
      break;
    }
  }
#undef PUSH_FRAME
}

const char *morph_match_at(morph_match *m, const char *s, const char *p) {
  long long steps = 0; /* charged in bulk: one store per item would show */
  const char *e = match_here(m, s, p, &steps);
  morph_match_charge(m, steps);
  return e;
}
