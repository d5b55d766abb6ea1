/*
 * save.c - writing runs into the store, one transaction per save.
 *
 * A save is a part of a run: a new run, or one more part of the run named
 * by --run-id (the shards of a CI matrix). Everything of the part goes in
 * inside one write transaction, so that a run is whole or absent: a
 * failure rolls back, and a crash or Ctrl-C before the commit leaves
 * nothing (SQLite rolls its journal back on the next open, PostgreSQL
 * aborts the transaction with the connection).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_int.h"

void bl_store_save_options_init(bl_store_save_options *o)
{
    memset(o, 0, sizeof *o);
    o->kind = "run";
}

/*
 * Bind the values (types: 'i' int64_t, 'd' double, 't' const char *) to
 * st, step it and reset it. With `id`, the first column of a returned row
 * goes to *id (left alone when the statement returned none). 0 or an
 * error.
 */
static int put(bl_store *s, struct bl__stmt *st, int64_t *id, const char *types, ...)
{
    const struct bl__db_ops *o = DB_OPS(s);
    va_list ap;
    va_start(ap, types);
    int rc = 0;
    for (int i = 0; types[i] && !rc; i++) {
        if (types[i] == 'i')
            rc = o->bind_int(st, i + 1, va_arg(ap, int64_t));
        else if (types[i] == 'd')
            rc = o->bind_double(st, i + 1, va_arg(ap, double));
        else
            rc = o->bind_text(st, i + 1, va_arg(ap, const char *));
    }
    va_end(ap);
    if (!rc) {
        rc = o->step(st);
        if (rc == 1 && id)
            *id = o->column_int(st, 0);
        if (rc > 0)
            rc = 0;
    }
    o->reset(st);
    return rc;
}

static const char *label(const bl_label *l, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(l[i].key, key) == 0)
            return l[i].value;
    return NULL;
}

/* The statements of a save, prepared once and used per row. */
enum {
    S_LABEL,
    S_BENCH,
    S_COUNTER,
    S_LAUNCH,
    S_METRIC,
    S_UNIT,
    S_SAMPLE,
    S_FUNCTION,
    N_STMTS,
};

static const char *const stmt_sql[N_STMTS] = {
    [S_LABEL] = "INSERT INTO labels (part_id, kind, seq, key, value) VALUES (?, ?, ?, ?, ?)",
    [S_BENCH] =
        "INSERT INTO benches (run_id, part_id, seq, name, centre, ci_lo, ci_hi,"
        " ci_method, n_launches, n_batches, has_alloc, alloc_bytes_per_op, allocs_per_op, "
        "alloc_message,"
        " counters_scaled, counters_message, profile_raw, profile_message, own_time_s,"
        " own_count, job)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    [S_COUNTER] = "INSERT INTO counters (bench_id, seq, unit, value) VALUES (?, ?, ?, ?)",
    [S_LAUNCH] = "INSERT INTO launches (bench_id, seq, status, skipped, message, ns_per_op,"
                 " raw_ns_per_op, overhead_ns, clock_ns, pause_ns, bytes_per_op, items_per_op,"
                 " threads, measured_reps, n_measured, n_invalid, intrinsic, wall_s, exit_code,"
                 " term_signal, out_text, err_text, out_total, err_total, disturbed, size_param,"
                 " size_n, size_complexity, size_user_g, size_user_name, ref_ns, ref_cycles_per_op,"
                 " tuned_reps, tune_stale, bytes_sum_per_op, items_sum_per_op, loop_iterations,"
                 " counter_clock, label, time_unit, size_group, cpu_clock, size_n_sum,"
                 " size_user_g_sum)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                 " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                 " RETURNING id",
    [S_METRIC] = "INSERT INTO metrics (launch_id, seq, unit, value, flags, per_op, is_counter,"
                 " counter_flags, counter_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [S_UNIT] = "INSERT INTO units (part_id, seq, unit, key, value) VALUES (?, ?, ?, ?, ?)",
    [S_SAMPLE] = NULL, /* sample_sql(): many rows a statement */
    [S_FUNCTION] = "INSERT INTO profile_functions (part_id, seq, name, file, src_line, self_ns,"
                   " total_ns, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
};

/*
 * Batches go in SAMPLE_ROWS rows a statement: a run has thousands, and
 * one round trip per row is what a save to PostgreSQL would otherwise
 * spend its time on (bench/store/run.sh). 64 rows of 14 values stay far
 * below both engines' limit on parameters.
 */
#define SAMPLE_COLS 14
#define SAMPLE_ROWS 64

/* "INSERT INTO samples (...) VALUES (?, ...), ..." for `rows` rows, in buf. */
static const char *sample_sql(char *buf, size_t size, size_t rows)
{
    size_t n = (size_t)snprintf(buf, size,
                                "INSERT INTO samples (launch_id, seq, stage, reps, ns, cpu_ns,"
                                " nivcsw, migrations, minflt, majflt, pauses, invalid, ref_ns,"
                                " proc_cpu_ns) VALUES ");
    for (size_t r = 0; r < rows && n < size; r++)
        n += (size_t)snprintf(buf + n, size - n, "%s(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                              r ? ", " : "");
    return buf;
}

/* A batch waiting for its statement: rows of every launch of the part
 * share the statements, so a part costs about one round trip per
 * SAMPLE_ROWS batches. */
struct pending_sample {
    int64_t launch_id;
    size_t seq;
    const bl_sample *b;
};

/* Insert rows[0 .. n) with `st`, made by sample_sql(n). 0 or an error. */
static int put_samples(bl_store *s, struct bl__stmt *st, const struct pending_sample *rows,
                       size_t n)
{
    const struct bl__db_ops *o = DB_OPS(s);
    int rc = 0;
    for (size_t r = 0; r < n && !rc; r++) {
        const bl_sample *b = rows[r].b;
        char stage[2] = {b->stage ? b->stage : '?', '\0'};
        int k = (int)(r * SAMPLE_COLS);
        const int64_t ints[] = {(int64_t)b->nivcsw, (int64_t)b->migrations, (int64_t)b->minflt,
                                (int64_t)b->majflt, (int64_t)b->pauses,     (int64_t)b->invalid};
        rc = o->bind_int(st, k + 1, rows[r].launch_id);
        if (!rc)
            rc = o->bind_int(st, k + 2, (int64_t)rows[r].seq);
        if (!rc)
            rc = o->bind_text(st, k + 3, stage);
        if (!rc)
            rc = o->bind_int(st, k + 4, (int64_t)b->reps);
        if (!rc)
            rc = o->bind_double(st, k + 5, b->ns);
        if (!rc)
            rc = o->bind_double(st, k + 6, b->cpu_ns >= 0 ? b->cpu_ns : NAN);
        for (int c = 0; c < 6 && !rc; c++)
            rc = o->bind_int(st, k + 7 + c, ints[c]);
        if (!rc)
            rc = o->bind_double(st, k + 13, b->ref_ns);
        if (!rc) /* NULL: not measured (the thread's clock) */
            rc = o->bind_double(st, k + 14, b->proc_cpu_ns > 0 ? b->proc_cpu_ns : NAN);
    }
    if (!rc)
        rc = o->step(st);
    o->reset(st);
    return rc < 0 ? rc : 0;
}

struct saver {
    bl_store *s;
    struct bl__stmt *st[N_STMTS];
    int64_t run_id, part_id;
    struct pending_sample pending[SAMPLE_ROWS];
    size_t n_pending;
};

/* Insert the pending batches: a full statement, or (at the end of the
 * part) the rest in one of its own. */
static int flush_samples(struct saver *sv)
{
    int rc = 0;
    if (sv->n_pending == SAMPLE_ROWS) {
        rc = put_samples(sv->s, sv->st[S_SAMPLE], sv->pending, SAMPLE_ROWS);
    } else if (sv->n_pending) {
        char sql[8192];
        struct bl__stmt *st;
        rc = DB_OPS(sv->s)->prepare(sv->s->db, sample_sql(sql, sizeof sql, sv->n_pending), &st);
        if (!rc) {
            rc = put_samples(sv->s, st, sv->pending, sv->n_pending);
            DB_OPS(sv->s)->finalize(st);
        }
    }
    sv->n_pending = 0;
    return rc;
}

static int prepare_all(struct saver *sv)
{
    char sql[8192];
    for (int i = 0; i < N_STMTS; i++) {
        const char *q = i == S_SAMPLE ? sample_sql(sql, sizeof sql, SAMPLE_ROWS) : stmt_sql[i];
        int rc = DB_OPS(sv->s)->prepare(sv->s->db, q, &sv->st[i]);
        if (rc)
            return rc;
    }
    return 0;
}

static void finalize_all(struct saver *sv)
{
    for (int i = 0; i < N_STMTS; i++)
        DB_OPS(sv->s)->finalize(sv->st[i]);
}

static int save_labels(struct saver *sv, const char *kind, const bl_label *l, size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        rc = put(sv->s, sv->st[S_LABEL], NULL, "ititt", sv->part_id, kind, (int64_t)i, l[i].key,
                 l[i].value);
    return rc;
}

static int save_launch(struct saver *sv, int64_t bench_id, size_t seq, const bl_launch *l)
{
    bl_store *s = sv->s;
    int64_t launch_id;
    int rc = put(s, sv->st[S_LAUNCH], &launch_id, "iiiitdddddddiiiiidiittiiitdidtddiiddiitttidd",
                 bench_id, (int64_t)seq, (int64_t)l->status, (int64_t)l->skipped, l->message,
                 l->ns_per_op, l->raw_ns_per_op, l->overhead_ns, l->clock_ns, l->pause_ns,
                 l->bytes_per_op, l->items_per_op, (int64_t)l->threads, (int64_t)l->measured_reps,
                 (int64_t)l->n_measured, (int64_t)l->n_invalid, (int64_t)l->intrinsic, l->wall_s,
                 (int64_t)l->exit_code, (int64_t)l->term_signal, l->out, l->err,
                 (int64_t)l->out_total, (int64_t)l->err_total, (int64_t)l->disturbed, l->size.param,
                 l->size.param ? l->size.n : NAN, (int64_t)l->size.complexity, l->size.user_g,
                 l->size.user_name, l->ref_ns, l->ref_cycles_per_op, (int64_t)l->tuned_reps,
                 (int64_t)l->tune_stale, l->bytes_sum_per_op, l->items_sum_per_op,
                 (int64_t)l->loop_iterations, (int64_t)l->counter_clock, l->label,
                 l->time_unit[0] ? l->time_unit : NULL, l->size.group, (int64_t)l->cpu_clock,
                 l->size.n_sum, l->size.user_g_sum);
    for (size_t i = 0; i < l->n_metrics && !rc; i++) {
        const bl_metric *m = &l->metrics[i];
        rc = put(s, sv->st[S_METRIC], NULL, "iitdidiid", launch_id, (int64_t)i, m->unit, m->value,
                 (int64_t)m->flags, m->per_op, (int64_t)m->is_counter, (int64_t)m->counter_flags,
                 m->counter_sum);
    }
    for (size_t i = 0; i < l->n_samples && !rc; i++) {
        sv->pending[sv->n_pending++] = (struct pending_sample){launch_id, i, &l->samples[i]};
        if (sv->n_pending == SAMPLE_ROWS)
            rc = flush_samples(sv);
    }
    return rc;
}

static int save_bench(struct saver *sv, size_t seq, const bl_bench_result *b)
{
    bl_store *s = sv->s;
    bl_estimate est;
    int rc = bl_bench_estimate(b, 0.95, &est);
    if (rc && rc != BL_ENOTFOUND)
        return rc;
    int64_t bench_id;
    rc = put(s, sv->st[S_BENCH], &bench_id, "iiitdddiiiiddtitttdit", sv->run_id, sv->part_id,
             (int64_t)seq, b->name, est.centre, est.ci_lo, est.ci_hi, (int64_t)est.ci_method,
             (int64_t)est.n_launches, (int64_t)est.n_batches, (int64_t)b->has_alloc,
             b->has_alloc ? b->alloc_bytes_per_op : NAN, b->has_alloc ? b->allocs_per_op : NAN,
             b->alloc_message, (int64_t)b->counters_scaled, b->counters_message, b->profile_raw,
             b->profile_message, b->own_time_s > 0 ? b->own_time_s : NAN, (int64_t)b->own_count,
             b->job);
    for (int i = 0; i < b->n_counters && i < 6 && !rc; i++)
        rc = put(s, sv->st[S_COUNTER], NULL, "iitd", bench_id, (int64_t)i, b->counter_unit[i],
                 b->counter_per_op[i]);
    for (size_t j = 0; j < b->n_launches && !rc; j++)
        rc = save_launch(sv, bench_id, j, &b->launches[j]);
    return rc;
}

/* What a save records about the run beside its results. */
struct run_facts {
    const char *kind, *uid, *tag, *shard;
    const char *measured_at, *host, *fingerprint, *compiler, *cflags, *version, *env_warnings, *pkg;
    const char *commit, *branch;
    int dirty;
    char host_buf[256];
    struct bl__git_facts git;
};

/* The CI's variables that name the commit and the branch, in the order
 * they are tried: GitHub Actions (GITHUB_HEAD_REF is a pull request's own
 * branch; GITHUB_REF_NAME is then "123/merge"), then GitLab CI. */
static const char *const commit_vars[] = {"GITHUB_SHA", "CI_COMMIT_SHA", NULL};
static const char *const branch_vars[] = {"GITHUB_HEAD_REF", "GITHUB_REF_NAME",
                                          "CI_COMMIT_REF_NAME", NULL};

/* The value of the first of `names` that is set and not empty, or NULL. */
static const char *first_env(const char *const *names)
{
    for (size_t i = 0; names[i]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v)
            return v;
    }
    return NULL;
}

static void gather_facts(const bl_results *r, const bl_store_save_options *o, struct run_facts *f)
{
    memset(f, 0, sizeof *f);
    f->kind = o->kind ? o->kind : "run";
    f->uid = o->run_uid && *o->run_uid ? o->run_uid : NULL;
    f->tag = o->tag && *o->tag ? o->tag : NULL;
    f->shard = o->shard;
    const bl_label *m = r ? r->meta : NULL;
    size_t nm = r ? r->n_meta : 0;
    f->measured_at = label(m, nm, "date");
    f->host = label(m, nm, "host");
    if (!f->host) {
        if (gethostname(f->host_buf, sizeof f->host_buf - 1) != 0)
            snprintf(f->host_buf, sizeof f->host_buf, "unknown");
        f->host = f->host_buf;
    }
    f->fingerprint = label(m, nm, "fingerprint");
    f->compiler = label(m, nm, "compiler");
    f->cflags = label(m, nm, "cflags");
    f->version = label(m, nm, "benchlab-version");
    if (!f->version)
        f->version = bl_version();
    f->env_warnings = label(m, nm, "env-warnings");
    f->pkg = r ? label(r->config, r->n_config, "pkg") : NULL;
    /* The commit and branch, each from the first that says (docs/store.md,
     * "Commit and branch"): the results' own (a stored run merged, a file
     * with "# commit:", --commit and --branch, which the commands put
     * there), the CI's variables, the working directory's git. */
    if (!o->git_dir || *o->git_dir)
        bl__git_facts(o->git_dir, &f->git);
    f->commit = label(m, nm, "commit");
    if (!f->commit)
        f->commit = first_env(commit_vars);
    if (!f->commit)
        f->commit = f->git.commit[0] ? f->git.commit : NULL;
    /* git's branch and dirty flag describe its HEAD: only for that commit
     * (given in full or as 4 or more of its first digits, then kept in full) */
    size_t len = f->commit ? strlen(f->commit) : 0;
    int at_head = len >= 4 && f->git.commit[0] && strncmp(f->commit, f->git.commit, len) == 0;
    if (at_head)
        f->commit = f->git.commit;
    f->branch = label(m, nm, "branch");
    if (!f->branch)
        f->branch = first_env(branch_vars);
    if (!f->branch && at_head && f->git.branch[0])
        f->branch = f->git.branch;
    const char *d = label(m, nm, "dirty");
    f->dirty = -1;
    if (d)
        f->dirty = strcmp(d, "true") == 0 || strcmp(d, "1") == 0;
    else if (at_head)
        f->dirty = f->git.dirty;
}

/* What a save replaced: the earlier save of the same shard, if any. */
struct replaced {
    int64_t seq;      /* its part number; 0: nothing was replaced */
    int64_t launches; /* the launches it held */
};

/*
 * Delete the parts of sv->run_id saved before for `shard` ("K/N"): a
 * shard saved again (a CI job rerun under the same --run-id) replaces its
 * earlier attempt, whose launches would otherwise be judged beside the
 * new ones. The deletion cascades to the part's benchmarks, launches and
 * batches, inside the save's transaction: a save that then fails puts
 * them back. *rep (optional) receives the last part replaced.
 */
static int drop_shard(struct saver *sv, const char *shard, struct replaced *rep)
{
    const struct bl__db_ops *o = DB_OPS(sv->s);
    struct bl__stmt *st = NULL;
    int rc = o->prepare(sv->s->db,
                        "SELECT seq, n_launches FROM parts WHERE run_id = ? AND shard = ?"
                        " ORDER BY seq",
                        &st);
    if (!rc)
        rc = o->bind_int(st, 1, sv->run_id);
    if (!rc)
        rc = o->bind_text(st, 2, shard);
    while (!rc && (rc = o->step(st)) == 1) {
        if (rep) {
            rep->seq = o->column_int(st, 0);
            rep->launches = o->column_int(st, 1);
        }
        rc = 0;
    }
    if (st)
        o->finalize(st);
    st = NULL;
    if (!rc)
        rc = o->prepare(sv->s->db, "DELETE FROM parts WHERE run_id = ? AND shard = ?", &st);
    if (!rc) {
        rc = put(sv->s, st, NULL, "it", sv->run_id, shard);
        o->finalize(st);
    }
    return rc;
}

/*
 * The run this save belongs to: a new one, or the run named f->uid (made
 * when new). Then the part: its sequence number comes from the run's
 * n_parts, which the UPDATE locks, so concurrent shards number their
 * parts 1, 2, ... without gaps. Sets sv->run_id and sv->part_id.
 */
static int open_part(struct saver *sv, const struct run_facts *f, size_t n_benches,
                     size_t n_launches, size_t n_samples, struct replaced *replaced, char *err,
                     size_t err_size)
{
    bl_store *s = sv->s;
    const struct bl__db_ops *o = DB_OPS(s);
    char now[32];
    bl__utc_now(now, sizeof now);
    static const char insert_run[] =
        "INSERT INTO runs (uid, kind, saved_at, measured_at, git_commit, git_branch, git_dirty,"
        " host, fingerprint, compiler, cflags, version, env_warnings, pkg, tag, n_parts)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)";
    struct bl__stmt *st;
    char sql[1024];
    snprintf(sql, sizeof sql, "%s%s", insert_run,
             f->uid ? " ON CONFLICT (uid) DO NOTHING RETURNING id" : " RETURNING id");
    int rc = o->prepare(s->db, sql, &st);
    if (rc)
        return bl__store_fail(s, rc, err, err_size, "preparing the run");
    int64_t id = -1;
    rc = put(s, st, &id, "ttttttitttttttt", f->uid, f->kind, now, f->measured_at, f->commit,
             f->branch, (int64_t)f->dirty, f->host, f->fingerprint, f->compiler, f->cflags,
             f->version, f->env_warnings, f->pkg, f->tag);
    o->finalize(st);
    if (!rc && id < 0) {
        /* the run exists: the insert did nothing and returned no row */
        rc = o->prepare(s->db, "SELECT id, kind, git_commit FROM runs WHERE uid = ?", &st);
        if (rc)
            return bl__store_fail(s, rc, err, err_size, "finding run %s", f->uid);
        rc = o->bind_text(st, 1, f->uid);
        if (!rc)
            rc = o->step(st);
        if (rc == 1) {
            id = o->column_int(st, 0);
            const char *kind = o->column_text(st, 1), *commit = o->column_text(st, 2);
            if (kind && strcmp(kind, f->kind) != 0) {
                snprintf(err, err_size,
                         "store %s: run %s holds %s results; these are %s results: use "
                         "another --run-id",
                         s->name, f->uid, kind, f->kind);
                rc = -EEXIST;
            } else if (commit && f->commit && strcmp(commit, f->commit) != 0) {
                snprintf(err, err_size,
                         "store %s: run %s was measured at commit %.12s, these results at "
                         "%.12s: shards of one run share a commit; use another --run-id",
                         s->name, f->uid, commit, f->commit);
                rc = -EEXIST;
            } else {
                rc = 0;
            }
        } else if (rc == 0) {
            snprintf(s->db->msg, sizeof s->db->msg, "run vanished while saving");
            rc = -EIO;
        }
        o->finalize(st);
        if (rc == -EEXIST)
            return rc;
    }
    if (rc)
        return bl__store_fail(s, rc, err, err_size, "saving the run");
    sv->run_id = id;

    /* The run's row is locked first (PostgreSQL: concurrent shards queue
     * here; SQLite holds the whole file), so the numbering below and the
     * replacement see every part committed before. */
    rc = o->prepare(s->db, "UPDATE runs SET n_parts = n_parts WHERE id = ?", &st);
    if (!rc) {
        rc = put(s, st, NULL, "i", id);
        o->finalize(st);
    }
    if (!rc && f->shard)
        rc = drop_shard(sv, f->shard, replaced);
    int64_t seq = 0;
    if (!rc)
        rc = o->prepare(s->db, "SELECT COALESCE(MAX(seq), 0) + 1 FROM parts WHERE run_id = ?", &st);
    if (!rc) {
        rc = put(s, st, &seq, "i", id);
        o->finalize(st);
    }
    if (!rc)
        rc = o->prepare(s->db,
                        "INSERT INTO parts (run_id, seq, shard, host, saved_at, n_benches,"
                        " n_launches, n_samples) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                        &st);
    if (!rc) {
        rc = put(s, st, &sv->part_id, "iitttiii", id, seq, f->shard, f->host, now,
                 (int64_t)n_benches, (int64_t)n_launches, (int64_t)n_samples);
        o->finalize(st);
    }
    if (!rc)
        rc = o->prepare(s->db,
                        "UPDATE runs SET n_parts = (SELECT count(*) FROM parts WHERE run_id = ?)"
                        " WHERE id = ?",
                        &st);
    if (!rc) {
        rc = put(s, st, NULL, "ii", id, id);
        o->finalize(st);
    }
    return rc ? bl__store_fail(s, rc, err, err_size, "saving the run") : 0;
}

/* Begin, open the part, let `fill` write the part's rows, commit; or roll back. */
static int save_part(bl_store *s, const struct run_facts *f, size_t n_benches, size_t n_launches,
                     size_t n_samples, int (*fill)(struct saver *, const void *), const void *what,
                     int64_t *run_id, struct replaced *replaced, char *err, size_t err_size)
{
    struct saver sv = {.s = s};
    int rc = bl__store_check_current(s, err, err_size);
    if (rc)
        return rc;
    rc = DB_OPS(s)->begin(s->db, BL__TX_WRITE);
    if (rc)
        return bl__store_fail(s, rc, err, err_size, "cannot write");
    rc = open_part(&sv, f, n_benches, n_launches, n_samples, replaced, err, err_size);
    if (!rc) {
        rc = prepare_all(&sv);
        if (!rc)
            rc = fill(&sv, what);
        finalize_all(&sv);
        if (!rc)
            rc = DB_OPS(s)->commit(s->db);
        if (rc)
            bl__store_fail(s, rc, err, err_size, "saving the run");
    }
    if (rc) {
        DB_OPS(s)->rollback(s->db);
        return rc;
    }
    if (run_id)
        *run_id = sv.run_id;
    return 0;
}

static int fill_results(struct saver *sv, const void *what)
{
    const bl_results *r = what;
    int rc = save_labels(sv, "config", r->config, r->n_config);
    if (!rc)
        rc = save_labels(sv, "meta", r->meta, r->n_meta);
    for (size_t i = 0; i < r->n_units && !rc; i++)
        rc = put(sv->s, sv->st[S_UNIT], NULL, "iittt", sv->part_id, (int64_t)i, r->units[i].unit,
                 r->units[i].key, r->units[i].value);
    for (size_t i = 0; i < r->n_benches && !rc; i++)
        rc = save_bench(sv, i, &r->benches[i]);
    return rc ? rc : flush_samples(sv);
}

/* bl_store_save, and in *replaced (optional) what the save replaced. */
static int save_results(bl_store *s, const bl_results *r, const bl_store_save_options *opts,
                        int64_t *run_id, struct replaced *replaced, char *err, size_t err_size)
{
    bl_store_save_options def;
    if (!opts) {
        bl_store_save_options_init(&def);
        opts = &def;
    }
    struct run_facts f;
    gather_facts(r, opts, &f);
    size_t n_launches = 0, n_samples = 0;
    for (size_t i = 0; i < r->n_benches; i++) {
        n_launches += r->benches[i].n_launches;
        for (size_t j = 0; j < r->benches[i].n_launches; j++)
            n_samples += r->benches[i].launches[j].n_samples;
    }
    return save_part(s, &f, r->n_benches, n_launches, n_samples, fill_results, r, run_id, replaced,
                     err, err_size);
}

int bl_store_save(bl_store *s, const bl_results *r, const bl_store_save_options *opts,
                  int64_t *run_id, char *err, size_t err_size)
{
    return save_results(s, r, opts, run_id, NULL, err, err_size);
}

struct profile_part {
    const bl_label *info;
    size_t n_info;
    const bl_store_profile_function *fns;
    size_t n_fns;
};

static int fill_profile(struct saver *sv, const void *what)
{
    const struct profile_part *p = what;
    int rc = save_labels(sv, "meta", p->info, p->n_info);
    for (size_t i = 0; i < p->n_fns && !rc; i++) {
        const bl_store_profile_function *fn = &p->fns[i];
        rc = put(sv->s, sv->st[S_FUNCTION], NULL, "iittiddi", sv->part_id, (int64_t)i,
                 fn->name ? fn->name : "?", fn->file, (int64_t)fn->line, fn->self_ns, fn->total_ns,
                 (int64_t)fn->calls);
    }
    return rc;
}

int bl_store_save_profile(bl_store *s, const bl_label *info, size_t n_info,
                          const bl_store_profile_function *functions, size_t n_functions,
                          const bl_store_save_options *opts, int64_t *run_id, char *err,
                          size_t err_size)
{
    bl_store_save_options o;
    if (opts)
        o = *opts;
    else
        bl_store_save_options_init(&o);
    o.kind = "profile";
    bl_results view = {.meta = (bl_label *)info, .n_meta = n_info};
    struct run_facts f;
    gather_facts(&view, &o, &f);
    struct profile_part p = {info, n_info, functions, n_functions};
    return save_part(s, &f, 0, 0, 0, fill_profile, &p, run_id, NULL, err, err_size);
}

/* Whether a run can be saved into `s`: one row written and rolled back
 * takes the write lock and writes to the file (SQLite's journal beside it),
 * so a read-only file, directory, file system or database role fails here,
 * before the run, instead of after it. */
static int check_writable(bl_store *s, char *err, size_t err_size)
{
    const struct bl__db_ops *o = DB_OPS(s);
    int rc = bl__store_check_current(s, err, err_size);
    if (rc)
        return rc;
    rc = o->begin(s->db, BL__TX_WRITE);
    if (!rc) {
        rc = o->exec(s->db, "INSERT INTO benchlab_meta (key, value) VALUES ('write-check', '')");
        o->rollback(s->db);
    }
    return rc ? bl__store_fail(s, rc, err, err_size, "cannot be written") : 0;
}

/* Whether a file or directory can be made in `dir` (which exists), for
 * the store `path` in messages. 0 or -errno with the reason in err. */
static int can_make_in(const char *path, const char *dir, char *err, size_t err_size)
{
    struct stat st;
    int e = stat(dir, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
    if (e) {
        snprintf(err, err_size, "store %s: %s: %s", path, dir, strerror(e));
        return -e;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        e = errno;
        snprintf(err, err_size, "store %s: cannot be created in %s: %s", path, dir, strerror(e));
        return -e;
    }
    return 0;
}

/* Turn the path in p[] (at least 2 bytes) into its directory, in place:
 * "DIR" of "DIR/NAME", "." of "NAME", "/" of "/NAME". */
static void to_dir(char *p)
{
    char *slash = strrchr(p, '/');
    if (!slash)
        strcpy(p, ".");
    else if (slash == p)
        p[1] = '\0';
    else
        *slash = '\0';
}

/*
 * Check, without creating anything, that `spec` (NULL or "": the default
 * store) is an SQLite store that does not exist yet (or is an empty file)
 * and could be made: its directory is writable, or can be made in a
 * writable parent, as bl_store_open(BL_STORE_CREATE) would make it.
 * Returns 1 (and the store's name in `name`) for such a new store; 0 when
 * the store exists or is a PostgreSQL URI (open it to check it); or a
 * negative error with one line in err that names the store.
 */
static int store_check_new(const char *spec, char *name, size_t name_size, char *err,
                           size_t err_size)
{
    char def[PATH_MAX + 64];
    if (!(spec = bl__store_spec_or_default(spec, def, sizeof def, err, err_size)))
        return -ENAMETOOLONG;
    if (bl__store_is_pg_spec(spec))
        return 0;
    const char *path = strncmp(spec, "sqlite:", 7) == 0 ? spec + 7 : spec;
    struct stat st;
    if (stat(path, &st) == 0) {
        /* an empty file: SQLite would write the schema into it */
        if (!S_ISREG(st.st_mode) || st.st_size > 0)
            return 0;
        if (access(path, W_OK) != 0) {
            int e = errno;
            snprintf(err, err_size, "store %s: cannot be written: %s", spec, strerror(e));
            return -e;
        }
    } else if (errno != ENOENT) {
        int e = errno;
        snprintf(err, err_size, "store %s: %s", spec, strerror(e));
        return -e;
    }
    /* its directory (SQLite's journal goes beside the file), or, where
     * that does not exist yet, the one saving would make it in
     * (store.c's make_parent: the store's own directory, not its ancestors) */
    char dir[PATH_MAX];
    if (strlen(path) >= sizeof dir) {
        snprintf(err, err_size, "store %.200s...: path too long", path);
        return -ENAMETOOLONG;
    }
    memcpy(dir, path, strlen(path) + 1);
    to_dir(dir);
    int rc = 0;
    if (stat(dir, &st) != 0 && errno == ENOENT) {
        char parent[PATH_MAX];
        memcpy(parent, dir, strlen(dir) + 1);
        to_dir(parent);
        if (stat(parent, &st) != 0) {
            int e = errno;
            snprintf(err, err_size, "store %s: cannot create directory %s: %s", spec, dir,
                     e == ENOENT ? "its parent does not exist" : strerror(e));
            return -e;
        }
        rc = can_make_in(spec, parent, err, err_size);
    } else {
        rc = can_make_in(spec, dir, err, err_size);
    }
    if (!rc && name && name_size)
        snprintf(name, name_size, "%s", spec);
    return rc ? rc : 1;
}

int bl_store_run_saver(const bl_run_save_request *req, const bl_results *results, int64_t *run_id,
                       char *where, size_t where_size, char *err, size_t err_size)
{
    bl_store *s;
    /* the check before a run creates nothing: a run that then saves
     * nothing (it failed, or is interrupted) leaves no new store behind */
    if (!results) {
        int fresh = store_check_new(req->store, where, where_size, err, err_size);
        if (fresh)
            return fresh < 0 ? fresh : 0;
    }
    int rc = bl_store_open(req->store, BL_STORE_CREATE, &s, err, err_size);
    if (rc)
        return rc;
    if (where && where_size)
        snprintf(where, where_size, "%s", bl_store_name(s));
    if (!results) {
        rc = check_writable(s, err, err_size);
        bl_store_close(s);
        return rc;
    }
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.run_uid = req->run_uid;
    o.tag = req->tag;
    o.shard = req->shard;
    struct replaced rep = {0};
    rc = save_results(s, results, &o, run_id, &rep, err, err_size);
    if (!rc && rep.seq && where && where_size) {
        size_t len = strlen(where);
        snprintf(where + len, where_size - len,
                 " (shard %s saved again: replaces its earlier save, part %lld, %lld launches)",
                 req->shard, (long long)rep.seq, (long long)rep.launches);
    }
    bl_store_close(s);
    return rc;
}
