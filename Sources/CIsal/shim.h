#ifndef CISAL_SHIM_H
#define CISAL_SHIM_H
#include <isa-l/igzip_lib.h>
#endif
