#include "morph_encode.h"

#include <stdlib.h>
#include <string.h>

static inline uint8_t paeth(int a, int b, int c) {
  int p = a + b - c;
  int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  if (pa <= pb && pa <= pc) return (uint8_t)a;
  return (uint8_t)(pb <= pc ? b : c);
}

// Sum of the filtered bytes read as signed values, the cost libpng minimises.
static inline unsigned long cost(const uint8_t *row, size_t n) {
  unsigned long sum = 0;
  for (size_t i = 0; i < n; i++) sum += row[i] < 128 ? row[i] : 256 - row[i];
  return sum;
}

static void filter_row(int type, const uint8_t *cur, const uint8_t *prev, size_t n,
                       uint8_t *out) {
  const size_t bpp = 4;
  for (size_t i = 0; i < n; i++) {
    int left = i >= bpp ? cur[i - bpp] : 0;
    int up = prev ? prev[i] : 0;
    int corner = (prev && i >= bpp) ? prev[i - bpp] : 0;
    int predicted;
    switch (type) {
      case 1: predicted = left; break;
      case 2: predicted = up; break;
      case 3: predicted = (left + up) >> 1; break;
      case 4: predicted = paeth(left, up, corner); break;
      default: predicted = 0; break;
    }
    out[i] = (uint8_t)(cur[i] - predicted);
  }
}

void morph_png_filter(const uint8_t *pixels, size_t stride, int width, int height,
                      uint8_t *out) {
  size_t n = (size_t)width * 4;
  uint8_t *trial = malloc(n);
  for (int y = 0; y < height; y++) {
    const uint8_t *cur = pixels + (size_t)y * stride;
    const uint8_t *prev = y > 0 ? cur - stride : NULL;
    uint8_t *row = out + (size_t)y * (n + 1);
    int best = 0;
    unsigned long best_cost = cost(cur, n);
    memcpy(row + 1, cur, n);
    for (int type = 1; type <= 4 && trial; type++) {
      filter_row(type, cur, prev, n, trial);
      unsigned long c = cost(trial, n);
      if (c < best_cost) {
        best_cost = c;
        best = type;
        memcpy(row + 1, trial, n);
      }
    }
    row[0] = (uint8_t)best;
  }
  free(trial);
}

int morph_diff_rect(const uint8_t *a, const uint8_t *b, int width, int height, int rect[4]) {
  const uint32_t *pa = (const uint32_t *)a, *pb = (const uint32_t *)b;
  int x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (int y = 0; y < height; y++) {
    const uint32_t *ra = pa + (size_t)y * width, *rb = pb + (size_t)y * width;
    if (memcmp(ra, rb, (size_t)width * 4) == 0) continue;
    int first = 0, last = width - 1;
    while (ra[first] == rb[first]) first++;
    while (ra[last] == rb[last]) last--;
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
    if (y < y0) y0 = y;
    y1 = y;
  }
  if (x1 < 0) return 0;
  rect[0] = x0;
  rect[1] = y0;
  rect[2] = x1 - x0 + 1;
  rect[3] = y1 - y0 + 1;
  return 1;
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
