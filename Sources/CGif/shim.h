#ifndef MORPH_CGIF_SHIM_H
#define MORPH_CGIF_SHIM_H
#include <gif_lib.h>
#endif
