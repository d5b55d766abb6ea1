/*
 * db_pg.c - the store's PostgreSQL backend, through libpq.
 *
 * Statements are written with '?' placeholders for both backends; here
 * they become $1, $2... and are prepared on the connection under names of
 * their own. Parameters and results travel as text (libpq's default):
 * doubles are written with 17 significant digits, which read back to the
 * same double, NaN as NULL and infinities as PostgreSQL spells them.
 *
 * Concurrency is the server's: writers of different runs do not block
 * each other, writers of one run (shards sharing a run id) queue on its
 * row. The lock timeout is the store's busy timeout. A schema transaction
 * takes a transaction-scoped advisory lock so that two first saves into
 * an empty database do not both create the tables.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/common.h"
#include "db.h"

/* pg_advisory_xact_lock key for schema changes: "bench" in ASCII. */
#define SCHEMA_LOCK_KEY "426256206368"

/* The most parameters of one statement: a multi-row insert of batches. */
#define MAX_PARAMS 1024

struct pdb {
    struct bl__db base;
    PGconn *conn;
    unsigned next_name;
};

struct bl__stmt {
    struct pdb *db;
    char name[24];
    int n_params;
    char *params[MAX_PARAMS];
    PGresult *res;
    int row, n_rows; /* row is the current one after step, -1 before */
};

/* The first line of libpq's message, without its "ERROR:  " prefix. */
static void set_msg(struct pdb *db, const char *m)
{
    if (!m || !*m)
        m = "unknown error";
    if (strncmp(m, "ERROR:  ", 8) == 0)
        m += 8;
    size_t n = strcspn(m, "\n");
    snprintf(db->base.msg, sizeof db->base.msg, "%.*s", (int)n, m);
}

/* A failed result as a benchlab error (by SQLSTATE). */
static int fail_res(struct pdb *db, PGresult *res)
{
    set_msg(db, res ? PQresultErrorMessage(res) : PQerrorMessage(db->conn));
    if (PQstatus(db->conn) != CONNECTION_OK)
        return -ECONNRESET;
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    if (!state)
        return -EIO;
    if (strcmp(state, "55P03") == 0 || strcmp(state, "40P01") == 0 || strcmp(state, "40001") == 0)
        return -EBUSY; /* lock not available, deadlock, serialization failure */
    if (strcmp(state, "25006") == 0)
        return -EROFS; /* read-only transaction (a hot standby) */
    if (strcmp(state, "42501") == 0)
        return -EACCES;
    if (strncmp(state, "23", 2) == 0)
        return -EEXIST; /* integrity constraint */
    if (strcmp(state, "53100") == 0)
        return -ENOSPC;
    if (strcmp(state, "57014") == 0)
        return BL_EINTR;
    return -EIO;
}

static int p_exec(struct bl__db *d, const char *sql)
{
    struct pdb *db = (struct pdb *)d;
    PGresult *res = PQexec(db->conn, sql);
    ExecStatusType s = PQresultStatus(res);
    int rc = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ? 0 : fail_res(db, res);
    PQclear(res);
    return rc;
}

static int p_prepare(struct bl__db *d, const char *sql, struct bl__stmt **out)
{
    struct pdb *db = (struct pdb *)d;
    struct bl__stmt *st = calloc(1, sizeof *st);
    char *text = malloc(strlen(sql) * 3 + 1);
    if (!st || !text) {
        free(st);
        free(text);
        return -ENOMEM;
    }
    /* '?' -> $n; the store's SQL has no '?' inside string literals */
    char *w = text;
    int n = 0;
    for (const char *p = sql; *p; p++) {
        if (*p == '?')
            w += sprintf(w, "$%d", ++n);
        else
            *w++ = *p;
    }
    *w = '\0';
    if (n > MAX_PARAMS) {
        free(text);
        free(st);
        snprintf(d->msg, sizeof d->msg, "statement has %d parameters, more than %d", n, MAX_PARAMS);
        return -E2BIG;
    }
    st->db = db;
    st->n_params = n;
    st->row = -1;
    snprintf(st->name, sizeof st->name, "bl%u", db->next_name++);
    PGresult *res = PQprepare(db->conn, st->name, text, 0, NULL);
    free(text);
    int rc = PQresultStatus(res) == PGRES_COMMAND_OK ? 0 : fail_res(db, res);
    PQclear(res);
    if (rc) {
        free(st);
        return rc;
    }
    *out = st;
    return 0;
}

static int set_param(struct bl__stmt *st, int idx, const char *text)
{
    if (idx < 1 || idx > st->n_params) {
        snprintf(st->db->base.msg, sizeof st->db->base.msg, "no parameter %d", idx);
        return -EINVAL;
    }
    char *copy = NULL;
    if (text && !(copy = strdup(text)))
        return -ENOMEM;
    free(st->params[idx - 1]);
    st->params[idx - 1] = copy;
    return 0;
}

static int p_bind_int(struct bl__stmt *st, int idx, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    return set_param(st, idx, buf);
}

static int p_bind_double(struct bl__stmt *st, int idx, double v)
{
    char buf[40];
    if (isnan(v))
        return set_param(st, idx, NULL);
    if (isinf(v))
        return set_param(st, idx, v > 0 ? "Infinity" : "-Infinity");
    snprintf(buf, sizeof buf, "%.17g", v);
    return set_param(st, idx, buf);
}

static int p_bind_text(struct bl__stmt *st, int idx, const char *s)
{
    int oom = 0;
    char *clean = s ? bl__utf8_clean(s, &oom) : NULL;
    if (oom)
        return -ENOMEM;
    int rc = set_param(st, idx, clean ? clean : s);
    free(clean);
    return rc;
}

static int p_step(struct bl__stmt *st)
{
    struct pdb *db = st->db;
    if (!st->res) {
        st->res = PQexecPrepared(db->conn, st->name, st->n_params, (const char *const *)st->params,
                                 NULL, NULL, 0);
        ExecStatusType s = PQresultStatus(st->res);
        if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
            int rc = fail_res(db, st->res);
            PQclear(st->res);
            st->res = NULL;
            return rc;
        }
        st->n_rows = s == PGRES_TUPLES_OK ? PQntuples(st->res) : 0;
        st->row = -1;
    }
    if (st->row + 1 < st->n_rows) {
        st->row++;
        return 1;
    }
    return 0;
}

static const char *cell(struct bl__stmt *st, int col)
{
    if (!st->res || st->row < 0 || st->row >= st->n_rows || col >= PQnfields(st->res) ||
        PQgetisnull(st->res, st->row, col))
        return NULL;
    return PQgetvalue(st->res, st->row, col);
}

static int64_t p_column_int(struct bl__stmt *st, int col)
{
    const char *s = cell(st, col);
    if (!s)
        return 0;
    if (strcmp(s, "t") == 0) /* booleans of catalog queries */
        return 1;
    return strtoll(s, NULL, 10);
}

static double p_column_double(struct bl__stmt *st, int col)
{
    const char *s = cell(st, col);
    return s ? strtod(s, NULL) : NAN; /* strtod reads NaN and Infinity */
}

static const char *p_column_text(struct bl__stmt *st, int col)
{
    return cell(st, col);
}

static void p_reset(struct bl__stmt *st)
{
    PQclear(st->res);
    st->res = NULL;
    st->row = -1;
    st->n_rows = 0;
    for (int i = 0; i < st->n_params; i++) {
        free(st->params[i]);
        st->params[i] = NULL;
    }
}

static void p_finalize(struct bl__stmt *st)
{
    if (!st)
        return;
    p_reset(st);
    /* Deallocate so that a long-lived connection does not collect
     * statements; the name is ours, nothing can inject through it. */
    if (PQstatus(st->db->conn) == CONNECTION_OK) {
        char sql[64];
        snprintf(sql, sizeof sql, "DEALLOCATE %s", st->name);
        PQclear(PQexec(st->db->conn, sql));
    }
    free(st);
}

static int p_begin(struct bl__db *d, int mode)
{
    /* A read sees one snapshot for all its statements (a run loaded while
     * a shard commits is seen with or without that shard, never half). */
    int rc = p_exec(d, mode == BL__TX_READ ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
                                           : "BEGIN");
    if (!rc && mode == BL__TX_SCHEMA)
        rc = p_exec(d, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK_KEY ")");
    return rc;
}

static int p_commit(struct bl__db *d)
{
    return p_exec(d, "COMMIT");
}

static void p_rollback(struct bl__db *d)
{
    struct pdb *db = (struct pdb *)d;
    if (PQtransactionStatus(db->conn) != PQTRANS_IDLE)
        PQclear(PQexec(db->conn, "ROLLBACK"));
}

static void p_close(struct bl__db *d)
{
    struct pdb *db = (struct pdb *)d;
    if (!db)
        return;
    PQfinish(db->conn);
    free(db);
}

/* libpq prints NOTICEs ("relation already exists, skipping") to stderr by
 * default; the library never prints. */
static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static const struct bl__db_ops pg_ops = {
    .name = "postgresql",
    .id_type = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    .tables_sql = "SELECT table_name FROM information_schema.tables"
                  " WHERE table_schema = current_schema()",
    .exec = p_exec,
    .prepare = p_prepare,
    .bind_int = p_bind_int,
    .bind_double = p_bind_double,
    .bind_text = p_bind_text,
    .step = p_step,
    .column_int = p_column_int,
    .column_double = p_column_double,
    .column_text = p_column_text,
    .reset = p_reset,
    .finalize = p_finalize,
    .begin = p_begin,
    .commit = p_commit,
    .rollback = p_rollback,
    .close = p_close,
};

int bl__db_pg_open(const char *conninfo, int busy_ms, struct bl__db **out, char *msg,
                   size_t msg_size)
{
    struct pdb *db = calloc(1, sizeof *db);
    if (!db)
        return -ENOMEM;
    db->base.ops = &pg_ops;
    /* A default connect timeout, so that an unreachable host fails in
     * seconds; the URI's own connect_timeout, given later, wins. */
    const char *const keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *const vals[] = {"10", "benchlab", conninfo, NULL};
    db->conn = PQconnectdbParams(keys, vals, 1);
    if (!db->conn) {
        free(db);
        return -ENOMEM;
    }
    if (PQstatus(db->conn) != CONNECTION_OK) {
        set_msg(db, PQerrorMessage(db->conn));
        /* libpq's message starts with "connection to server at ... failed: " */
        snprintf(msg, msg_size, "%s", db->base.msg);
        p_close(&db->base);
        return -ECONNREFUSED;
    }
    PQsetNoticeProcessor(db->conn, quiet, NULL);
    char sql[96];
    snprintf(sql, sizeof sql, "SET lock_timeout = %d", busy_ms);
    int rc = p_exec(&db->base, sql);
    if (!rc)
        rc = p_exec(&db->base, "SET client_min_messages = warning");
    if (rc) {
        snprintf(msg, msg_size, "%s", db->base.msg);
        p_close(&db->base);
        return rc;
    }
    *out = &db->base;
    return 0;
}
