#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// Turns off SQLite's memory statistics, whose mutex every allocation takes. Effective
/// only before SQLite is initialized (the first connection opened); returns SQLITE_OK or
/// SQLITE_MISUSE (already initialized).
static inline int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
