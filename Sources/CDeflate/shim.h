#ifndef MORPH_CDEFLATE_SHIM_H
#define MORPH_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
