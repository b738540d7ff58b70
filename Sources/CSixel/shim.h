#ifndef MORPH_CSIXEL_SHIM_H
#define MORPH_CSIXEL_SHIM_H
#include <sixel.h>
#endif
