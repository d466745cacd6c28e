#ifndef CMIMALLOC_SHIM_H
#define CMIMALLOC_SHIM_H
#include <mimalloc.h>
#endif
