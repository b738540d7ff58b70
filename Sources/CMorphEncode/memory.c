#include <stdlib.h>

#include "morph_encode.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void morph_map_large_buffers(size_t bytes) {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, bytes > 0x7fffffff ? 0x7fffffff : (int)bytes);
#else
  (void)bytes;
#endif
}
