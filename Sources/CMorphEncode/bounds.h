#ifndef MORPH_ENCODE_BOUNDS_H
#define MORPH_ENCODE_BOUNDS_H
// Private to CMorphEncode: the change rectangles of APNG and GIF frames.

// The bounding box of changed pixels, grown a run at a time.
struct bounds {
  int x0, y0, x1, y1;
};

static inline void bounds_add(struct bounds *b, int first, int last, int y) {
  if (first < b->x0) b->x0 = first;
  if (last > b->x1) b->x1 = last;
  if (y < b->y0) b->y0 = y;
  b->y1 = y;
}

// The box as x, y, width, height; 0 when nothing was added.
static inline int bounds_rect(const struct bounds *b, int rect[4]) {
  if (b->x1 < 0) return 0;
  rect[0] = b->x0;
  rect[1] = b->y0;
  rect[2] = b->x1 - b->x0 + 1;
  rect[3] = b->y1 - b->y0 + 1;
  return 1;
}

#endif
