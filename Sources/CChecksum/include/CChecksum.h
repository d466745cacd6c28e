#ifndef CCHECKSUM_H
#define CCHECKSUM_H
#include <stddef.h>
#include <stdint.h>

/* Whether the processor has the SSE 4.2 CRC-32C instruction. */
int cs_crc32c_hardware_available(void);

/* Continues a CRC-32C (Castagnoli) with the processor's instruction (ISA-L's folding
   implementation for buffers of a few hundred bytes and more); call only when
   cs_crc32c_hardware_available() returned 1. `crc` is the running value (0 to start),
   without pre- or post-inversion: the caller inverts. */
uint32_t cs_crc32c_hardware(uint32_t crc, const void *data, size_t length);

#endif
