#include "CChecksum.h"
#include <isa-l/crc.h>
#include <limits.h>
#include <string.h>

/* From this length on, ISA-L's CRC-32C (several lanes folded with carry-less
   multiplication) is faster than one instruction after another; below it, its
   set-up costs more than it saves. */
enum { cs_isal_from = 384 };

#if defined(__x86_64__)
int cs_crc32c_hardware_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") ? 1 : 0;
}

__attribute__((target("sse4.2")))
uint32_t cs_crc32c_hardware(uint32_t crc, const void *data, size_t length) {
    const unsigned char *p = data;
    if (length >= cs_isal_from) {
        while (length > 0) {
            int part = length > (size_t)INT_MAX ? INT_MAX : (int)length;
            crc = crc32_iscsi((unsigned char *)p, part, crc);
            p += part;
            length -= (size_t)part;
        }
        return crc;
    }
    uint64_t c = crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        length -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (length--) c32 = __builtin_ia32_crc32qi(c32, *p++);
    return c32;
}
#else
int cs_crc32c_hardware_available(void) { return 0; }
uint32_t cs_crc32c_hardware(uint32_t crc, const void *data, size_t length) { (void)data; (void)length; return crc; }
#endif
