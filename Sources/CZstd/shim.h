#ifndef CZSTD_SHIM_H
#define CZSTD_SHIM_H
#include <zstd.h>
#endif
