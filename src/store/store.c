/*
 * store.c - opening a results store, its schema, runs, references and
 * baselines. Saving is save.c, loading runs and history load.c; both
 * backends sit behind db.h.
 *
 * The schema is versioned: table benchlab_meta holds format =
 * "benchlab-store" and schema_version. Opening checks both: a database
 * with tables but no benchlab_meta is somebody else's (never written to),
 * a newer version is refused, an older one is migrated forward in one
 * transaction, step by step (schema.c, migrations[]), or, when it cannot
 * be written, read as it is (open_unmigrated).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store_int.h"

#define DEFAULT_DIR ".benchlab"
#define DEFAULT_FILE "results.db"
#define DEFAULT_TIMEOUT_S 30.0

/* ---- small helpers ---------------------------------------------------------------- */

int bl__store_fail(const bl_store *store, int rc, char *err, size_t err_size, const char *what, ...)
{
    char w[512];
    va_list ap;
    va_start(ap, what);
    vsnprintf(w, sizeof w, what, ap);
    va_end(ap);
    const char *m = store->db ? store->db->msg : "";
    if (rc == -ENOMEM)
        m = "out of memory";
    if (m[0])
        snprintf(err, err_size, "store %s: %s: %s", store->name, w, m);
    else
        snprintf(err, err_size, "store %s: %s", store->name, w);
    return rc;
}

int bl__store_prepare(bl_store *store, const char *sql, struct bl__stmt **st, char *err,
                      size_t err_size)
{
    int rc = DB_OPS(store)->prepare(store->db, sql, st);
    return rc ? bl__store_fail(store, rc, err, err_size, "preparing a query") : 0;
}

char *bl__col_strdup(bl_store *store, struct bl__stmt *st, int col, int *oom)
{
    const char *s = DB_OPS(store)->column_text(st, col);
    if (!s)
        return NULL;
    char *c = strdup(s);
    if (!c)
        *oom = 1;
    return c;
}

void bl__utc_now(char *out, size_t size)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- where the store is ----------------------------------------------------------- */

int bl_store_default_spec(char *out, size_t size)
{
    const char *env = getenv("BENCHLAB_STORE");
    if (env && *env)
        return (size_t)snprintf(out, size, "%s", env) < size ? 0 : -ENAMETOOLONG;
    char top[PATH_MAX];
    if (bl__git_toplevel(NULL, top, sizeof top) != 0 && !getcwd(top, sizeof top))
        snprintf(top, sizeof top, ".");
    int n = snprintf(out, size, "%s/" DEFAULT_DIR "/" DEFAULT_FILE, top);
    return n >= 0 && (size_t)n < size ? 0 : -ENAMETOOLONG;
}

const char *bl__store_spec_or_default(const char *spec, char *def, size_t def_size, char *err,
                                      size_t err_size)
{
    if (spec && *spec)
        return spec;
    if (bl_store_default_spec(def, def_size) != 0) {
        snprintf(err, err_size, "the default store's path is too long");
        return NULL;
    }
    return def;
}

int bl__store_is_pg_spec(const char *spec)
{
    return strncmp(spec, "postgresql://", 13) == 0 || strncmp(spec, "postgres://", 11) == 0;
}

/* s with s[from, to) replaced by "***"; frees s. NULL when memory runs out. */
static char *mask(char *s, size_t from, size_t to)
{
    size_t n = strlen(s);
    char *t = malloc(n - (to - from) + 4);
    if (t)
        sprintf(t, "%.*s***%s", (int)from, s, s + to);
    free(s);
    return t;
}

/* A URI without its password: "postgresql://u:secret@h/db?password=x" ->
 * "postgresql://u:***@h/db?password=***". */
static char *redact(const char *spec)
{
    char *s = strdup(spec);
    if (!s || !bl__store_is_pg_spec(s))
        return s;
    size_t auth = (size_t)(strstr(s, "://") + 3 - s);
    size_t end = auth + strcspn(s + auth, "/?");
    char *at = memrchr(s + auth, '@', end - auth);
    if (at) {
        char *colon = memchr(s + auth, ':', (size_t)(at - (s + auth)));
        if (colon && at > colon + 1 && !(s = mask(s, (size_t)(colon + 1 - s), (size_t)(at - s))))
            return NULL;
    }
    char *q = strchr(s, '?');
    while (q) {
        q++;
        size_t len = strcspn(q, "&");
        if (strncmp(q, "password=", 9) == 0 && len > 9) {
            size_t from = (size_t)(q + 9 - s);
            if (!(s = mask(s, from, (size_t)(q - s) + len)))
                return NULL;
            q = s + from + 3;
        } else {
            q += len;
        }
        q = *q == '&' ? q : NULL;
    }
    return s;
}

static int timeout_ms(void)
{
    const char *e = getenv("BENCHLAB_STORE_TIMEOUT");
    double s = DEFAULT_TIMEOUT_S;
    if (e && *e) {
        char *end;
        double v = strtod(e, &end);
        if (end != e && v >= 0 && v < 86400)
            s = v;
    }
    return (int)(s * 1000);
}

/* mkdir of the store file's own directory (not its ancestors). */
static int make_parent(const char *path, char *err, size_t err_size)
{
    char dir[PATH_MAX];
    if (strlen(path) >= sizeof dir) {
        snprintf(err, err_size, "store %.200s...: path too long", path);
        return -ENAMETOOLONG;
    }
    memcpy(dir, path, strlen(path) + 1);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    struct stat st;
    if (stat(dir, &st) == 0)
        return 0;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        int e = errno;
        snprintf(err, err_size, "store %s: cannot create directory %s: %s", path, dir, strerror(e));
        return -e;
    }
    return 0;
}

/* ---- the schema (its tables and migrations: schema.c) ----------------------------- */

/* The store's tables: *has_meta, *n_tables and the first few names. */
static int scan_tables(bl_store *s, int *has_meta, size_t *n_tables, char *names, size_t size)
{
    struct bl__stmt *st;
    int rc = DB_OPS(s)->prepare(s->db, DB_OPS(s)->tables_sql, &st);
    if (rc)
        return rc;
    *has_meta = 0;
    *n_tables = 0;
    names[0] = '\0';
    while ((rc = DB_OPS(s)->step(st)) == 1) {
        const char *t = DB_OPS(s)->column_text(st, 0);
        if (!t)
            continue;
        if (strcmp(t, "benchlab_meta") == 0)
            *has_meta = 1;
        size_t len = strlen(names);
        if (*n_tables < 4 && len + strlen(t) + 3 < size)
            snprintf(names + len, size - len, "%s%s", len ? ", " : "", t);
        (*n_tables)++;
    }
    DB_OPS(s)->finalize(st);
    return rc < 0 ? rc : 0;
}

/* benchlab_meta's format and version: 0, or BL_EFORMAT when it is not ours. */
static int read_version(bl_store *s, long *version)
{
    struct bl__stmt *st;
    int rc = DB_OPS(s)->prepare(s->db, "SELECT key, value FROM benchlab_meta", &st);
    if (rc)
        return rc;
    int ours = 0;
    *version = -1;
    while ((rc = DB_OPS(s)->step(st)) == 1) {
        const char *k = DB_OPS(s)->column_text(st, 0), *v = DB_OPS(s)->column_text(st, 1);
        if (!k || !v)
            continue;
        if (strcmp(k, "format") == 0)
            ours = strcmp(v, BL__STORE_FORMAT) == 0;
        else if (strcmp(k, "schema_version") == 0)
            *version = strtol(v, NULL, 10);
    }
    DB_OPS(s)->finalize(st);
    if (rc < 0)
        return rc;
    return ours && *version >= 1 ? 0 : BL_EFORMAT;
}

/* Whether rc says the store cannot be written here: read-only (a file,
 * its medium, a standby server), no permission (a role without ALTER), or
 * no journal can be made beside the file (SQLITE_CANTOPEN). */
static int cannot_write(int rc)
{
    return rc == -EROFS || rc == -EACCES || rc == -ENOENT;
}

/*
 * A store of an older schema that cannot be migrated because it cannot be
 * written (a copy on read-only media, a reader's role) is read as it is:
 * its runs load with the older schema's columns (load.c), and saving into
 * it is refused (bl__store_check_current). The engine's words stay in
 * s->unmigrated for that message.
 */
static int open_unmigrated(bl_store *s, long version)
{
    s->version = version;
    snprintf(s->unmigrated, sizeof s->unmigrated, "%s",
             s->db->msg[0] ? s->db->msg : "cannot be written");
    return 0;
}

int bl__store_check_current(const bl_store *s, char *err, size_t err_size)
{
    if (s->version >= BL_STORE_SCHEMA_VERSION)
        return 0;
    snprintf(err, err_size,
             "store %s: cannot be written: its schema (version %ld) must be migrated to version "
             "%d first, and migrating it failed: %s",
             s->name, s->version, BL_STORE_SCHEMA_VERSION, s->unmigrated);
    return -EROFS;
}

/*
 * Check (and with `create`, create or migrate) the schema. The check is
 * repeated inside the schema transaction: another process may have
 * created the store between our look and our lock.
 */
static int ensure_schema(bl_store *s, int create, char *err, size_t err_size)
{
    for (int pass = 0; pass < 2; pass++) {
        int has_meta;
        size_t n_tables;
        char names[256];
        int in_tx = pass == 1;
        int rc = scan_tables(s, &has_meta, &n_tables, names, sizeof names);
        if (rc == BL_EFORMAT) {
            /* a damaged page among the schema's: the file is ours but broken */
            int damaged = s->db->damaged;
            if (in_tx)
                DB_OPS(s)->rollback(s->db);
            if (damaged) {
                snprintf(err, err_size,
                         "store %s: the file is damaged (%s); nothing is saved into it: restore "
                         "it from a copy or name another store",
                         s->name, s->db->msg);
                return BL_EFORMAT;
            }
            return bl__store_fail(s, BL_EFORMAT, err, err_size,
                                  "not a benchlab store (not an SQLite database)");
        }
        long version = 0;
        if (!rc && has_meta) {
            rc = read_version(s, &version);
            if (rc == BL_EFORMAT) {
                if (in_tx)
                    DB_OPS(s)->rollback(s->db);
                snprintf(err, err_size,
                         "store %s: not a benchlab store (its benchlab_meta table is not ours)",
                         s->name);
                return BL_EFORMAT;
            }
        }
        if (rc) {
            if (in_tx)
                DB_OPS(s)->rollback(s->db);
            return bl__store_fail(s, rc, err, err_size, "reading the schema");
        }
        if (has_meta && version > BL_STORE_SCHEMA_VERSION) {
            if (in_tx)
                DB_OPS(s)->rollback(s->db);
            snprintf(err, err_size,
                     "store %s: written by a newer benchlab (schema version %ld; this benchlab "
                     "%s reads up to %d): upgrade benchlab",
                     s->name, version, BENCHLAB_VERSION_STRING, BL_STORE_SCHEMA_VERSION);
            return BL_EUNSUPPORTED;
        }
        if (has_meta && version == BL_STORE_SCHEMA_VERSION) {
            if (in_tx && (rc = DB_OPS(s)->commit(s->db)))
                return bl__store_fail(s, rc, err, err_size, "reading the schema");
            s->version = version;
            return 0;
        }
        if (!has_meta && n_tables) {
            if (in_tx)
                DB_OPS(s)->rollback(s->db);
            snprintf(err, err_size,
                     "store %s: not a benchlab store (it holds other tables: %s%s); name a "
                     "file or database of its own",
                     s->name, names, n_tables > 4 ? ", ..." : "");
            return BL_EFORMAT;
        }
        if (!has_meta && !create) {
            snprintf(err, err_size, "store %s: no runs saved yet (save one with --save)", s->name);
            return BL_ENOTFOUND;
        }
        if (in_tx) {
            rc = has_meta ? bl__store_migrate(s, version) : bl__store_create_schema(s);
            if (!rc)
                rc = DB_OPS(s)->commit(s->db);
            if (rc) {
                DB_OPS(s)->rollback(s->db);
                if (has_meta && cannot_write(rc))
                    return open_unmigrated(s, version);
                if (has_meta)
                    return bl__store_fail(s, rc, err, err_size,
                                          "migrating the schema from version %ld", version);
                return bl__store_fail(s, rc, err, err_size, "creating the store");
            }
            s->version = BL_STORE_SCHEMA_VERSION;
            return 0;
        }
        rc = DB_OPS(s)->begin(s->db, BL__TX_SCHEMA);
        if (rc && has_meta && cannot_write(rc))
            return open_unmigrated(s, version);
        if (rc)
            return bl__store_fail(s, rc, err, err_size,
                                  has_meta ? "cannot migrate the schema" : "cannot create it");
    }
    return 0; /* not reached */
}

/*
 * A store opened to be written must be whole: SQLite writes into a file
 * whose pages are damaged without a word, and the runs saved then may be
 * lost with the rest. PRAGMA quick_check reads every page (linear in the
 * file's size, without the index cross-checks of integrity_check).
 */
static int quick_check(bl_store *s, char *err, size_t err_size)
{
    const struct bl__db_ops *o = DB_OPS(s);
    struct bl__stmt *st = NULL;
    int rc = o->prepare(s->db, "PRAGMA quick_check", &st);
    if (!rc)
        rc = o->step(st);
    if (rc == 1) {
        const char *v = o->column_text(st, 0);
        if (v && strcmp(v, "ok") == 0) {
            rc = 0;
        } else {
            /* its first finding, on one line, without the schema's banner */
            char what[200];
            const char *banner = "*** in database main ***";
            if (v && strncmp(v, banner, strlen(banner)) == 0)
                v += strlen(banner);
            snprintf(what, sizeof what, "%s", v ? v : "no answer");
            for (char *c = what; *c; c++)
                if (*c == '\n' || *c == '\r')
                    *c = ' ';
            char *w = what;
            while (*w == ' ')
                w++;
            snprintf(err, err_size,
                     "store %s: the file is damaged (PRAGMA quick_check: %s); nothing is saved "
                     "into it: restore it from a copy or name another store",
                     s->name, w);
            rc = BL_EFORMAT;
        }
    } else if (rc == 0) {
        snprintf(err, err_size, "store %s: the file is damaged (PRAGMA quick_check said nothing)",
                 s->name);
        rc = BL_EFORMAT;
    } else {
        rc = bl__store_fail(s, rc, err, err_size, "the file is damaged; nothing is saved into it");
    }
    o->finalize(st);
    return rc;
}

int bl_store_open(const char *spec, unsigned flags, bl_store **out, char *err, size_t err_size)
{
    *out = NULL;
    char def[PATH_MAX + 64];
    if (!(spec = bl__store_spec_or_default(spec, def, sizeof def, err, err_size)))
        return -ENAMETOOLONG;
    int create = (flags & BL_STORE_CREATE) != 0;
    bl_store *s = calloc(1, sizeof *s);
    if (!s || !(s->name = redact(spec))) {
        free(s);
        snprintf(err, err_size, "out of memory");
        return -ENOMEM;
    }
    char msg[512] = "";
    int rc;
    if (bl__store_is_pg_spec(spec)) {
        rc = bl__db_pg_open(spec, timeout_ms(), &s->db, msg, sizeof msg);
        if (rc)
            snprintf(err, err_size, "store %s: cannot connect: %s", s->name, msg);
    } else {
        const char *path = strncmp(spec, "sqlite:", 7) == 0 ? spec + 7 : spec;
        struct stat st;
        if (stat(path, &st) != 0) {
            if (errno != ENOENT || !create) {
                rc = errno == ENOENT ? BL_ENOTFOUND : -errno;
                snprintf(err, err_size, "store %s: %s", s->name,
                         errno == ENOENT ? "no such store (runs are saved there with --save)"
                                         : strerror(errno));
                bl_store_close(s);
                return rc;
            }
            if ((rc = make_parent(path, err, err_size))) {
                bl_store_close(s);
                return rc;
            }
        } else if (!S_ISREG(st.st_mode)) {
            /* SQLite would write pages into a device (and a journal beside
             * it) or block on a FIFO, and say "disk I/O error" at best */
            const char *what = S_ISDIR(st.st_mode)    ? "a directory"
                               : S_ISCHR(st.st_mode)  ? "a character device"
                               : S_ISBLK(st.st_mode)  ? "a block device"
                               : S_ISFIFO(st.st_mode) ? "a FIFO"
                               : S_ISSOCK(st.st_mode) ? "a socket"
                                                      : "not a regular file";
            snprintf(err, err_size, "store %s: is %s, not a store file", s->name, what);
            bl_store_close(s);
            return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
        }
        rc = bl__db_sqlite_open(path, create, timeout_ms(), &s->db, msg, sizeof msg);
        if (rc)
            snprintf(err, err_size, "store %s: cannot open: %s", s->name, msg);
    }
    if (!rc)
        rc = ensure_schema(s, create, err, err_size);
    /* after the schema check, which names a file that is not a store */
    if (!rc && create && !bl__store_is_pg_spec(spec))
        rc = quick_check(s, err, err_size);
    if (rc) {
        bl_store_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

void bl_store_close(bl_store *s)
{
    if (!s)
        return;
    if (s->db)
        s->db->ops->close(s->db);
    free(s->name);
    free(s);
}

const char *bl_store_name(const bl_store *s)
{
    return s->name;
}

/* ---- runs ------------------------------------------------------------------------- */

const char bl__run_cols[] =
    "r.id, r.uid, r.kind, r.saved_at, r.measured_at, r.git_commit, r.git_branch, r.git_dirty,"
    " r.host, r.fingerprint, r.compiler, r.cflags, r.version, r.env_warnings, r.pkg, r.tag,"
    " r.n_parts, (SELECT count(DISTINCT b.name) FROM benches b WHERE b.run_id = r.id)";

int bl__read_run(bl_store *s, struct bl__stmt *st, int c, bl_store_run *run)
{
    const struct bl__db_ops *o = DB_OPS(s);
    int oom = 0;
    memset(run, 0, sizeof *run);
    run->id = o->column_int(st, c);
    char **text[] = {&run->uid,         &run->kind,   &run->saved_at,
                     &run->measured_at, &run->commit, &run->branch};
    for (int i = 0; i < 6; i++)
        *text[i] = bl__col_strdup(s, st, c + 1 + i, &oom);
    run->dirty = (int)o->column_int(st, c + 7);
    char **more[] = {&run->host,    &run->fingerprint,  &run->compiler, &run->cflags,
                     &run->version, &run->env_warnings, &run->pkg,      &run->tag};
    for (int i = 0; i < 8; i++)
        *more[i] = bl__col_strdup(s, st, c + 8 + i, &oom);
    run->n_parts = (size_t)o->column_int(st, c + 16);
    run->n_benches = (size_t)o->column_int(st, c + 17);
    if (oom) {
        bl_store_run_fini(run);
        return -ENOMEM;
    }
    return 0;
}

void bl_store_run_fini(bl_store_run *run)
{
    if (!run)
        return;
    char *f[] = {run->uid,     run->kind,         run->saved_at,    run->measured_at, run->commit,
                 run->branch,  run->host,         run->fingerprint, run->compiler,    run->cflags,
                 run->version, run->env_warnings, run->pkg,         run->tag};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        free(f[i]);
    memset(run, 0, sizeof *run);
}

void bl_store_runs_free(bl_store_run *runs, size_t n)
{
    for (size_t i = 0; runs && i < n; i++)
        bl_store_run_fini(&runs[i]);
    free(runs);
}

int bl_store_list(bl_store *s, size_t last, bl_store_run **out, size_t *n_out, char *err,
                  size_t err_size)
{
    *out = NULL;
    *n_out = 0;
    char sql[1024];
    snprintf(sql, sizeof sql, "SELECT %s FROM runs r ORDER BY r.id DESC%s", bl__run_cols,
             last ? " LIMIT ?" : "");
    struct bl__stmt *st;
    int rc = bl__store_prepare(s, sql, &st, err, err_size);
    if (rc)
        return rc;
    if (last)
        rc = DB_OPS(s)->bind_int(st, 1, (int64_t)last);
    bl_store_run *runs = NULL;
    size_t n = 0, cap = 0;
    while (!rc && (rc = DB_OPS(s)->step(st)) == 1) {
        rc = 0; /* a row */
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            bl_store_run *nr = realloc(runs, nc * sizeof *nr);
            if (!nr) {
                rc = -ENOMEM;
                break;
            }
            runs = nr;
            cap = nc;
        }
        rc = bl__read_run(s, st, 0, &runs[n]);
        if (!rc)
            n++;
    }
    DB_OPS(s)->finalize(st);
    if (rc < 0) {
        bl_store_runs_free(runs, n);
        return bl__store_fail(s, rc, err, err_size, "listing runs");
    }
    for (size_t i = 0; i < n / 2; i++) { /* oldest first */
        bl_store_run t = runs[i];
        runs[i] = runs[n - 1 - i];
        runs[n - 1 - i] = t;
    }
    *out = runs;
    *n_out = n;
    return 0;
}

int bl_store_get_run(bl_store *s, int64_t id, bl_store_run *run, char *err, size_t err_size)
{
    char sql[1024];
    snprintf(sql, sizeof sql, "SELECT %s FROM runs r WHERE r.id = ?", bl__run_cols);
    struct bl__stmt *st;
    int rc = bl__store_prepare(s, sql, &st, err, err_size);
    if (rc)
        return rc;
    rc = DB_OPS(s)->bind_int(st, 1, id);
    if (!rc)
        rc = DB_OPS(s)->step(st);
    if (rc == 1)
        rc = bl__read_run(s, st, 0, run);
    else if (rc == 0)
        rc = BL_ENOTFOUND;
    DB_OPS(s)->finalize(st);
    if (rc == BL_ENOTFOUND) {
        snprintf(err, err_size, "store %s: no run %lld", s->name, (long long)id);
        return rc;
    }
    return rc ? bl__store_fail(s, rc, err, err_size, "reading run %lld", (long long)id) : 0;
}

/* ---- references ------------------------------------------------------------------- */

/* Run a query that yields one id (first column), with one optional text
 * and one optional integer parameter. 1 found, 0 not, < 0 error. */
static int query_id(bl_store *s, const char *sql, const char *text, const int64_t *num, int64_t *id)
{
    struct bl__stmt *st;
    int rc = DB_OPS(s)->prepare(s->db, sql, &st);
    if (rc)
        return rc;
    int idx = 1;
    if (text)
        rc = DB_OPS(s)->bind_text(st, idx++, text);
    if (!rc && num)
        rc = DB_OPS(s)->bind_int(st, idx, *num);
    if (!rc)
        rc = DB_OPS(s)->step(st);
    if (rc == 1)
        *id = DB_OPS(s)->column_int(st, 0);
    DB_OPS(s)->finalize(st);
    return rc;
}

static int all_of(const char *s, int (*pred)(int))
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!pred((unsigned char)*s))
            return 0;
    return 1;
}

int bl_store_resolve(bl_store *s, const char *ref, int64_t *id, char *err, size_t err_size)
{
    const char *r = ref[0] == '@' ? ref + 1 : ref;
    int rc;
    if (!*r) {
        snprintf(err, err_size, "empty run reference '%s'", ref);
        return BL_EUSAGE;
    }
    if (strncmp(r, "latest", 6) == 0 && (r[6] == '\0' || r[6] == '~')) {
        int64_t back = 0;
        if (r[6] == '~') {
            char *end;
            long long v = r[7] ? strtoll(r + 7, &end, 10) : -1;
            if (v < 0 || *end) {
                snprintf(err, err_size, "run reference @%s: after latest~ comes a count", r);
                return BL_EUSAGE;
            }
            back = v;
        }
        rc = query_id(s,
                      "SELECT r.id FROM runs r WHERE EXISTS (SELECT 1 FROM benches b"
                      " WHERE b.run_id = r.id) ORDER BY r.id DESC LIMIT 1 OFFSET ?",
                      NULL, &back, id);
        if (rc == 0) {
            snprintf(err, err_size, "store %s: @%s: %s", s->name, r,
                     back ? "not that many runs with benchmarks" : "no run saved yet");
            return BL_ENOTFOUND;
        }
        return rc < 0 ? bl__store_fail(s, rc, err, err_size, "resolving @%s", r) : 0;
    }
    if (strncmp(r, "before:", 7) == 0) {
        char *end;
        int64_t n = strtoll(r + 7, &end, 10);
        if (!r[7] || *end) {
            snprintf(err, err_size, "run reference @%s: after before: comes a run id", r);
            return BL_EUSAGE;
        }
        rc = query_id(s,
                      "SELECT r.id FROM runs r WHERE r.id < ? AND EXISTS (SELECT 1 FROM benches b"
                      " WHERE b.run_id = r.id) ORDER BY r.id DESC LIMIT 1",
                      NULL, &n, id);
        if (rc == 0) {
            snprintf(err, err_size, "store %s: no run with benchmarks before run %lld", s->name,
                     (long long)n);
            return BL_ENOTFOUND;
        }
        return rc < 0 ? bl__store_fail(s, rc, err, err_size, "resolving @%s", r) : 0;
    }
    if (strncmp(r, "baseline:", 9) == 0) {
        rc = query_id(s, "SELECT run_id FROM baselines WHERE name = ?", r + 9, NULL, id);
        if (rc == 0) {
            snprintf(err, err_size,
                     "store %s: no baseline named '%s' (set one: benchlab baseline set %s [RUN])",
                     s->name, r + 9, r + 9);
            return BL_ENOTFOUND;
        }
        return rc < 0 ? bl__store_fail(s, rc, err, err_size, "resolving @%s", r) : 0;
    }
    int digits = all_of(r, isdigit) && strlen(r) <= 18;
    if (digits) {
        int64_t n = strtoll(r, NULL, 10);
        rc = query_id(s, "SELECT id FROM runs WHERE id = ?", NULL, &n, id);
        if (rc)
            return rc < 0 ? bl__store_fail(s, rc, err, err_size, "resolving @%s", r) : 0;
    }
    rc = query_id(s, "SELECT id FROM runs WHERE uid = ?", r, NULL, id);
    if (rc)
        return rc < 0 ? bl__store_fail(s, rc, err, err_size, "resolving @%s", r) : 0;
    char sha[64];
    if (bl__git_resolve(NULL, r, sha, sizeof sha) == 0) {
        rc = query_id(s, "SELECT id FROM runs WHERE git_commit = ? ORDER BY id DESC LIMIT 1", sha,
                      NULL, id);
        if (rc == 0) {
            snprintf(err, err_size, "store %s: no stored run of commit %.12s (@%s)", s->name, sha,
                     r);
            return BL_ENOTFOUND;
        }
        return rc < 0 ? bl__store_fail(s, rc, err, err_size, "resolving @%s", r) : 0;
    }
    if (strlen(r) >= 4 && strlen(r) <= 40 && all_of(r, isxdigit)) {
        /* a commit git does not know here (another clone, a CI artifact) */
        char pat[48];
        size_t k;
        for (k = 0; r[k]; k++)
            pat[k] = (char)tolower((unsigned char)r[k]);
        pat[k++] = '%';
        pat[k] = '\0';
        struct bl__stmt *st;
        rc = DB_OPS(s)->prepare(
            s->db, "SELECT DISTINCT git_commit FROM runs WHERE git_commit LIKE ? LIMIT 2", &st);
        if (!rc)
            rc = DB_OPS(s)->bind_text(st, 1, pat);
        int n = 0;
        char first[64] = "";
        while (!rc && (rc = DB_OPS(s)->step(st)) == 1) {
            rc = 0; /* a row */
            if (!n++)
                snprintf(first, sizeof first, "%s", DB_OPS(s)->column_text(st, 0));
        }
        DB_OPS(s)->finalize(st);
        if (rc < 0)
            return bl__store_fail(s, rc, err, err_size, "resolving @%s", r);
        if (n > 1) {
            snprintf(err, err_size, "store %s: @%s: more than one stored commit starts so", s->name,
                     r);
            return BL_ENOTFOUND;
        }
        if (n == 1) {
            rc = query_id(s, "SELECT id FROM runs WHERE git_commit = ? ORDER BY id DESC LIMIT 1",
                          first, NULL, id);
            return rc < 0 ? bl__store_fail(s, rc, err, err_size, "resolving @%s", r) : 0;
        }
    }
    snprintf(err, err_size,
             "store %s: unknown run @%s: not latest, latest~N, baseline:NAME, a run id or "
             "--run-id name, nor a commit of a stored run",
             s->name, r);
    return BL_ENOTFOUND;
}

/* ---- baselines -------------------------------------------------------------------- */

int bl_store_baseline_set(bl_store *s, const char *name, int64_t run_id, char *err, size_t err_size)
{
    if (!name[0] || strchr(name, ' ')) {
        snprintf(err, err_size, "baseline name '%s': give a word without spaces", name);
        return BL_EUSAGE;
    }
    bl_store_run run;
    int rc = bl_store_get_run(s, run_id, &run, err, err_size);
    if (rc)
        return rc;
    bl_store_run_fini(&run);
    char now[32];
    bl__utc_now(now, sizeof now);
    struct bl__stmt *st;
    rc = DB_OPS(s)->begin(s->db, BL__TX_WRITE);
    if (!rc)
        rc = DB_OPS(s)->prepare(s->db,
                                "INSERT INTO baselines (name, run_id, set_at) VALUES (?, ?, ?)"
                                " ON CONFLICT (name) DO UPDATE SET run_id = excluded.run_id,"
                                " set_at = excluded.set_at",
                                &st);
    if (!rc) {
        rc = DB_OPS(s)->bind_text(st, 1, name);
        if (!rc)
            rc = DB_OPS(s)->bind_int(st, 2, run_id);
        if (!rc)
            rc = DB_OPS(s)->bind_text(st, 3, now);
        if (!rc)
            rc = DB_OPS(s)->step(st);
        DB_OPS(s)->finalize(st);
    }
    if (rc >= 0)
        rc = DB_OPS(s)->commit(s->db);
    if (rc) {
        DB_OPS(s)->rollback(s->db);
        return bl__store_fail(s, rc, err, err_size, "setting baseline %s", name);
    }
    return 0;
}

int bl_store_baseline_list(bl_store *s, bl_store_baseline **out, size_t *n_out, char *err,
                           size_t err_size)
{
    *out = NULL;
    *n_out = 0;
    struct bl__stmt *st;
    int rc = bl__store_prepare(s, "SELECT name, run_id, set_at FROM baselines ORDER BY name", &st,
                               err, err_size);
    if (rc)
        return rc;
    bl_store_baseline *v = NULL;
    size_t n = 0;
    int oom = 0;
    while ((rc = DB_OPS(s)->step(st)) == 1) {
        bl_store_baseline *nv = realloc(v, (n + 1) * sizeof *v);
        if (!nv) {
            rc = -ENOMEM;
            break;
        }
        v = nv;
        v[n].name = bl__col_strdup(s, st, 0, &oom);
        v[n].run_id = DB_OPS(s)->column_int(st, 1);
        v[n].set_at = bl__col_strdup(s, st, 2, &oom);
        n++;
        if (oom) {
            rc = -ENOMEM;
            break;
        }
    }
    DB_OPS(s)->finalize(st);
    if (rc < 0) {
        bl_store_baselines_free(v, n);
        return bl__store_fail(s, rc, err, err_size, "listing baselines");
    }
    *out = v;
    *n_out = n;
    return 0;
}

void bl_store_baselines_free(bl_store_baseline *b, size_t n)
{
    for (size_t i = 0; b && i < n; i++) {
        free(b[i].name);
        free(b[i].set_at);
    }
    free(b);
}
