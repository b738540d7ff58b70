#include "morph_encode.h"
#include "bounds.h"

#include <stdlib.h>
#include <string.h>

// Each filter is its own loop (no branch per byte), so the compiler vectorises
// it; `bpp` (bytes a pixel: 1, 3 or 4) is a constant in each inlined copy.
static inline void filter_sub(const uint8_t *restrict cur, size_t n, size_t bpp,
                              uint8_t *restrict out) {
  for (size_t i = 0; i < bpp && i < n; i++) out[i] = cur[i];
  for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - cur[i - bpp]);
}

static inline void filter_up(const uint8_t *restrict cur, const uint8_t *restrict prev, size_t n,
                             uint8_t *restrict out) {
  for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
}

static inline void filter_average(const uint8_t *restrict cur, const uint8_t *restrict prev,
                                  size_t n, size_t bpp, uint8_t *restrict out) {
  for (size_t i = 0; i < bpp && i < n; i++) out[i] = (uint8_t)(cur[i] - (prev[i] >> 1));
  for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - ((cur[i - bpp] + prev[i]) >> 1));
}

static inline void filter_paeth(const uint8_t *restrict cur, const uint8_t *restrict prev,
                                size_t n, size_t bpp, uint8_t *restrict out) {
  for (size_t i = 0; i < bpp && i < n; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
  for (size_t i = bpp; i < n; i++) {
    int a = cur[i - bpp], b = prev[i], c = prev[i - bpp];
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    int predicted = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
    out[i] = (uint8_t)(cur[i] - predicted);
  }
}

// Sum of the filtered bytes read as signed values, the cost libpng minimises.
static unsigned long cost(const uint8_t *restrict row, size_t n) {
  unsigned long sum = 0;
  for (size_t i = 0; i < n; i++) {
    int v = (int8_t)row[i];
    sum += (unsigned long)(v < 0 ? -v : v);
  }
  return sum;
}

static inline void filter_rows(const uint8_t *pixels, size_t stride, int width, int height,
                               size_t bpp, uint8_t *out) {
  size_t n = (size_t)width * bpp;
  uint8_t *trials = malloc(4 * n);
  for (int y = 0; y < height; y++) {
    const uint8_t *cur = pixels + (size_t)y * stride;
    uint8_t *row = out + (size_t)y * (n + 1);
    if (!trials) {  // out of memory: unfiltered rows are still a valid PNG
      row[0] = 0;
      memcpy(row + 1, cur, n);
      continue;
    }
    const uint8_t *candidates[5] = {cur, trials, trials + n, trials + 2 * n, trials + 3 * n};
    filter_sub(cur, n, bpp, trials);
    int types = 2;
    if (y > 0) {
      const uint8_t *prev = cur - stride;
      filter_up(cur, prev, n, trials + n);
      filter_average(cur, prev, n, bpp, trials + 2 * n);
      filter_paeth(cur, prev, n, bpp, trials + 3 * n);
      types = 5;
    }
    int best = 0;
    unsigned long best_cost = cost(cur, n);
    for (int type = 1; type < types; type++) {
      unsigned long c = cost(candidates[type], n);
      if (c < best_cost) {
        best_cost = c;
        best = type;
      }
    }
    row[0] = (uint8_t)best;
    memcpy(row + 1, candidates[best], n);
  }
  free(trials);
}

void morph_png_filter_up(const uint8_t *pixels, size_t stride, int width, int height,
                         uint8_t *out) {
  size_t n = (size_t)width * 4;
  for (int y = 0; y < height; y++) {
    const uint8_t *cur = pixels + (size_t)y * stride;
    uint8_t *row = out + (size_t)y * (n + 1);
    row[0] = y == 0 ? 1 : 2;
    if (y == 0) filter_sub(cur, n, 4, row + 1);
    else filter_up(cur, cur - stride, n, row + 1);
  }
}

void morph_png_filter(const uint8_t *pixels, size_t stride, int width, int height, int channels,
                      uint8_t *out) {
  if (channels == 1) {
    // Palette indices are not magnitudes: filtering them only scrambles
    // runs (the PNG specification's advice, and libpng's default). On the
    // deck fan's indexed APNG, choosing filters as for colours made it 25 %
    // larger.
    for (int y = 0; y < height; y++) {
      uint8_t *row = out + (size_t)y * ((size_t)width + 1);
      row[0] = 0;
      memcpy(row + 1, pixels + (size_t)y * stride, (size_t)width);
    }
  } else if (channels == 3) {
    filter_rows(pixels, stride, width, height, 3, out);
  } else {
    filter_rows(pixels, stride, width, height, 4, out);
  }
}

void morph_png_filter_fixed(const uint8_t *pixels, size_t stride, int width, int height,
                            int channels, int type, uint8_t *out) {
  size_t bpp = channels == 3 ? 3 : 4;
  size_t n = (size_t)width * bpp;
  uint8_t *zeros = calloc(n ? n : 1, 1);
  for (int y = 0; y < height; y++) {
    const uint8_t *cur = pixels + (size_t)y * stride;
    const uint8_t *prev = y > 0 ? cur - stride : zeros;
    uint8_t *row = out + (size_t)y * (n + 1);
    int t = zeros ? type : 0;  // out of memory: unfiltered rows are still a valid PNG
    row[0] = (uint8_t)t;
    switch (t) {
      case 1: filter_sub(cur, n, bpp, row + 1); break;
      case 2: filter_up(cur, prev, n, row + 1); break;
      case 3: filter_average(cur, prev, n, bpp, row + 1); break;
      case 4: filter_paeth(cur, prev, n, bpp, row + 1); break;
      default: row[0] = 0; memcpy(row + 1, cur, n); break;
    }
  }
  free(zeros);
}

int morph_opaque(const uint8_t *pixels, size_t count) {
  uint8_t all = 255;
  for (size_t i = 0; i < count; i++) all &= pixels[i * 4 + 3];
  return all == 255;
}

void morph_crop_rgb(const uint8_t *pixels, int width, const int rect[4], uint8_t *out) {
  for (int y = 0; y < rect[3]; y++) {
    const uint8_t *src = pixels + ((size_t)(rect[1] + y) * width + rect[0]) * 4;
    uint8_t *dst = out + (size_t)y * rect[2] * 3;
    for (int x = 0; x < rect[2]; x++) {
      dst[x * 3] = src[x * 4];
      dst[x * 3 + 1] = src[x * 4 + 1];
      dst[x * 3 + 2] = src[x * 4 + 2];
    }
  }
}

// The rectangle where `a` and `b` differ, for pixels of `bytes` bytes (a
// constant in each inlined copy, so pixels compare as one word).
static inline int diff_rect(const uint8_t *a, const uint8_t *b, int width, int height,
                            size_t bytes, int rect[4]) {
  struct bounds box = {width, height, -1, -1};
  size_t n = (size_t)width * bytes;
  for (int y = 0; y < height; y++) {
    const uint8_t *ra = a + (size_t)y * n, *rb = b + (size_t)y * n;
    if (memcmp(ra, rb, n) == 0) continue;
    int first = 0, last = width - 1;
    while (memcmp(ra + first * bytes, rb + first * bytes, bytes) == 0) first++;
    while (memcmp(ra + last * bytes, rb + last * bytes, bytes) == 0) last--;
    bounds_add(&box, first, last, y);
  }
  return bounds_rect(&box, rect);
}

int morph_diff_rect(const uint8_t *a, const uint8_t *b, int width, int height, int rect[4]) {
  return diff_rect(a, b, width, height, 4, rect);
}

int morph_diff_rect_indices(const uint8_t *a, const uint8_t *b, int width, int height,
                            int rect[4]) {
  return diff_rect(a, b, width, height, 1, rect);
}

int morph_crop_indices(const uint8_t *screen, const uint8_t *indices, int width, const int rect[4],
                       const uint8_t opaque[256], int transparent_index, uint8_t *out) {
  int all_opaque = 1;
  for (int y = 0; y < rect[3]; y++) {
    size_t at = (size_t)(rect[1] + y) * width + rect[0];
    uint8_t *row = out + (size_t)y * rect[2];
    for (int x = 0; x < rect[2]; x++) {
      uint8_t index = indices[at + x];
      if (transparent_index >= 0 && screen[at + x] == index) {
        row[x] = (uint8_t)transparent_index;
      } else {
        row[x] = index;
        all_opaque &= opaque[index];
      }
    }
  }
  return all_opaque;
}

int morph_changes_opaque(const uint8_t *a, const uint8_t *b, int width, const int rect[4]) {
  const uint32_t *pa = (const uint32_t *)a, *pb = (const uint32_t *)b;
  for (int y = rect[1]; y < rect[1] + rect[3]; y++) {
    for (int x = rect[0]; x < rect[0] + rect[2]; x++) {
      size_t i = (size_t)y * width + x;
      if (pa[i] != pb[i] && b[i * 4 + 3] != 255) return 0;
    }
  }
  return 1;
}

void morph_crop(const uint8_t *a, const uint8_t *b, int width, const int rect[4],
                int clear_unchanged, uint8_t *out) {
  const uint32_t *pa = (const uint32_t *)a, *pb = (const uint32_t *)b;
  uint32_t *po = (uint32_t *)out;
  for (int y = 0; y < rect[3]; y++) {
    size_t src = (size_t)(rect[1] + y) * width + rect[0];
    uint32_t *dst = po + (size_t)y * rect[2];
    memcpy(dst, pb + src, (size_t)rect[2] * 4);
    if (!clear_unchanged) continue;
    for (int x = 0; x < rect[2]; x++) {
      if (pa[src + x] == pb[src + x]) dst[x] = 0;
    }
  }
}

