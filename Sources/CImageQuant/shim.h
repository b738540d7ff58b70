#ifndef MORPH_CIMAGEQUANT_SHIM_H
#define MORPH_CIMAGEQUANT_SHIM_H
#include <libimagequant.h>
#endif
