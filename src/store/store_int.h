/*
 * store_int.h - internals shared by the files of libbenchlab-store:
 * store.c (opening, the schema, runs, references, baselines), save.c
 * (writing runs, and checking a store before a run), load.c (reading
 * runs and history), git.c.
 */
#ifndef BENCHLAB_STORE_STORE_INT_H
#define BENCHLAB_STORE_STORE_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "benchlab/store.h"
#include "db.h"

struct bl_store {
    struct bl__db *db;
    char *name;           /* for messages: the path, or the URI without its password */
    long version;         /* its schema version: BL_STORE_SCHEMA_VERSION, or an older one
                             that could not be migrated (read only; load.c reads it as is) */
    char unmigrated[512]; /* why it could not be migrated (db->msg); "" when it was */
};

/* benchlab_meta's format of a benchlab store. */
#define BL__STORE_FORMAT "benchlab-store"

/* ---- schema.c ---- */
/* Create the tables of a new store (version 1, then every migration) and
 * its benchlab_meta, inside the caller's schema transaction. 0 or an error. */
int bl__store_create_schema(bl_store *store);
/* Migrate a store of version `from` to BL_STORE_SCHEMA_VERSION, inside the
 * caller's schema transaction. 0 or an error (the caller rolls back). */
int bl__store_migrate(bl_store *store, long from);

/* 0 when runs can be saved into s (its schema is current), else -EROFS
 * with one line in err saying that the older schema could not be migrated. */
int bl__store_check_current(const bl_store *s, char *err, size_t err_size);

/* Whether spec is a PostgreSQL URI ("postgresql://", "postgres://"). */
int bl__store_is_pg_spec(const char *spec);

/* `spec`, or for NULL or "" the default store's (bl_store_default_spec,
 * written into def[def_size]); NULL with the reason in err when the
 * default path does not fit. */
const char *bl__store_spec_or_default(const char *spec, char *def, size_t def_size, char *err,
                                      size_t err_size);

/* Shorthands over the backend's operations. */
#define DB_OPS(store) ((store)->db->ops)

/*
 * Put "store NAME: <what>: <the engine's message>" in err and return rc.
 * `what` is a printf format.
 */
int bl__store_fail(const bl_store *store, int rc, char *err, size_t err_size, const char *what, ...)
    __attribute__((format(printf, 5, 6)));

/* Prepare sql, or fail with a message. */
int bl__store_prepare(bl_store *store, const char *sql, struct bl__stmt **st, char *err,
                      size_t err_size);

/* strdup of a column's text, NULL for NULL. Sets *oom when a copy fails. */
char *bl__col_strdup(bl_store *store, struct bl__stmt *st, int col, int *oom);

/* The run columns every query of runs selects, "r" being runs, and the
 * reading of one such row (columns from `first` on) into *run. */
extern const char bl__run_cols[];
int bl__read_run(bl_store *store, struct bl__stmt *st, int first, bl_store_run *run);

/* The current time as "2024-06-11T15:30:12Z". */
void bl__utc_now(char *out, size_t size);

/* ---- git.c ---- */
struct bl__git_facts {
    char commit[64]; /* "" outside git */
    char branch[256];
    int dirty; /* -1 unknown */
};
/* Top level of the work tree holding `dir` (NULL: the current directory). 0 or -1. */
int bl__git_toplevel(const char *dir, char *out, size_t size);
void bl__git_facts(const char *dir, struct bl__git_facts *facts);
/* A revision to its full commit id. 0, or -1 when git does not know it. */
int bl__git_resolve(const char *dir, const char *rev, char *sha, size_t size);
/* Whether commit a is an ancestor of b (or b itself): 1, 0, or -1 when git
 * cannot say (no git, a commit it does not have). */
int bl__git_is_ancestor(const char *dir, const char *a, const char *b);

#endif /* BENCHLAB_STORE_STORE_INT_H */
