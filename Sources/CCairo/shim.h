#ifndef MORPH_CCAIRO_SHIM_H
#define MORPH_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#endif
