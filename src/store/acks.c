/*
 * acks.c - acknowledged changes: "BENCH got slower at COMMIT, and that
 * is known" (`benchlab baseline ack`; docs/ci.md, "Accepting a change").
 * The store keeps them; judge passes the regressions they cover
 * (bl_judge_acknowledge) and history --changes marks the change points.
 * Whether an acknowledgement covers the commits between two runs is
 * git's answer (ancestry), asked here; without git only the run's own
 * commit counts.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* 7 to 40 hex digits: a commit hash or an unambiguous-looking prefix. */
static int is_hash(const char *s)
{
    size_t n = strlen(s);
    if (n < 7 || n > 40)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* The commit as stored: git's full hash, else the hex given, lowercased. */
static int commit_key(const char *commit, char *out, size_t size, char *err, size_t err_size)
{
    if (bl__git_resolve(NULL, commit, out, size) == 0)
        return 0;
    if (!is_hash(commit)) {
        snprintf(err, err_size,
                 "commit '%s': not a revision git knows here, nor a hash of 7 to 40 hex digits",
                 commit);
        return BL_EUSAGE;
    }
    size_t i = 0;
    for (; commit[i] && i + 1 < size; i++)
        out[i] = (char)tolower((unsigned char)commit[i]);
    out[i] = '\0';
    return 0;
}

/* Run one statement binding `n` texts (NULL binds NULL); with `count`,
 * the first column of its first row goes there. 0, or the engine's rc. */
static int exec_texts(bl_store *s, const char *sql, const char *const *texts, int n, int64_t *count)
{
    struct bl__stmt *st;
    int rc = DB_OPS(s)->prepare(s->db, sql, &st);
    if (rc)
        return rc;
    for (int i = 0; !rc && i < n; i++)
        rc = DB_OPS(s)->bind_text(st, i + 1, texts[i]);
    if (!rc)
        rc = DB_OPS(s)->step(st);
    if (rc == 1 && count)
        *count = DB_OPS(s)->column_int(st, 0);
    DB_OPS(s)->finalize(st);
    return rc < 0 ? rc : 0;
}

int bl_store_ack_add(bl_store *s, const char *benchmark, const char *commit, const char *reason,
                     char *err, size_t err_size)
{
    if (!benchmark || !benchmark[0]) {
        snprintf(err, err_size, "ack: name the benchmark (a full name or a pattern: 'Hash/*')");
        return BL_EUSAGE;
    }
    char key[64];
    int rc = commit_key(commit, key, sizeof key, err, err_size);
    if (rc)
        return rc;
    rc = bl__store_check_current(s, err, err_size);
    if (rc)
        return rc;
    char now[32];
    bl__utc_now(now, sizeof now);
    const char *const v[] = {benchmark, key, reason && *reason ? reason : NULL, now};
    rc = DB_OPS(s)->begin(s->db, BL__TX_WRITE);
    if (!rc)
        rc = exec_texts(s,
                        "INSERT INTO acks (benchmark, git_commit, reason, acked_at)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT (benchmark, git_commit) DO UPDATE"
                        " SET reason = excluded.reason, acked_at = excluded.acked_at",
                        v, 4, NULL);
    if (!rc)
        rc = DB_OPS(s)->commit(s->db);
    if (rc) {
        DB_OPS(s)->rollback(s->db);
        return bl__store_fail(s, rc, err, err_size, "acknowledging %s at %.12s", benchmark, key);
    }
    return 0;
}

int bl_store_ack_remove(bl_store *s, const char *benchmark, const char *commit, char *err,
                        size_t err_size)
{
    char key[64];
    int rc = commit_key(commit, key, sizeof key, err, err_size);
    if (rc)
        return rc;
    if (s->version < 3) {
        snprintf(err, err_size, "store %s: no acknowledgement of %s at %s", s->name, benchmark,
                 commit);
        return BL_ENOTFOUND;
    }
    /* the hash as stored, or as given when git resolved a prefix of it */
    const char *const v[] = {benchmark, key, commit};
    int64_t found = 0;
    rc = DB_OPS(s)->begin(s->db, BL__TX_WRITE);
    if (!rc)
        rc = exec_texts(s, "SELECT count(*) FROM acks WHERE benchmark = ? AND git_commit IN (?, ?)",
                        v, 3, &found);
    if (!rc && found)
        rc = exec_texts(s, "DELETE FROM acks WHERE benchmark = ? AND git_commit IN (?, ?)", v, 3,
                        NULL);
    if (!rc)
        rc = DB_OPS(s)->commit(s->db);
    if (rc) {
        DB_OPS(s)->rollback(s->db);
        return bl__store_fail(s, rc, err, err_size, "withdrawing the acknowledgement of %s",
                              benchmark);
    }
    if (!found) {
        snprintf(err, err_size, "store %s: no acknowledgement of %s at %s", s->name, benchmark,
                 commit);
        return BL_ENOTFOUND;
    }
    return 0;
}

void bl_store_acks_free(bl_store_ack *a, size_t n)
{
    for (size_t i = 0; a && i < n; i++) {
        free(a[i].benchmark);
        free(a[i].commit);
        free(a[i].reason);
        free(a[i].acked_at);
    }
    free(a);
}

int bl_store_ack_list(bl_store *s, bl_store_ack **out, size_t *n_out, char *err, size_t err_size)
{
    *out = NULL;
    *n_out = 0;
    if (s->version < 3) /* read as it is: made before acknowledgements */
        return 0;
    struct bl__stmt *st;
    int rc = bl__store_prepare(s,
                               "SELECT benchmark, git_commit, reason, acked_at FROM acks"
                               " ORDER BY benchmark, acked_at",
                               &st, err, err_size);
    if (rc)
        return rc;
    bl_store_ack *v = NULL;
    size_t n = 0;
    int oom = 0;
    while ((rc = DB_OPS(s)->step(st)) == 1) {
        bl_store_ack *nv = realloc(v, (n + 1) * sizeof *v);
        if (!nv) {
            rc = -ENOMEM;
            break;
        }
        v = nv;
        v[n].benchmark = bl__col_strdup(s, st, 0, &oom);
        v[n].commit = bl__col_strdup(s, st, 1, &oom);
        v[n].reason = bl__col_strdup(s, st, 2, &oom);
        v[n].acked_at = bl__col_strdup(s, st, 3, &oom);
        n++;
        if (oom) {
            rc = -ENOMEM;
            break;
        }
    }
    DB_OPS(s)->finalize(st);
    if (rc < 0) {
        bl_store_acks_free(v, n);
        return bl__store_fail(s, rc, err, err_size, "listing acknowledgements");
    }
    *out = v;
    *n_out = n;
    return 0;
}

int bl_store_ack_names(const bl_store_ack *a, const char *name)
{
    if (!a->benchmark || !name)
        return 0;
    const char *shown = strncmp(name, "Benchmark", 9) == 0 ? name + 9 : name;
    return fnmatch(a->benchmark, name, 0) == 0 || fnmatch(a->benchmark, shown, 0) == 0;
}

int bl_store_ack_covers(const bl_store_ack *a, const char *from, const char *to)
{
    if (!a->commit || !a->commit[0] || !to || !to[0])
        return 0;
    size_t n = strlen(a->commit);
    if (from && from[0] && strncmp(from, a->commit, n) == 0)
        return 0; /* the run before already had it */
    if (strncmp(to, a->commit, n) == 0)
        return 1;
    if (bl__git_is_ancestor(NULL, a->commit, to) != 1)
        return 0;
    /* no run before: everything up to `to` is new */
    return !from || !from[0] || bl__git_is_ancestor(NULL, a->commit, from) == 0;
}

int bl_store_changes_acknowledge(bl_changes_report *r, const bl_store_ack *acks, size_t n_acks)
{
    for (size_t i = 0; i < r->n_series; i++) {
        bl_changes_series *se = (bl_changes_series *)&r->series[i];
        const char **marks = NULL;
        for (size_t j = 0; j < se->n_changes; j++) {
            const bl_change *c = &se->changes[j];
            if (c->kind != BL_CHANGE_STEP || !se->commits || c->at == 0)
                continue;
            for (size_t k = 0; k < n_acks; k++) {
                if (!bl_store_ack_names(&acks[k], se->name) ||
                    !bl_store_ack_covers(&acks[k], se->commits[c->at - 1], se->commits[c->at]))
                    continue;
                if (!marks && !(marks = calloc(se->n_changes, sizeof *marks)))
                    return -ENOMEM;
                marks[j] = acks[k].commit;
                break;
            }
        }
        free((void *)se->acked);
        se->acked = marks;
    }
    return 0;
}
