#ifndef MORPH_CZOPFLI_SHIM_H
#define MORPH_CZOPFLI_SHIM_H
#include <stdlib.h>
#include <zopfli/zopfli.h>
#include <zopfli/deflate.h>
#endif
