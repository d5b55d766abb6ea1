/*
 * db_sqlite.c - the store's SQLite backend (one file, no server).
 *
 * The file keeps SQLite's default rollback journal rather than WAL: a
 * store is then one file that can be copied, archived or put on a
 * read-only medium, with no -wal and -shm companions. Writers take the
 * write lock when their transaction begins (BEGIN IMMEDIATE) and wait up
 * to the busy timeout for another writer, so two CI jobs saving at once
 * queue; a crash or Ctrl-C in the middle of a transaction leaves the
 * journal, which SQLite rolls back on the next open.
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/common.h"
#include "db.h"

struct sdb {
    struct bl__db base;
    sqlite3 *h;
};

struct bl__stmt {
    struct sdb *db;
    sqlite3_stmt *s;
};

/* SQLite's result code as a benchlab error; the message goes to db->msg. */
static int fail(struct sdb *db, int rc)
{
    snprintf(db->base.msg, sizeof db->base.msg, "%s",
             db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
    db->base.damaged = (rc & 0xff) == SQLITE_CORRUPT;
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return -EBUSY;
    case SQLITE_READONLY:
        return -EROFS;
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        return BL_EFORMAT;
    case SQLITE_CANTOPEN:
        return -ENOENT;
    case SQLITE_PERM:
    case SQLITE_AUTH:
        return -EACCES;
    case SQLITE_FULL:
        return -ENOSPC;
    case SQLITE_NOMEM:
        return -ENOMEM;
    case SQLITE_CONSTRAINT:
        return -EEXIST;
    case SQLITE_INTERRUPT:
        return BL_EINTR;
    default:
        return -EIO;
    }
}

static int s_exec(struct bl__db *d, const char *sql)
{
    struct sdb *db = (struct sdb *)d;
    int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : fail(db, rc);
}

static int s_prepare(struct bl__db *d, const char *sql, struct bl__stmt **out)
{
    struct sdb *db = (struct sdb *)d;
    struct bl__stmt *st = calloc(1, sizeof *st);
    if (!st)
        return -ENOMEM;
    st->db = db;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st->s, NULL);
    if (rc != SQLITE_OK) {
        free(st);
        return fail(db, rc);
    }
    *out = st;
    return 0;
}

static int bound(struct bl__stmt *st, int rc)
{
    return rc == SQLITE_OK ? 0 : fail(st->db, rc);
}

static int s_bind_int(struct bl__stmt *st, int idx, int64_t v)
{
    return bound(st, sqlite3_bind_int64(st->s, idx, v));
}

static int s_bind_double(struct bl__stmt *st, int idx, double v)
{
    return bound(st, isnan(v) ? sqlite3_bind_null(st->s, idx) : sqlite3_bind_double(st->s, idx, v));
}

static int s_bind_text(struct bl__stmt *st, int idx, const char *s)
{
    if (!s)
        return bound(st, sqlite3_bind_null(st->s, idx));
    int oom = 0;
    char *clean = bl__utf8_clean(s, &oom);
    if (oom)
        return -ENOMEM;
    int rc = sqlite3_bind_text(st->s, idx, clean ? clean : s, -1, SQLITE_TRANSIENT);
    free(clean);
    return bound(st, rc);
}

static int s_step(struct bl__stmt *st)
{
    int rc = sqlite3_step(st->s);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return fail(st->db, rc);
}

static int64_t s_column_int(struct bl__stmt *st, int col)
{
    return sqlite3_column_int64(st->s, col);
}

static double s_column_double(struct bl__stmt *st, int col)
{
    if (sqlite3_column_type(st->s, col) == SQLITE_NULL)
        return NAN;
    return sqlite3_column_double(st->s, col);
}

static const char *s_column_text(struct bl__stmt *st, int col)
{
    return (const char *)sqlite3_column_text(st->s, col);
}

static void s_reset(struct bl__stmt *st)
{
    sqlite3_reset(st->s);
    sqlite3_clear_bindings(st->s);
}

static void s_finalize(struct bl__stmt *st)
{
    if (!st)
        return;
    sqlite3_finalize(st->s);
    free(st);
}

static int s_begin(struct bl__db *d, int mode)
{
    return s_exec(d, mode == BL__TX_READ ? "BEGIN" : "BEGIN IMMEDIATE");
}

static int s_commit(struct bl__db *d)
{
    return s_exec(d, "COMMIT");
}

static void s_rollback(struct bl__db *d)
{
    struct sdb *db = (struct sdb *)d;
    if (!sqlite3_get_autocommit(db->h))
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

static void s_close(struct bl__db *d)
{
    struct sdb *db = (struct sdb *)d;
    if (!db)
        return;
    sqlite3_close_v2(db->h);
    free(db);
}

static const struct bl__db_ops sqlite_ops = {
    .name = "sqlite",
    .id_type = "INTEGER PRIMARY KEY",
    .tables_sql = "SELECT name FROM sqlite_master WHERE type = 'table'",
    .exec = s_exec,
    .prepare = s_prepare,
    .bind_int = s_bind_int,
    .bind_double = s_bind_double,
    .bind_text = s_bind_text,
    .step = s_step,
    .column_int = s_column_int,
    .column_double = s_column_double,
    .column_text = s_column_text,
    .reset = s_reset,
    .finalize = s_finalize,
    .begin = s_begin,
    .commit = s_commit,
    .rollback = s_rollback,
    .close = s_close,
};

int bl__db_sqlite_open(const char *path, int create, int busy_ms, struct bl__db **out, char *msg,
                       size_t msg_size)
{
    struct sdb *db = calloc(1, sizeof *db);
    if (!db)
        return -ENOMEM;
    db->base.ops = &sqlite_ops;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    int rc = sqlite3_open_v2(path, &db->h, flags, NULL);
    if (rc != SQLITE_OK) {
        int err = fail(db, rc);
        snprintf(msg, msg_size, "%s", db->base.msg);
        s_close(&db->base);
        return err;
    }
    sqlite3_extended_result_codes(db->h, 1);
    sqlite3_busy_timeout(db->h, busy_ms);
    /* Cascading deletes keep a run's rows together (bl_store_delete). */
    rc = sqlite3_exec(db->h, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        int err = fail(db, rc);
        snprintf(msg, msg_size, "%s", db->base.msg);
        s_close(&db->base);
        return err;
    }
    *out = &db->base;
    return 0;
}
