#ifndef CBASELINES_H
#define CBASELINES_H
#include <stddef.h>
#include <stdint.h>

/* One put of the store's write path, replayed by the baselines. */
typedef struct {
    const void *key;
    size_t key_length;
    const void *value;
    size_t value_length;
    /* 0 log, 1 (device, time) index, 2 key index, 3 id table */
    uint32_t database;
} cb_put;

/* Replays `puts` into a new LMDB environment at `path` with plain mdb_put calls, one
   durable transaction per batch (`batch_ends[i]` is the index after batch i), starting
   from a map of `map_size` bytes and doubling it when full, as the store does. The log is
   appended with MDB_APPEND, index values with MDB_APPENDDUP (falling back to a plain put
   when out of order), ids with MDB_NOOVERWRITE: the same calls the store makes.
   Returns 0 or an LMDB error code. */
int cb_lmdb_replay(const char *path, const cb_put *puts, size_t count,
                   const size_t *batch_ends, size_t batches, size_t map_size);

/* Stores the same records and index entries in SQLite (WAL, synchronous=FULL), one
   transaction per batch: tables log(seq, record), device_time(device, time, seq),
   keys(key, seq), ids(id, seq), each with its primary-key index. Returns 0 or an
   SQLite error code. */
int cb_sqlite_replay(const char *path, const cb_put *puts, size_t count,
                     const size_t *batch_ends, size_t batches);

long cb_lmdb_scan(const char *path, const char *database, unsigned long long *bytes);

/* The number of distinct keys of a DUPSORT database (each key once, however many values). */
long cb_lmdb_distinct_keys(const char *path, const char *database);

/* The first column of the first row of `sql` (a count) on the SQLite file, or -1. */
long cb_sqlite_distinct(const char *path, const char *sql);

#endif
