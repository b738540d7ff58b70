#ifndef MORPH_CPANGO_SHIM_H
#define MORPH_CPANGO_SHIM_H
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#endif
