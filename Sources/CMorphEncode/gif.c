// GIF image data with the symbol of each pixel chosen while it is compressed.
//
// A GIF frame is a row-by-row stream of palette indices, LZW-coded. Many
// pixels could take more than one index without looking any worse: a pixel
// the screen already shows well enough may be transparent (the previous
// frame shows through) or any index whose colour is as close to its truth,
// and a pixel the palette holds twice has two. So instead of coding fixed
// indices, the encoder walks its string table at each step looking for the
// longest string that every pixel it covers accepts (a depth-first search
// with a fixed number of visits, the quantiser's own index tried first), and
// the pixels take the symbols of the string found. Longer strings are fewer
// codes: a smaller file at the same error.
//
// The code stream follows the common GIF encoder conventions (a clear code
// first; code width grows when the next code reaches the width's limit; a
// clear when code 4095 is taken), so every decoder reads it. Keeping a full
// table instead ("deferred clear", which GIF allows) was 0.5 % smaller on
// the deck fan, but several decoders have mishandled it, and a table full
// of noise kept over a flat area made files up to 8 times larger.
#include "morph_encode.h"
#include "bounds.h"

#include <stdlib.h>
#include <string.h>

enum {
  MAX_CODES = 4096,
  // Trie nodes a search may visit for one string beyond the plain LZW match
  // (on deck_fan at 2x, 4 gave 0.6 % more bytes than 16, and 48 as many).
  SEARCH_VISITS = 16,
  UNTRIED = 0xFFFF,  // a search's node whose primary child is not yet tried
  NO_ROOT = 0xFFFF,  // the end of the list of roots with children
};

// Levels between a shown colour (a packed RGBA word) and a true one, summed over R, G, B.
static inline int distance(uint32_t shown, const uint8_t *truth) {
  int d = 0;
  for (int c = 0; c < 3; c++) d += abs((int)((shown >> (8 * c)) & 0xFF) - truth[c]);
  return d;
}

// The largest channel difference between a shown colour and a true one.
static inline int channel_distance(uint32_t shown, const uint8_t *truth) {
  int d = 0;
  for (int c = 0; c < 3; c++) {
    int e = abs((int)((shown >> (8 * c)) & 0xFF) - truth[c]);
    d = e > d ? e : d;
  }
  return d;
}

// What each pixel of the rectangle accepts.
struct pixels {
  const struct morph_gif_image *image;
  size_t count;
  uint32_t *at;      // the pixel's index in the whole frame
  uint8_t *primary;  // the symbol it would take without a search
  uint8_t *keepable; // 1 when it may be transparent
  int16_t *budget;   // summed levels a palette colour may be from its truth; -1: primary only
  int lossy;         // the image's `lossy`, for changed rectangles only
};

static inline int accepts(const struct pixels *px, size_t pos, int symbol) {
  if (symbol == px->primary[pos]) return 1;
  const struct morph_gif_image *im = px->image;
  if (symbol == im->transparent_index)
    return px->keepable[pos];
  if (px->budget[pos] < 0 || symbol >= im->color_count) return 0;
  const uint8_t *truth = im->source + (size_t)px->at[pos] * 4;
  uint32_t color = im->colors[symbol];
  return distance(color, truth) <= px->budget[pos]
         || (px->lossy > 0 && channel_distance(color, truth) <= px->lossy);
}

// What the screen shows at pixel `i` may stay: it is at most `tolerance`
// levels further from the truth than the new palette's colour, or, lossy,
// within `lossy` levels a channel of the truth.
static inline int unchanged_pixel(const uint32_t *screen, const uint8_t *source,
                                  const uint32_t *display, size_t i, int tolerance, int lossy) {
  const uint8_t *truth = source + i * 4;
  if (screen[i] == display[i]) return 1;
  if (distance(screen[i], truth) <= distance(display[i], truth) + tolerance) return 1;
  return lossy > 0 && channel_distance(screen[i], truth) <= lossy;
}

int morph_gif_changes(const uint32_t *screen, const uint8_t *source, const uint32_t *display,
                      int width, int height, int tolerance, int lossy, int rect[4]) {
  struct bounds box = {width, height, -1, -1};
  for (int y = 0; y < height; y++) {
    for (int x = 0; x < width; x++) {
      size_t i = (size_t)y * width + x;
      if (unchanged_pixel(screen, source, display, i, tolerance, lossy)) continue;
      bounds_add(&box, x, x, y);
    }
  }
  return bounds_rect(&box, rect);
}

void morph_crop_kept(uint32_t *screen, const uint8_t *source, const uint32_t *display,
                     const uint8_t *indices, int width, const int rect[4], int tolerance,
                     uint8_t transparent_index, uint8_t *out) {
  for (int y = 0; y < rect[3]; y++) {
    size_t at = (size_t)(rect[1] + y) * width + rect[0];
    uint8_t *row = out + (size_t)y * rect[2];
    for (int x = 0; x < rect[2]; x++) {
      size_t i = at + (size_t)x;
      if (unchanged_pixel(screen, source, display, i, tolerance, 0)) {
        row[x] = transparent_index;
      } else {
        row[x] = indices[i];
        screen[i] = display[i];
      }
    }
  }
}

// What each pixel of the rectangle accepts, and the symbol it takes without a search.
static void classify(struct pixels *px) {
  const struct morph_gif_image *im = px->image;
  size_t pos = 0;
  for (int y = 0; y < im->rect_height; y++) {
    for (int x = 0; x < im->rect_width; x++, pos++) {
      size_t i = (size_t)(im->rect_y + y) * im->width + im->rect_x + x;
      px->at[pos] = (uint32_t)i;
      int changes = im->mode == MORPH_GIF_CHANGES;
      int keep = changes
                 && unchanged_pixel(im->screen, im->source, im->display, i, im->tolerance, 0);
      px->primary[pos] = keep ? im->transparent_index : im->indices[i];
      // Lossy, a pixel the screen shows within `lossy` levels may be kept
      // too, but only where that makes a string longer.
      px->keepable[pos] =
          (uint8_t)(keep
                    || (px->lossy > 0
                        && unchanged_pixel(im->screen, im->source, im->display, i,
                                           im->tolerance, px->lossy))
                    || (im->mode == MORPH_GIF_EXACT && im->indices[i] == im->transparent_index));
      // Another colour may serve as well as the quantised one; a pixel that
      // may be kept, as well as keeping would.
      px->budget[pos] =
          im->mode == MORPH_GIF_EXACT
              ? -1
              : (int16_t)(distance(im->display[i], im->source + i * 4)
                          + (keep ? im->tolerance : 0));
      // Lossy: the symbol to the left, when the pixel accepts it, makes the
      // run longer, and runs are what LZW learns from.
      if (px->lossy > 0 && x > 0 && accepts(px, pos, px->primary[pos - 1]))
        px->primary[pos] = px->primary[pos - 1];
    }
  }
}

// The string table: a trie of codes, each a string of symbols. Codes below
// `clear` are the symbols; `clear` and `clear` + 1 (the end) code nothing.
struct table {
  uint16_t next[MAX_CODES][256];  // child of a code by symbol (0: none)
  uint16_t parent[MAX_CODES];
  uint16_t first_child[MAX_CODES];
  uint16_t sibling[MAX_CODES];
  uint8_t symbol[MAX_CODES];  // the last symbol of the code's string
  uint8_t first[MAX_CODES];   // and its first
  int depth[MAX_CODES];
  uint16_t roots;  // a list (through `sibling` of the root codes) of symbols with children
  uint16_t root_next[256];
  int last;        // the newest code
  int clear;       // the clear code: the number of symbols
};


static void table_reset(struct table *t) {
  for (int code = 0; code < t->clear; code++) {
    if (t->first_child[code]) memset(t->next[code], 0, sizeof t->next[code]);
  }
  for (int code = t->clear + 2; code <= t->last && code < MAX_CODES; code++) {
    if (t->first_child[code]) memset(t->next[code], 0, sizeof t->next[code]);
  }
  memset(t->first_child, 0, sizeof t->first_child);
  for (int code = 0; code < t->clear; code++) {
    t->symbol[code] = t->first[code] = (uint8_t)code;
    t->depth[code] = 1;
  }
  t->roots = NO_ROOT;
  t->last = t->clear + 1;
}

// Adds the string `prefix` + `symbol` as the next code; returns 0 when the
// table holds that string already (the code is used up all the same, as
// the decoder counts it, but never reached).
static int table_add(struct table *t, int prefix, int symbol) {
  int code = ++t->last;
  if (t->next[prefix][symbol]) return 0;
  t->next[prefix][symbol] = (uint16_t)code;
  t->parent[code] = (uint16_t)prefix;
  t->symbol[code] = (uint8_t)symbol;
  t->first[code] = t->first[prefix];
  t->depth[code] = t->depth[prefix] + 1;
  if (prefix < t->clear && !t->first_child[prefix]) {
    t->root_next[prefix] = t->roots;
    t->roots = (uint16_t)prefix;
  }
  t->sibling[code] = t->first_child[prefix];
  t->first_child[prefix] = (uint16_t)code;
  return 1;
}

// Takes back the last table_add (which returned `linked`).
static void table_undo(struct table *t, int prefix, int symbol, int linked) {
  int code = t->last--;
  if (!linked) return;
  t->next[prefix][symbol] = 0;
  t->first_child[prefix] = t->sibling[code];
  if (prefix < t->clear && !t->first_child[prefix]) t->roots = t->root_next[prefix];
}

// The longest string from position `pos` that every pixel it covers accepts.
struct search {
  const struct pixels *px;
  const struct table *t;
  int best;       // the code found
  int visits;
  uint16_t stack_node[MAX_CODES];
  uint16_t stack_child[MAX_CODES];
};

// Depth-first from `code` (covering the pixels before `pos`): the primary
// symbol's child first, always (the plain LZW match), then the other
// children the pixel accepts, while the visit budget lasts.
static void descend(struct search *s, int code, size_t pos) {
  const struct table *t = s->t;
  const struct pixels *px = s->px;
  int top = 0;
  s->stack_node[0] = (uint16_t)code;
  s->stack_child[0] = UNTRIED;
  while (top >= 0) {
    int node = s->stack_node[top];
    size_t at = pos + (size_t)top;  // the pixel a child of `node` would cover
    if (t->depth[node] > t->depth[s->best]) s->best = node;
    int child = 0;
    if (at < px->count) {
      if (s->stack_child[top] == UNTRIED) {
        s->stack_child[top] = t->first_child[node];
        child = t->next[node][px->primary[at]];
        if (!child) continue;  // the node's other children, then
      } else if (s->visits < SEARCH_VISITS) {
        int c = s->stack_child[top];
        while (c && (t->symbol[c] == px->primary[at] || !accepts(px, at, t->symbol[c])))
          c = t->sibling[c];
        child = c;
        s->stack_child[top] = c ? t->sibling[c] : 0;
        if (c) s->visits++;
      }
    }
    if (!child) {
      top--;
      continue;
    }
    top++;
    s->stack_node[top] = (uint16_t)child;
    s->stack_child[top] = UNTRIED;
  }
}

// From the root symbol `root`; when it is the first symbol of `current`
// (the string just coded), with the code the decoder will add before reading
// this one (`current` + `root`), which plain LZW uses in runs.
static void from_root(struct search *s, struct table *t, int current, int root, size_t pos) {
  if (current < 0 || t->first[current] != root) {
    descend(s, root, pos + 1);
    return;
  }
  int linked = table_add(t, current, root);
  descend(s, root, pos + 1);
  table_undo(t, current, root, linked);
}

// The longest string from `pos` whose pixels all accept it, given that
// `current` (or -1) was coded just before.
static int longest(struct search *s, struct table *t, int current, size_t pos) {
  const struct pixels *px = s->px;
  int primary = px->primary[pos];
  s->best = primary;
  s->visits = 0;
  from_root(s, t, current, primary, pos);
  for (int root = t->roots; root != NO_ROOT && s->visits < SEARCH_VISITS;
       root = t->root_next[root]) {
    if (root != primary && accepts(px, pos, root)) from_root(s, t, current, root, pos);
  }
  if (current >= 0) {  // the run case, where `current`'s first symbol has no children yet
    int first = t->first[current];
    if (first != primary && !t->first_child[first] && accepts(px, pos, first))
      from_root(s, t, current, first, pos);
  }
  return s->best;
}

// Bits packed least significant first into 255-byte sub-blocks.
struct output {
  uint8_t *bytes;
  size_t length, capacity;
  uint32_t bits;
  int count;
  size_t block;  // where the open sub-block's length byte is
  int failed;
};

static void put_byte(struct output *o, uint8_t byte) {
  if (o->failed) return;
  if (o->length + 2 > o->capacity) {
    size_t capacity = o->capacity * 2 + 1024;
    uint8_t *bytes = realloc(o->bytes, capacity);
    if (!bytes) {
      o->failed = 1;
      return;
    }
    o->bytes = bytes;
    o->capacity = capacity;
  }
  if (o->length == o->block) o->bytes[o->length++] = 0;  // a new sub-block's length
  o->bytes[o->length++] = byte;
  if (++o->bytes[o->block] == 255) o->block = o->length;
}

static void put_code(struct output *o, int code, int width) {
  o->bits |= (uint32_t)code << o->count;
  o->count += width;
  while (o->count >= 8) {
    put_byte(o, (uint8_t)o->bits);
    o->bits >>= 8;
    o->count -= 8;
  }
}

// Applies the symbols of `code`'s string to the pixels from `pos`: what the screen now shows.
static void apply(const struct pixels *px, const struct table *t, int code, size_t pos) {
  const struct morph_gif_image *im = px->image;
  for (int k = t->depth[code] - 1; k >= 0; k--) {
    int symbol = t->symbol[code];
    if (im->screen && symbol != im->transparent_index)
      im->screen[px->at[pos + (size_t)k]] = im->colors[symbol] | 0xFF000000u;
    code = t->parent[code];
  }
}

size_t morph_gif_encode(const struct morph_gif_image *image, uint8_t **out) {
  *out = NULL;
  struct pixels px = {
      .image = image,
      .count = (size_t)image->rect_width * image->rect_height,
      // A whole frame is stored exactly: what never changes keeps no error.
      .lossy = image->mode == MORPH_GIF_CHANGES ? image->lossy : 0,
  };
  px.at = malloc(px.count * sizeof *px.at);
  px.primary = malloc(px.count);
  px.keepable = malloc(px.count);
  px.budget = malloc(px.count * sizeof *px.budget);
  struct table *t = calloc(1, sizeof *t);
  struct search *s = malloc(sizeof *s);
  struct output o = {0};
  size_t result = 0;
  int bits = image->code_size;
  if (bits < 2 || bits > 8 || image->transparent_index < image->color_count
      || image->transparent_index >= 1 << bits)
    goto done;
  if (!px.at || !px.primary || !px.keepable || !px.budget || !t || !s || px.count == 0) goto done;
  classify(&px);
  s->px = &px;
  s->t = t;
  t->clear = 1 << bits;
  table_reset(t);
  int width = bits + 1;
  put_code(&o, t->clear, width);
  size_t pos = 0;
  int current = longest(s, t, -1, pos);
  for (;;) {
    size_t next_pos = pos + (size_t)t->depth[current];
    apply(&px, t, current, pos);
    put_code(&o, current, width);
    if (next_pos >= px.count) break;
    int following = longest(s, t, current, next_pos);
    // The new string: this one and the first symbol of the next.
    int first = t->first[following];
    table_add(t, current, first);
    if (t->last >= (1 << width) && width < 12) width++;
    if (t->last == MAX_CODES - 1) {
      put_code(&o, t->clear, width);
      table_reset(t);
      width = bits + 1;
      following = first;  // the table it was found in is gone
    }
    pos = next_pos;
    current = following;
  }
  // The decoder added a code for the last one too: the end may need the wider width.
  if (t->last + 1 >= (1 << width) && width < 12) width++;
  put_code(&o, t->clear + 1, width);
  if (o.count > 0) put_byte(&o, (uint8_t)o.bits);
  if (!o.failed) {
    *out = o.bytes;
    o.bytes = NULL;
    result = o.length;
  }
done:
  free(o.bytes);
  free(px.at);
  free(px.primary);
  free(px.keepable);
  free(px.budget);
  free(t);
  free(s);
  return result;
}
