#ifndef MORPH_ENCODE_H
#define MORPH_ENCODE_H
// Pixel loops behind morphhost's encoders (PNG rows, frame differences), in C
// so they stay fast in debug builds too. Pixels are 8-bit RGBA, straight alpha.
#include <stddef.h>
#include <stdint.h>

// Filters `height` rows of `width` pixels (`stride` bytes apart, `channels`
// bytes a pixel: 4 for RGBA, 3 for RGB, 1 for palette indices) for PNG: each output row is a filter
// type byte, then width * channels filtered bytes. The filter of each row is
// the one with the smallest sum of absolute values (libpng's heuristic), so
// the result depends on the pixels alone; palette indices are not filtered.
void morph_png_filter(const uint8_t *pixels, size_t stride, int width, int height, int channels,
                      uint8_t *out);

// As morph_png_filter, but without the search: the first row is filtered
// with Sub and every other row with Up, one pass over the pixels. For
// frames streamed to the preview, where time matters more than size.
void morph_png_filter_up(const uint8_t *pixels, size_t stride, int width, int height,
                         uint8_t *out);

// As morph_png_filter (3 or 4 channels), but every row with the one filter `type` (0 None,
// 1 Sub, 2 Up, 3 Average, 4 Paeth; the first row reads a row of zeros above it). An
// optimising encoder tries each and keeps whichever compresses smallest.
void morph_png_filter_fixed(const uint8_t *pixels, size_t stride, int width, int height,
                            int channels, int type, uint8_t *out);

// 1 when every one of `count` RGBA pixels is opaque.
int morph_opaque(const uint8_t *pixels, size_t count);

// Copies `rect` of the RGBA image `pixels` (`width` wide) to `out` as tightly
// packed RGB, dropping alpha.
void morph_crop_rgb(const uint8_t *pixels, int width, const int rect[4], uint8_t *out);

// The smallest rectangle holding every pixel where `a` and `b` (both width x
// height, tightly packed) differ, as x, y, width, height in `rect`. Returns 0
// (and leaves `rect` alone) when the images are identical.
int morph_diff_rect(const uint8_t *a, const uint8_t *b, int width, int height, int rect[4]);

// As morph_diff_rect, for images of one byte a pixel (palette indices).
int morph_diff_rect_indices(const uint8_t *a, const uint8_t *b, int width, int height,
                            int rect[4]);

// Copies `rect` of the palette indices `indices` (`width` wide) to `out`
// (tightly packed); with `transparent_index` >= 0, a pixel whose index
// equals `screen`'s (what the viewer shows) becomes that index. Returns 1
// when every pixel copied with its own index has `opaque[index]` set (so the
// rectangle may blend over what is shown), else 0.
int morph_crop_indices(const uint8_t *screen, const uint8_t *indices, int width, const int rect[4],
                       const uint8_t opaque[256], int transparent_index, uint8_t *out);

// 1 when every pixel of `b` inside `rect` that differs from `a` is opaque.
int morph_changes_opaque(const uint8_t *a, const uint8_t *b, int width, const int rect[4]);

// Copies `rect` of `b` to `out` (tightly packed); with `clear_unchanged`,
// pixels equal in `a` become transparent black.
void morph_crop(const uint8_t *a, const uint8_t *b, int width, const int rect[4],
                int clear_unchanged, uint8_t *out);

// GIF frame differences. `screen` is the colour the viewer shows at each
// pixel (packed RGBA words), `source` the frame's true RGBA pixels and
// `display` the colour its new palette would show. A pixel is unchanged
// when what the screen shows is at most `tolerance` levels (summed over R, G
// and B) further from the true colour than the new palette's colour: keeping
// it is never noticeably worse than storing it again, and the error cannot
// drift, as it is judged against the truth of each frame. With `lossy` > 0,
// a pixel the screen shows within `lossy` levels a channel of its truth is
// unchanged too (as `morph_gif_encode` keeps it). The rectangle holding every
// changed pixel goes to `rect`; returns 0 when there is none.
int morph_gif_changes(const uint32_t *screen, const uint8_t *source, const uint32_t *display,
                      int width, int height, int tolerance, int lossy, int rect[4]);

// Copies `rect` of `indices` (`width` wide) to `out` (tightly packed), each
// pixel unchanged by the rule of morph_gif_changes as `transparent_index`;
// `screen` takes the display colour of every pixel stored.
void morph_crop_kept(uint32_t *screen, const uint8_t *source, const uint32_t *display,
                     const uint8_t *indices, int width, const int rect[4], int tolerance,
                     uint8_t transparent_index, uint8_t *out);

// How a GIF frame's pixels may choose their symbols.
enum morph_gif_mode {
  // A whole opaque frame: each pixel a palette colour.
  MORPH_GIF_WHOLE = 0,
  // A changed rectangle over the previous frame: pixels unchanged by the
  // rule of morph_gif_changes may also be transparent.
  MORPH_GIF_CHANGES = 1,
  // Each pixel exactly its index (transparent animations).
  MORPH_GIF_EXACT = 2,
};

// One frame (or its changed rectangle) to code; arrays are the whole frame's.
struct morph_gif_image {
  // What the viewer shows at each pixel; updated with what it will show. May
  // be NULL in MORPH_GIF_EXACT mode.
  uint32_t *screen;
  const uint8_t *source;    // the true RGBA pixels
  const uint32_t *display;  // the colour of each pixel's quantised index (NULL: EXACT mode)
  const uint8_t *indices;   // each pixel's quantised index
  const uint32_t *colors;   // the palette, packed RGBA words
  int color_count;
  int width;  // of the whole frame
  int rect_x, rect_y, rect_width, rect_height;
  // Levels (summed) by which a kept pixel may be further from its truth
  // than its quantised colour, as in morph_gif_changes.
  int tolerance;
  // With lossy > 0, any colour (or keeping the screen) within `lossy` levels a channel.
  int lossy;
  int mode;  // an enum morph_gif_mode
  // The LZW minimum code size, 2 to 8: the image's symbols (every index and
  // the transparent one, which is no colour: at least color_count) are below
  // 1 << code_size.
  int code_size;
  uint8_t transparent_index;
};

// Codes the rectangle as GIF image data (minimum code size `code_size`): LZW sub-blocks,
// each led by its length, without the terminating empty block. Each pixel
// takes, of the symbols it accepts, the one that makes the string being
// coded longest (gif.c). `screen` takes the colours the viewer will show.
// The bytes go to `*out` (malloc'd; the caller frees them); returns their
// count, or 0 when memory ran out or the code size cannot hold the colours.
size_t morph_gif_encode(const struct morph_gif_image *image, uint8_t **out);

// Buffers of at least `bytes` are mapped on their own and unmapped when freed
// (glibc's M_MMAP_THRESHOLD, fixed; elsewhere nothing changes), so freed
// frames leave the process instead of staying in a thread's arena (memory.c).
void morph_map_large_buffers(size_t bytes);

#endif
