#include "CBaselines.h"
#include <lmdb.h>
#include <sys/stat.h>

int cb_lmdb_replay(const char *path, const cb_put *puts, size_t count,
                   const size_t *batch_ends, size_t batches, size_t map_size) {
    MDB_env *env;
    MDB_dbi dbi[4];
    MDB_txn *txn;
    int rc;
    mkdir(path, 0700);
    if ((rc = mdb_env_create(&env))) return rc;
    mdb_env_set_maxdbs(env, 16);
    mdb_env_set_mapsize(env, map_size);
    if ((rc = mdb_env_open(env, path, MDB_NOTLS, 0600))) { mdb_env_close(env); return rc; }
    if ((rc = mdb_txn_begin(env, NULL, 0, &txn))) goto done;
    const char *names[4] = {"log", "index.deviceTime", "index.keys", "ids"};
    unsigned flags[4] = {MDB_CREATE, MDB_CREATE | MDB_DUPSORT | MDB_DUPFIXED, MDB_CREATE | MDB_DUPSORT | MDB_DUPFIXED, MDB_CREATE};
    for (int i = 0; i < 4; i++) {
        if ((rc = mdb_dbi_open(txn, names[i], flags[i], &dbi[i]))) { mdb_txn_abort(txn); goto done; }
    }
    if ((rc = mdb_txn_commit(txn))) goto done;
    size_t next = 0;
    for (size_t b = 0; b < batches; b++) {
        size_t first = next;
    retry:
        if ((rc = mdb_txn_begin(env, NULL, 0, &txn))) goto done;
        for (next = first; next < batch_ends[b]; next++) {
            const cb_put *p = &puts[next];
            MDB_val k = {p->key_length, (void *)p->key};
            MDB_val v = {p->value_length, (void *)p->value};
            switch (p->database) {
            case 0: rc = mdb_put(txn, dbi[0], &k, &v, MDB_APPEND); break;
            case 3: rc = mdb_put(txn, dbi[3], &k, &v, MDB_NOOVERWRITE); break;
            default:
                rc = mdb_put(txn, dbi[p->database], &k, &v, MDB_APPENDDUP);
                if (rc == MDB_KEYEXIST) rc = mdb_put(txn, dbi[p->database], &k, &v, 0);
            }
            if (rc == MDB_MAP_FULL) break;
            if (rc) { mdb_txn_abort(txn); goto done; }
        }
        if (rc == 0) rc = mdb_txn_commit(txn); else mdb_txn_abort(txn);
        if (rc == MDB_MAP_FULL) {
            /* The store's own policy: double the map and write the batch again. */
            MDB_envinfo info;
            mdb_env_info(env, &info);
            if ((rc = mdb_env_set_mapsize(env, info.me_mapsize * 2))) goto done;
            goto retry;
        }
        if (rc) goto done;
    }
done:
    mdb_env_close(env);
    return rc;
}

/* Walks the named database with a read cursor, moving with `next` (MDB_NEXT: every record;
   MDB_NEXT_NODUP: each key once); returns the count (negative on error), and the sum of
   the value bytes in *bytes when given. */
static long walk(const char *path, const char *database, MDB_cursor_op next, unsigned long long *bytes) {
    MDB_env *env = NULL;
    MDB_txn *txn = NULL;
    MDB_dbi dbi;
    MDB_cursor *cursor = NULL;
    MDB_val key, value;
    long count = 0;
    unsigned long long total = 0;
    int rc = mdb_env_create(&env);
    if (rc) return -1;
    mdb_env_set_maxdbs(env, 16);
    mdb_env_set_mapsize(env, 1ULL << 40);
    rc = mdb_env_open(env, path, MDB_RDONLY | MDB_NOTLS, 0600);
    if (rc == 0) rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
    if (rc == 0) rc = mdb_dbi_open(txn, database, 0, &dbi);
    if (rc == 0) rc = mdb_cursor_open(txn, dbi, &cursor);
    if (rc == 0) {
        MDB_cursor_op op = MDB_FIRST;
        while (mdb_cursor_get(cursor, &key, &value, op) == 0) {
            total += value.mv_size + ((const unsigned char *)value.mv_data)[0];
            count++;
            op = next;
        }
        mdb_cursor_close(cursor);
    }
    if (txn) mdb_txn_abort(txn);
    mdb_env_close(env);
    if (bytes) *bytes = total;
    return rc ? -1 : count;
}

/* Walks every record of the named database, as the simplest reader of the same store
   would; returns the record count (negative on error), and the sum of the value bytes in
   *bytes. */
long cb_lmdb_scan(const char *path, const char *database, unsigned long long *bytes) {
    return walk(path, database, MDB_NEXT, bytes);
}

long cb_lmdb_distinct_keys(const char *path, const char *database) {
    return walk(path, database, MDB_NEXT_NODUP, NULL);
}
