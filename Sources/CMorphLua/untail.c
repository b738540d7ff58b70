/*
 * Plugins' tail calls, compiled as ordinary calls.
 *
 * A tail call replaces the caller's frame, so an error raised in the callee
 * has no plugin line left to name: `return m.rect():frame(-5, 10)` ends
 * almost every `body`, and `return morph.component{...}` every plugin, and
 * with a tail call their argument errors said only the file. So every chunk
 * is compiled, dumped, and loaded again with each OP_TAILCALL turned into the
 * OP_CALL the compiler emits where it may not tail-call (inside a
 * to-be-closed block): `OP_CALL A B 0` (all results), followed by the
 * `OP_RETURN A 0` the compiler already placed after it. Results, varargs and
 * upvalues behave the same; what changes is that each such call keeps its
 * frame, so recursion written as tail calls is bounded by Lua's stack (about
 * 200 000 levels) instead of running in constant space.
 *
 * The dump format and the instruction layout are Lua 5.4's (the same from
 * 5.4.0 to 5.4.8): the header is checked, and anything unexpected leaves
 * the chunk as it was compiled.
 */
#include "internal.h"

#include <stdint.h>
#include <string.h>

/* Lua 5.4's opcodes (lopcodes.h) and iABC layout: op 7 bits, A 8, k 1, B 8, C 8. */
enum { OP_CALL = 68, OP_TAILCALL = 69, OP_RETURN = 70 };
#define OPCODE(i) ((i) & 0x7Fu)
#define ARG_B(i) (((i) >> 16) & 0xFFu)
#define OP_MASK 0x7Fu
#define K_MASK (1u << 15)
#define C_MASK (0xFFu << 24)

/* Constant tags in a dump (lobject.h's variants). */
enum { V_NIL = 0, V_FALSE = 1, V_TRUE = 17, V_INT = 3, V_FLT = 19, V_SHRSTR = 4, V_LNGSTR = 20 };

typedef struct cursor {
  unsigned char *at, *end;
  int ok;           /* cleared at the first thing that does not parse */
  size_t int_size;  /* sizeof(lua_Integer) and sizeof(lua_Number) in the dump */
  size_t num_size;
} cursor;

static void skip(cursor *c, size_t n) {
  if ((size_t)(c->end - c->at) < n) {
    c->ok = 0;
    c->at = c->end;
  } else {
    c->at += n;
  }
}

/* ldump.c's dumpSize: 7 bits a byte, most significant first, the last byte marked. */
static size_t read_size(cursor *c) {
  size_t x = 0;
  for (;;) {
    if (c->at >= c->end || x > (SIZE_MAX >> 7)) {
      c->ok = 0;
      return 0;
    }
    unsigned b = *c->at++;
    x = (x << 7) | (b & 0x7F);
    if (b & 0x80) return x;
  }
}

static void skip_string(cursor *c) {
  size_t n = read_size(c);
  if (n > 0) skip(c, n - 1);
}

static void untail_code(unsigned char *code, size_t count) {
  for (size_t i = 0; i + 1 < count; i++) {
    uint32_t ins, next;
    memcpy(&ins, code + 4 * i, 4);
    memcpy(&next, code + 4 * (i + 1), 4);
    /* The compiler always follows a tail call with `OP_RETURN A 0`. */
    if (OPCODE(ins) != OP_TAILCALL || OPCODE(next) != OP_RETURN || ARG_B(next) != 0) continue;
    ins = (ins & ~(OP_MASK | K_MASK | C_MASK)) | OP_CALL;
    memcpy(code + 4 * i, &ins, 4);
  }
}

/* One function of the dump (ldump.c's dumpFunction), its nested ones too. */
static void untail_function(cursor *c, int depth) {
  /* Lua's parser nests functions at most 200 deep (LUAI_MAXCCALLS). */
  if (depth > 256) {
    c->ok = 0;
    return;
  }
  skip_string(c);           /* source */
  read_size(c);             /* linedefined */
  read_size(c);             /* lastlinedefined */
  skip(c, 3);               /* numparams, is_vararg, maxstacksize */
  size_t ncode = read_size(c);
  unsigned char *code = c->at;
  if (ncode > (size_t)(c->end - c->at) / 4) {
    c->ok = 0;
    return;
  }
  skip(c, ncode * 4);
  size_t nk = read_size(c);
  for (size_t i = 0; c->ok && i < nk; i++) {
    if (c->at >= c->end) {
      c->ok = 0;
      break;
    }
    switch (*c->at++) {
      case V_NIL: case V_FALSE: case V_TRUE: break;
      case V_INT: skip(c, c->int_size); break;
      case V_FLT: skip(c, c->num_size); break;
      case V_SHRSTR: case V_LNGSTR: skip_string(c); break;
      default: c->ok = 0;
    }
  }
  size_t nup = read_size(c);
  if (nup > (size_t)(c->end - c->at) / 3) c->ok = 0;
  else skip(c, 3 * nup);    /* instack, idx, kind */
  size_t np = read_size(c);
  for (size_t i = 0; c->ok && i < np; i++) untail_function(c, depth + 1);
  skip(c, read_size(c));    /* lineinfo: a byte each */
  size_t nabs = read_size(c);
  for (size_t i = 0; c->ok && i < nabs; i++) {
    read_size(c);           /* pc */
    read_size(c);           /* line */
  }
  size_t nloc = read_size(c);
  for (size_t i = 0; c->ok && i < nloc; i++) {
    skip_string(c);         /* name */
    read_size(c);           /* startpc */
    read_size(c);           /* endpc */
  }
  size_t nnames = read_size(c);
  for (size_t i = 0; c->ok && i < nnames; i++) skip_string(c);
  if (c->ok) untail_code(code, ncode);
}

/* Patches a whole dump in place; 0 when it is not a Lua 5.4 dump as expected
   (then the caller keeps the function it had). */
static int untail_dump(unsigned char *dump, size_t len) {
  static const unsigned char signature[] = "\x1bLua\x54\x00\x19\x93\r\n\x1a\n";
  const size_t fixed = sizeof(signature) - 1;
  if (len < fixed + 3 || memcmp(dump, signature, fixed) != 0 || dump[fixed] != 4) return 0;
  cursor c = { dump, dump + len, 1, dump[fixed + 1], dump[fixed + 2] };
  skip(&c, fixed + 3 + c.int_size + c.num_size); /* the header's test integer and number */
  skip(&c, 1);                                   /* the main function's upvalue count */
  if (!c.ok) return 0;
  untail_function(&c, 0);
  return c.ok && c.at == c.end;
}

/* lstrlib.c's dump writer: the buffer starts on the first write, as lua_dump
   needs the function on top when it begins. */
typedef struct dump_writer {
  int started;
  luaL_Buffer buffer;
} dump_writer;

static int write_dump(lua_State *L, const void *bytes, size_t size, void *ud) {
  dump_writer *w = (dump_writer *)ud;
  if (!w->started) {
    w->started = 1;
    luaL_buffinit(L, &w->buffer);
  }
  luaL_addlstring(&w->buffer, (const char *)bytes, size);
  return 0;
}

typedef struct patched_reader {
  const char *bytes;
  size_t len;
} patched_reader;

static const char *read_patched(lua_State *L, void *ud, size_t *size) {
  (void)L;
  patched_reader *r = (patched_reader *)ud;
  *size = r->len;
  r->len = 0;
  return *size ? r->bytes : NULL;
}

int morph_untail(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  if (lua_iscfunction(L, 1)) return 1;
  dump_writer w = { 0 };
  if (lua_dump(L, write_dump, &w, 0) != 0 || !w.started) return 1;
  luaL_pushresult(&w.buffer);                        /* 1: function, 2: dump */
  size_t len;
  const char *dump = lua_tolstring(L, 2, &len);
  unsigned char *copy = (unsigned char *)lua_newuserdatauv(L, len, 0); /* 3 */
  memcpy(copy, dump, len);
  if (!untail_dump(copy, len)) {
    lua_settop(L, 1);
    return 1;
  }
  patched_reader r = { (const char *)copy, len };
  if (lua_load(L, read_patched, &r, "=untail", "b") != LUA_OK) { /* 4 */
    lua_settop(L, 1);
    return 1;
  }
  /* The same upvalues as the original (a main chunk's one: its _ENV). */
  for (int i = 1; lua_getupvalue(L, 1, i) != NULL; i++) {
    lua_pop(L, 1);
    lua_upvaluejoin(L, 4, i, 1, i);
  }
  return 1;
}
