/*
 * db.h - the one backend interface of the results store, with two
 * implementations: SQLite (db_sqlite.c) and PostgreSQL through libpq
 * (db_pg.c).
 *
 * The interface is a small SQL driver: prepared statements with '?'
 * placeholders (the PostgreSQL driver rewrites them to $1, $2...),
 * positional binds, a step that yields rows, and transactions. Every
 * statement of the store (store.c, save.c, load.c) is written once in the
 * SQL that both engines accept; only the schema's few type words differ
 * (bl__db_ops.id_type). NaN travels as NULL both ways, so that both
 * engines store the same thing for "no value".
 *
 * Errors: negative codes as everywhere in benchlab (-EBUSY locked,
 * -EROFS read-only, BL_EFORMAT not a database, -ECONNREFUSED server
 * unreachable, -EIO otherwise) with the engine's own words in db->msg.
 */
#ifndef BENCHLAB_STORE_DB_H
#define BENCHLAB_STORE_DB_H

#include <stddef.h>
#include <stdint.h>

struct bl__db;
struct bl__stmt;

struct bl__db_ops {
    const char *name;    /* "sqlite", "postgresql" */
    const char *id_type; /* the auto-numbered primary key column type */
    /* A query of the names of the tables in the store's schema. */
    const char *tables_sql;
    /* One or more statements without parameters or results (schema, BEGIN). */
    int (*exec)(struct bl__db *db, const char *sql);
    int (*prepare)(struct bl__db *db, const char *sql, struct bl__stmt **out);
    /* Binds are 1-based; text is copied; NULL text and NaN bind NULL. */
    int (*bind_int)(struct bl__stmt *st, int idx, int64_t v);
    int (*bind_double)(struct bl__stmt *st, int idx, double v);
    int (*bind_text)(struct bl__stmt *st, int idx, const char *s);
    /* 1: a row is ready; 0: done; < 0: error (message in db->msg). */
    int (*step)(struct bl__stmt *st);
    /* Columns are 0-based. NULL reads as 0, NAN and NULL respectively.
     * Text is borrowed until the next step, reset or finalize. */
    int64_t (*column_int)(struct bl__stmt *st, int col);
    double (*column_double)(struct bl__stmt *st, int col);
    const char *(*column_text)(struct bl__stmt *st, int col);
    /* Ready to bind and step again. */
    void (*reset)(struct bl__stmt *st);
    void (*finalize)(struct bl__stmt *st); /* NULL is fine */
    /* Transactions (enum bl__tx). A write transaction takes the write
     * lock at once (SQLite: BEGIN IMMEDIATE, waiting up to the busy
     * timeout), so that two writers queue instead of failing halfway; a
     * schema transaction also excludes other schema transactions
     * (PostgreSQL: an advisory lock), so that two first saves into an
     * empty database do not both create the tables. */
    int (*begin)(struct bl__db *db, int mode);
    int (*commit)(struct bl__db *db);
    void (*rollback)(struct bl__db *db);
    void (*close)(struct bl__db *db);
};

enum bl__tx { BL__TX_READ, BL__TX_WRITE, BL__TX_SCHEMA };

struct bl__db {
    const struct bl__db_ops *ops;
    char msg[512]; /* the last error in the engine's words */
    int damaged;   /* the last error was a damaged file (SQLite's SQLITE_CORRUPT) */
};

/*
 * Text must be valid UTF-8 for PostgreSQL, and benchmark output or names
 * may not be: both drivers store invalid bytes as '?', so both backends
 * hold the same text. Returns NULL when s is valid (use it as is), else a
 * cleaned copy the caller frees (also NULL when memory runs out: *oom).
 */
char *bl__utf8_clean(const char *s, int *oom);

/*
 * Open the SQLite file at `path`; with `create`, create it (not its
 * directory) when missing. `busy_ms` is how long a write waits for another
 * writer's lock. 0 or an error with db's message in msg.
 */
int bl__db_sqlite_open(const char *path, int create, int busy_ms, struct bl__db **out, char *msg,
                       size_t msg_size);

/* Connect to PostgreSQL with a libpq connection URI or string. */
int bl__db_pg_open(const char *conninfo, int busy_ms, struct bl__db **out, char *msg,
                   size_t msg_size);

#endif /* BENCHLAB_STORE_DB_H */
