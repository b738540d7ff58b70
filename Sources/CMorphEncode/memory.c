#include <stdlib.h>

#include "morph_encode.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void morph_map_large_buffers(size_t bytes) {
#if defined(__GLIBC__)
  int threshold = bytes > 0x3fffffff ? 0x3fffffff : (int)bytes;
  mallopt(M_MMAP_THRESHOLD, threshold);
  /* Fixing the mmap threshold also fixes the trim threshold at 128 KiB;
     glibc's own adjustment keeps it at twice the mmap threshold, so the
     heap is not given back and faulted in again for every small frame. */
  mallopt(M_TRIM_THRESHOLD, 2 * threshold);
#else
  (void)bytes;
#endif
}
