#include "morph_encode.h"

#include <stdlib.h>
#include <string.h>

// Each filter is its own loop (no branch per byte), so the compiler vectorises it.
static void filter_sub(const uint8_t *restrict cur, size_t n, uint8_t *restrict out) {
  for (size_t i = 0; i < 4 && i < n; i++) out[i] = cur[i];
  for (size_t i = 4; i < n; i++) out[i] = (uint8_t)(cur[i] - cur[i - 4]);
}

static void filter_up(const uint8_t *restrict cur, const uint8_t *restrict prev, size_t n,
                      uint8_t *restrict out) {
  for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
}

static void filter_average(const uint8_t *restrict cur, const uint8_t *restrict prev, size_t n,
                           uint8_t *restrict out) {
  for (size_t i = 0; i < 4 && i < n; i++) out[i] = (uint8_t)(cur[i] - (prev[i] >> 1));
  for (size_t i = 4; i < n; i++) out[i] = (uint8_t)(cur[i] - ((cur[i - 4] + prev[i]) >> 1));
}

static void filter_paeth(const uint8_t *restrict cur, const uint8_t *restrict prev, size_t n,
                         uint8_t *restrict out) {
  for (size_t i = 0; i < 4 && i < n; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
  for (size_t i = 4; i < n; i++) {
    int a = cur[i - 4], b = prev[i], c = prev[i - 4];
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

void morph_png_filter(const uint8_t *pixels, size_t stride, int width, int height,
                      uint8_t *out) {
  size_t n = (size_t)width * 4;
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
    filter_sub(cur, n, trials);
    int types = 2;
    if (y > 0) {
      const uint8_t *prev = cur - stride;
      filter_up(cur, prev, n, trials + n);
      filter_average(cur, prev, n, trials + 2 * n);
      filter_paeth(cur, prev, n, trials + 3 * n);
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
    if (y == 0) filter_sub(cur, n, row + 1);
    else filter_up(cur, cur - stride, n, row + 1);
  }
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

int morph_diff_rect_within(const uint8_t *a, const uint8_t *b, int width, int height,
                           int tolerance, int rect[4]) {
  int x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (int y = 0; y < height; y++) {
    const uint8_t *ra = a + (size_t)y * width * 4, *rb = b + (size_t)y * width * 4;
    if (memcmp(ra, rb, (size_t)width * 4) == 0) continue;
    for (int x = 0; x < width; x++) {
      if (morph_pixel_within(ra + x * 4, rb + x * 4, tolerance)) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
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
