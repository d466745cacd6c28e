#include "CBaselines.h"
#include <sqlite3.h>
#include <string.h>

static uint64_t be64(const void *p) {
    const unsigned char *b = p;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | b[i];
    return v;
}

int cb_sqlite_replay(const char *path, const cb_put *puts, size_t count,
                     const size_t *batch_ends, size_t batches) {
    sqlite3 *db;
    int rc = sqlite3_open(path, &db);
    if (rc) return rc;
    const char *setup =
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
        "CREATE TABLE log(seq INTEGER PRIMARY KEY, record BLOB NOT NULL);"
        "CREATE TABLE device_time(device BLOB, time INTEGER, seq INTEGER, PRIMARY KEY(device, time, seq)) WITHOUT ROWID;"
        "CREATE TABLE keys(key BLOB, seq INTEGER, PRIMARY KEY(key, seq)) WITHOUT ROWID;"
        "CREATE TABLE ids(id BLOB PRIMARY KEY, seq INTEGER) WITHOUT ROWID;";
    if ((rc = sqlite3_exec(db, setup, 0, 0, 0))) goto done;
    sqlite3_stmt *st[4];
    const char *sql[4] = {
        "INSERT INTO log(seq, record) VALUES(?1, ?2)",
        "INSERT INTO device_time(device, time, seq) VALUES(?1, ?2, ?3)",
        "INSERT INTO keys(key, seq) VALUES(?1, ?2)",
        "INSERT OR IGNORE INTO ids(id, seq) VALUES(?1, ?2)",
    };
    for (int i = 0; i < 4; i++) {
        if ((rc = sqlite3_prepare_v2(db, sql[i], -1, &st[i], 0))) goto done;
    }
    size_t next = 0;
    for (size_t b = 0; b < batches && rc == 0; b++) {
        if ((rc = sqlite3_exec(db, "BEGIN", 0, 0, 0))) break;
        for (; next < batch_ends[b]; next++) {
            const cb_put *p = &puts[next];
            sqlite3_stmt *s = st[p->database];
            switch (p->database) {
            case 0:
                sqlite3_bind_int64(s, 1, (sqlite3_int64)be64(p->key));
                sqlite3_bind_blob(s, 2, p->value, (int)p->value_length, SQLITE_STATIC);
                break;
            case 1:
                sqlite3_bind_blob(s, 1, p->key, (int)p->key_length, SQLITE_STATIC);
                sqlite3_bind_int64(s, 2, (sqlite3_int64)be64(p->value));
                sqlite3_bind_int64(s, 3, (sqlite3_int64)be64((const char *)p->value + 8));
                break;
            case 2:
                /* The whole key (namespace byte and string id), as the ledger's index holds it. */
                sqlite3_bind_blob(s, 1, p->key, (int)p->key_length, SQLITE_STATIC);
                sqlite3_bind_int64(s, 2, (sqlite3_int64)be64(p->value));
                break;
            default:
                sqlite3_bind_blob(s, 1, p->key, (int)p->key_length, SQLITE_STATIC);
                sqlite3_bind_int64(s, 2, (sqlite3_int64)be64(p->value));
            }
            rc = sqlite3_step(s);
            sqlite3_reset(s);
            if (rc != SQLITE_DONE) break;
            rc = 0;
        }
        if (rc) break;
        rc = sqlite3_exec(db, "COMMIT", 0, 0, 0);
    }
    for (int i = 0; i < 4; i++) sqlite3_finalize(st[i]);
done:
    sqlite3_close(db);
    return rc;
}

long cb_sqlite_distinct(const char *path, const char *sql) {
    sqlite3 *db;
    long n = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, 0) == SQLITE_OK) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, sql, -1, &st, 0) == SQLITE_OK) {
            if (sqlite3_step(st) == SQLITE_ROW) n = (long)sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(db);
    return n;
}
