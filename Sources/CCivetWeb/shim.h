#ifndef MORPH_CCIVETWEB_SHIM_H
#define MORPH_CCIVETWEB_SHIM_H
// CivetWeb, the embedded HTTP server `morphhost preview` uses. Debian ships
// no pkg-config file for it, so the module map links it by name.
#include <civetweb.h>
#endif
