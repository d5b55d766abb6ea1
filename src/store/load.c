/*
 * load.c - reading runs back: a whole run into a bl_results (the model a
 * run fills, so every writer, compare and judge read a stored run as they
 * read a fresh one), the per-benchmark history across runs, and profile
 * summaries.
 *
 * A run is read with one query per table (labels, benches, counters,
 * launches, metrics, samples), each ordered by the rows' ids, which grow
 * in the order they were saved; child rows find their parent through a
 * sorted id map. The whole load is one read transaction, so a save that
 * commits meanwhile is either wholly visible or not at all.
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/judge.h"
#include "benchlab/stats.h"
#include "store_int.h"

/* id -> (bench index, launch index), filled in increasing id order. */
struct idmap {
    int64_t *id;
    size_t *bench, *launch;
    size_t n, cap;
};

static int idmap_add(struct idmap *m, int64_t id, size_t bench, size_t launch)
{
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        int64_t *ni = realloc(m->id, nc * sizeof *ni);
        if (ni)
            m->id = ni;
        size_t *nb = realloc(m->bench, nc * sizeof *nb);
        if (nb)
            m->bench = nb;
        size_t *nl = realloc(m->launch, nc * sizeof *nl);
        if (nl)
            m->launch = nl;
        if (!ni || !nb || !nl)
            return -ENOMEM;
        m->cap = nc;
    }
    if (m->n && id <= m->id[m->n - 1])
        return -EIO; /* ids must come in order */
    m->id[m->n] = id;
    m->bench[m->n] = bench;
    m->launch[m->n] = launch;
    m->n++;
    return 0;
}

static long idmap_find(const struct idmap *m, int64_t id)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->id[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->id[lo] == id ? (long)lo : -1;
}

static void idmap_fini(struct idmap *m)
{
    free(m->id);
    free(m->bench);
    free(m->launch);
}

struct loader {
    bl_store *s;
    int64_t run_id;
    bl_results *r;
    struct idmap benches, launches;
};

/* The columns `cols` of schema version 2, or for a store still at version
 * 1 (read as it is: store.c, open_unmigrated) what version 1 rows mean. */
#define V2(ld, cols, v1) ((ld)->s->version >= 2 ? (cols) : (v1))
/* The same for version 4's columns (the benchmark's job). */
#define V4(ld, cols, v3) ((ld)->s->version >= 4 ? (cols) : (v3))

/* Prepare sql with the run id bound to its one parameter. */
static int query_run(struct loader *ld, const char *sql, struct bl__stmt **st)
{
    int rc = DB_OPS(ld->s)->prepare(ld->s->db, sql, st);
    if (!rc && (rc = DB_OPS(ld->s)->bind_int(*st, 1, ld->run_id)))
        DB_OPS(ld->s)->finalize(*st);
    return rc;
}

static const char *text_or(bl_store *s, struct bl__stmt *st, int col, const char *dflt)
{
    const char *t = DB_OPS(s)->column_text(st, col);
    return t ? t : dflt;
}

static char *dup_col(bl_store *s, struct bl__stmt *st, int col, int *oom)
{
    return bl__col_strdup(s, st, col, oom);
}

static int load_labels(struct loader *ld)
{
    const struct bl__db_ops *o = DB_OPS(ld->s);
    struct bl__stmt *st;
    int rc = query_run(ld,
                       "SELECT l.kind, l.key, l.value FROM labels l JOIN parts p"
                       " ON l.part_id = p.id WHERE p.run_id = ? ORDER BY p.seq, l.kind, l.seq",
                       &st);
    if (rc)
        return rc;
    while ((rc = o->step(st)) == 1) {
        const char *kind = text_or(ld->s, st, 0, ""), *key = text_or(ld->s, st, 1, ""),
                   *value = text_or(ld->s, st, 2, "");
        int config = strcmp(kind, "config") == 0;
        /* the first part's labels win; later parts only add keys */
        const bl_label *have = config ? ld->r->config : ld->r->meta;
        size_t n = config ? ld->r->n_config : ld->r->n_meta, i;
        for (i = 0; i < n && strcmp(have[i].key, key) != 0; i++) {
        }
        if (i < n)
            continue;
        rc = config ? bl_results_set_config(ld->r, key, value)
                    : bl_results_set_meta(ld->r, key, value);
        if (rc)
            break;
    }
    o->finalize(st);
    return rc < 0 ? rc : 0;
}

static int load_units(struct loader *ld)
{
    const struct bl__db_ops *o = DB_OPS(ld->s);
    struct bl__stmt *st;
    int rc = query_run(ld,
                       "SELECT u.unit, u.key, u.value FROM units u JOIN parts p"
                       " ON u.part_id = p.id WHERE p.run_id = ? ORDER BY p.seq, u.seq",
                       &st);
    if (rc)
        return rc;
    while ((rc = o->step(st)) == 1) {
        /* the first part's value of a (unit, key) pair stays, as benchstat keeps the first */
        int added = bl_results_set_unit_meta(ld->r, text_or(ld->s, st, 0, "?"),
                                             text_or(ld->s, st, 1, "?"), text_or(ld->s, st, 2, ""));
        if (added < 0) {
            rc = added;
            break;
        }
    }
    o->finalize(st);
    return rc < 0 ? rc : 0;
}

static int load_benches(struct loader *ld)
{
    const struct bl__db_ops *o = DB_OPS(ld->s);
    struct bl__stmt *st;
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT b.id, b.name, b.has_alloc, b.alloc_bytes_per_op, b.allocs_per_op,"
             " b.alloc_message, b.counters_scaled, b.counters_message, b.profile_raw,"
             " b.profile_message, %s, %s FROM benches b WHERE b.run_id = ? ORDER BY b.id",
             V2(ld, "b.own_time_s, b.own_count", "NULL, 0"), V4(ld, "b.job", "NULL"));
    int rc = query_run(ld, sql, &st);
    if (rc)
        return rc;
    int oom = 0;
    while ((rc = o->step(st)) == 1) {
        bl_bench_result *b =
            bl_results_bench_job(ld->r, o->column_text(st, 12), text_or(ld->s, st, 1, "?"));
        if (!b) {
            rc = -ENOMEM;
            break;
        }
        size_t idx = (size_t)(b - ld->r->benches);
        if (o->column_int(st, 2)) {
            b->has_alloc = true;
            b->alloc_bytes_per_op = o->column_double(st, 3);
            b->allocs_per_op = o->column_double(st, 4);
        }
        if (!b->alloc_message)
            b->alloc_message = dup_col(ld->s, st, 5, &oom);
        b->counters_scaled = b->counters_scaled || o->column_int(st, 6);
        if (!b->counters_message)
            b->counters_message = dup_col(ld->s, st, 7, &oom);
        if (!b->profile_raw)
            b->profile_raw = dup_col(ld->s, st, 8, &oom);
        if (!b->profile_message)
            b->profile_message = dup_col(ld->s, st, 9, &oom);
        /* the first part's plan, as bl_results_merge keeps it */
        if (!b->own_time_s && !b->own_count) {
            double t = o->column_double(st, 10);
            b->own_time_s = t > 0 ? t : 0;
            b->own_count = (int)o->column_int(st, 11);
        }
        if (oom || (rc = idmap_add(&ld->benches, o->column_int(st, 0), idx, 0)))
            break;
    }
    o->finalize(st);
    if (oom)
        return -ENOMEM;
    return rc < 0 ? rc : 0;
}

static int load_counters(struct loader *ld)
{
    const struct bl__db_ops *o = DB_OPS(ld->s);
    struct bl__stmt *st;
    int rc = query_run(ld,
                       "SELECT c.bench_id, c.unit, c.value FROM counters c JOIN benches b"
                       " ON c.bench_id = b.id WHERE b.run_id = ? ORDER BY c.bench_id, c.seq",
                       &st);
    if (rc)
        return rc;
    while ((rc = o->step(st)) == 1) {
        long k = idmap_find(&ld->benches, o->column_int(st, 0));
        if (k < 0)
            continue;
        bl_bench_result *b = &ld->r->benches[ld->benches.bench[k]];
        const char *unit = text_or(ld->s, st, 1, "?");
        int i;
        for (i = 0; i < b->n_counters && strcmp(b->counter_unit[i], unit) != 0; i++) {
        }
        if (i == b->n_counters) {
            if (b->n_counters == 6)
                continue;
            b->n_counters++;
        }
        snprintf(b->counter_unit[i], sizeof b->counter_unit[i], "%s", unit);
        b->counter_per_op[i] = o->column_double(st, 2);
    }
    o->finalize(st);
    return rc < 0 ? rc : 0;
}

static int load_launches(struct loader *ld)
{
    const struct bl__db_ops *o = DB_OPS(ld->s);
    struct bl__stmt *st;
    char sql[2048];
    snprintf(sql, sizeof sql,
             "SELECT l.id, l.bench_id, l.status, l.skipped, l.message, l.ns_per_op,"
             " l.raw_ns_per_op, l.overhead_ns, l.clock_ns, l.pause_ns, l.bytes_per_op,"
             " l.measured_reps, l.n_measured, l.n_invalid, l.intrinsic, l.wall_s,"
             " l.exit_code, l.term_signal, l.out_text, l.err_text, l.out_total,"
             " l.err_total, l.items_per_op, l.threads, l.disturbed, l.size_param,"
             " l.size_n, l.size_complexity, l.size_user_g, l.size_user_name, l.ref_ns,"
             " l.ref_cycles_per_op, l.tuned_reps, l.tune_stale, %s"
             " FROM launches l JOIN benches b ON l.bench_id = b.id"
             " WHERE b.run_id = ? ORDER BY l.id",
             V2(ld,
                "l.bytes_sum_per_op, l.items_sum_per_op, l.loop_iterations, l.counter_clock,"
                " l.label, l.time_unit, l.size_group, l.cpu_clock, l.size_n_sum,"
                " l.size_user_g_sum",
                "NULL, NULL, 0, 0, NULL, NULL, NULL, 0, 0, NULL"));
    int rc = query_run(ld, sql, &st);
    if (rc)
        return rc;
    int oom = 0;
    while ((rc = o->step(st)) == 1) {
        long k = idmap_find(&ld->benches, o->column_int(st, 1));
        if (k < 0)
            continue;
        size_t bi = ld->benches.bench[k];
        bl_bench_result *b = &ld->r->benches[bi];
        bl_launch *l = bl_results_add_launch(b);
        if (!l) {
            rc = -ENOMEM;
            break;
        }
        l->status = (int)o->column_int(st, 2);
        l->skipped = o->column_int(st, 3) != 0;
        l->message = dup_col(ld->s, st, 4, &oom);
        l->ns_per_op = o->column_double(st, 5);
        l->raw_ns_per_op = o->column_double(st, 6);
        l->overhead_ns = o->column_double(st, 7);
        l->clock_ns = o->column_double(st, 8);
        l->pause_ns = o->column_double(st, 9);
        l->bytes_per_op = o->column_double(st, 10);
        if (isnan(l->clock_ns))
            l->clock_ns = 0;
        if (isnan(l->pause_ns))
            l->pause_ns = 0;
        if (isnan(l->bytes_per_op))
            l->bytes_per_op = 0;
        l->measured_reps = (uint64_t)o->column_int(st, 11);
        l->n_measured = (size_t)o->column_int(st, 12);
        l->n_invalid = (size_t)o->column_int(st, 13);
        l->intrinsic = (unsigned)o->column_int(st, 14);
        l->wall_s = o->column_double(st, 15);
        l->exit_code = (int)o->column_int(st, 16);
        l->term_signal = (int)o->column_int(st, 17);
        l->out = dup_col(ld->s, st, 18, &oom);
        l->err = dup_col(ld->s, st, 19, &oom);
        l->out_total = (size_t)o->column_int(st, 20);
        l->err_total = (size_t)o->column_int(st, 21);
        l->items_per_op = o->column_double(st, 22);
        if (isnan(l->items_per_op))
            l->items_per_op = 0;
        l->threads = (int)o->column_int(st, 23);
        l->disturbed = o->column_int(st, 24) != 0;
        l->size.param = dup_col(ld->s, st, 25, &oom);
        l->size.n = o->column_double(st, 26);
        l->size.complexity = (int)o->column_int(st, 27);
        l->size.user_g = o->column_double(st, 28);
        l->size.user_name = dup_col(ld->s, st, 29, &oom);
        l->ref_ns = o->column_double(st, 30);
        l->ref_cycles_per_op = o->column_double(st, 31);
        l->tuned_reps = (uint64_t)o->column_int(st, 32);
        l->tune_stale = o->column_int(st, 33) != 0;
        l->bytes_sum_per_op = o->column_double(st, 34);
        l->items_sum_per_op = o->column_double(st, 35);
        if (isnan(l->bytes_sum_per_op)) /* 0: not said, as rows saved before said nothing */
            l->bytes_sum_per_op = 0;
        if (isnan(l->items_sum_per_op))
            l->items_sum_per_op = 0;
        l->loop_iterations = (uint64_t)o->column_int(st, 36);
        l->counter_clock = (int)o->column_int(st, 37);
        l->label = dup_col(ld->s, st, 38, &oom);
        snprintf(l->time_unit, sizeof l->time_unit, "%s", text_or(ld->s, st, 39, ""));
        l->size.group = dup_col(ld->s, st, 40, &oom);
        l->cpu_clock = o->column_int(st, 41) == BL_CPU_PROCESS ? BL_CPU_PROCESS : BL_CPU_THREAD;
        l->size.n_sum = o->column_double(st, 42);
        if (isnan(l->size.n_sum)) /* 0: not said */
            l->size.n_sum = 0;
        l->size.user_g_sum = o->column_double(st, 43); /* NULL: NAN, not said */
        if (oom || (rc = idmap_add(&ld->launches, o->column_int(st, 0), bi, b->n_launches - 1)))
            break;
    }
    o->finalize(st);
    if (oom)
        return -ENOMEM;
    return rc < 0 ? rc : 0;
}

static bl_launch *launch_of(struct loader *ld, int64_t id)
{
    long k = idmap_find(&ld->launches, id);
    if (k < 0)
        return NULL;
    return &ld->r->benches[ld->launches.bench[k]].launches[ld->launches.launch[k]];
}

static int load_metrics(struct loader *ld)
{
    const struct bl__db_ops *o = DB_OPS(ld->s);
    struct bl__stmt *st;
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT m.launch_id, m.unit, m.value, m.flags, m.per_op, %s"
             " FROM metrics m JOIN launches l"
             " ON m.launch_id = l.id JOIN benches b ON l.bench_id = b.id"
             " WHERE b.run_id = ? ORDER BY m.launch_id, m.seq",
             V2(ld, "m.is_counter, m.counter_flags, m.counter_sum", "0, 0, NULL"));
    int rc = query_run(ld, sql, &st);
    if (rc)
        return rc;
    while ((rc = o->step(st)) == 1) {
        bl_launch *l = launch_of(ld, o->column_int(st, 0));
        if (!l)
            continue;
        if ((rc = bl_launch_set_metric(l, text_or(ld->s, st, 1, "?"), o->column_double(st, 2))))
            break;
        /* restored as saved: a rate's value per second and per repetition */
        bl_metric *m = &l->metrics[l->n_metrics - 1];
        m->flags = (unsigned)o->column_int(st, 3);
        m->per_op = o->column_double(st, 4);
        /* a counter keeps its flags and its threads' sum (value as saved) */
        m->is_counter = o->column_int(st, 5) != 0;
        m->counter_flags = (unsigned)o->column_int(st, 6);
        m->counter_sum = m->is_counter ? o->column_double(st, 7) : 0;
    }
    o->finalize(st);
    return rc < 0 ? rc : 0;
}

static int load_samples(struct loader *ld)
{
    const struct bl__db_ops *o = DB_OPS(ld->s);
    struct bl__stmt *st;
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT s.launch_id, s.stage, s.reps, s.ns, s.cpu_ns, s.nivcsw,"
             " s.migrations, s.minflt, s.majflt, s.pauses, s.invalid, s.ref_ns, %s"
             " FROM samples s"
             " JOIN launches l ON s.launch_id = l.id JOIN benches b"
             " ON l.bench_id = b.id WHERE b.run_id = ? ORDER BY s.launch_id, s.seq",
             V2(ld, "s.proc_cpu_ns", "NULL"));
    int rc = query_run(ld, sql, &st);
    if (rc)
        return rc;
    int64_t last_id = -1;
    bl_launch *l = NULL;
    while ((rc = o->step(st)) == 1) {
        int64_t id = o->column_int(st, 0);
        if (id != last_id) {
            l = launch_of(ld, id);
            last_id = id;
        }
        if (!l)
            continue;
        const char *stage = text_or(ld->s, st, 1, "?");
        double cpu = o->column_double(st, 4), proc = o->column_double(st, 12);
        bl_sample smp = {
            .stage = stage[0],
            .reps = (uint64_t)o->column_int(st, 2),
            .ns = o->column_double(st, 3),
            .cpu_ns = isnan(cpu) ? -1 : cpu,
            .nivcsw = (uint32_t)o->column_int(st, 5),
            .migrations = (uint32_t)o->column_int(st, 6),
            .minflt = (uint32_t)o->column_int(st, 7),
            .majflt = (uint32_t)o->column_int(st, 8),
            .pauses = (uint32_t)o->column_int(st, 9),
            .invalid = (unsigned)o->column_int(st, 10),
            .ref_ns = o->column_double(st, 11),
            .proc_cpu_ns = proc > 0 ? proc : -1, /* NULL: not measured */
        };
        if ((rc = bl_launch_add_sample(l, &smp)))
            break;
        /* the per-reason counts follow from the stored verdicts */
        if (smp.stage == BL_STAGE_MEASURE)
            for (unsigned b = 0; b < BL_INVALID_NREASONS; b++)
                if (smp.invalid & (1u << b))
                    l->invalid_by[b]++;
    }
    o->finalize(st);
    return rc < 0 ? rc : 0;
}

/* The run's store facts as metadata, after the saved labels. */
static int add_run_meta(bl_results *r, const bl_store_run *run)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)run->id);
    int rc = bl_results_set_meta(r, "run-id", id);
    if (!rc && run->uid)
        rc = bl_results_set_meta(r, "run-name", run->uid);
    if (!rc && run->commit)
        rc = bl_results_set_meta(r, "commit", run->commit);
    if (!rc && run->branch)
        rc = bl_results_set_meta(r, "branch", run->branch);
    if (!rc && run->dirty >= 0)
        rc = bl_results_set_meta(r, "dirty", run->dirty ? "true" : "false");
    if (!rc && run->tag)
        rc = bl_results_set_meta(r, "tag", run->tag);
    return rc;
}

static int load_run(bl_store *s, int64_t run_id, bl_results **out, bl_store_run *info, char *err,
                    size_t err_size)
{
    *out = NULL;
    bl_store_run run;
    int rc = DB_OPS(s)->begin(s->db, BL__TX_READ);
    if (rc)
        return bl__store_fail(s, rc, err, err_size, "cannot read");
    rc = bl_store_get_run(s, run_id, &run, err, err_size);
    if (rc) {
        DB_OPS(s)->rollback(s->db);
        return rc;
    }
    struct loader ld = {.s = s, .run_id = run_id, .r = bl_results_create()};
    rc = ld.r ? 0 : -ENOMEM;
    if (!rc)
        rc = load_labels(&ld);
    if (!rc)
        rc = load_units(&ld);
    if (!rc)
        rc = load_benches(&ld);
    if (!rc)
        rc = load_counters(&ld);
    if (!rc)
        rc = load_launches(&ld);
    if (!rc)
        rc = load_metrics(&ld);
    if (!rc)
        rc = load_samples(&ld);
    if (!rc)
        rc = add_run_meta(ld.r, &run);
    /* the complexity fits are derived, not stored: made again as the run made them */
    if (!rc)
        rc = bl_results_refit_complexity(ld.r);
    DB_OPS(s)->rollback(s->db); /* a read: nothing to commit */
    idmap_fini(&ld.benches);
    idmap_fini(&ld.launches);
    if (rc) {
        bl_store_run_fini(&run);
        bl_results_destroy(ld.r);
        return bl__store_fail(s, rc, err, err_size, "loading run %lld", (long long)run_id);
    }
    if (info)
        *info = run;
    else
        bl_store_run_fini(&run);
    *out = ld.r;
    return 0;
}

int bl_store_load(bl_store *s, int64_t run_id, bl_results **out, char *err, size_t err_size)
{
    return load_run(s, run_id, out, NULL, err, err_size);
}

int bl_store_load_ref(bl_store *s, const char *ref, bl_results **out, bl_store_run *run, char *err,
                      size_t err_size)
{
    int64_t id;
    *out = NULL;
    int rc = bl_store_resolve(s, ref, &id, err, err_size);
    return rc ? rc : load_run(s, id, out, run, err, err_size);
}

/* ---- history ---------------------------------------------------------------------- */

void bl_store_history_destroy(bl_store_history *h)
{
    if (!h)
        return;
    bl_store_runs_free(h->runs, h->n_runs);
    for (size_t i = 0; i < h->n_series; i++) {
        free(h->series[i].name);
        free(h->series[i].points);
    }
    free(h->series);
    free(h);
}

/*
 * The series of `name`, made when new. Series keep the order the suite
 * runs its benchmarks in, not the order of their names ("size=64" before
 * "size=1024", as the run's table and benchstat show them): runs are read
 * newest first, each in its own order, and a benchmark first met in an
 * older run goes right after the one it followed there (*prev: the index
 * of the series of the run's previous benchmark, -1 at its first).
 */
static bl_store_series *series_for(bl_store_history *h, size_t *cap, const char *name, long *prev)
{
    for (size_t i = 0; i < h->n_series; i++) {
        if (strcmp(h->series[i].name, name) == 0) {
            *prev = (long)i;
            return &h->series[i];
        }
    }
    if (h->n_series == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        bl_store_series *ns = realloc(h->series, nc * sizeof *ns);
        if (!ns)
            return NULL;
        h->series = ns;
        *cap = nc;
    }
    char *copy = strdup(name);
    if (!copy)
        return NULL;
    size_t at = (size_t)(*prev + 1);
    memmove(&h->series[at + 1], &h->series[at], (h->n_series - at) * sizeof *h->series);
    bl_store_series *se = &h->series[at];
    memset(se, 0, sizeof *se);
    se->name = copy;
    h->n_series++;
    *prev = (long)at;
    return se;
}

static int add_point(bl_store_series *se, const bl_store_point *p)
{
    /* a benchmark saved by two parts of one run: keep the fuller one */
    if (se->n_points && se->points[se->n_points - 1].run == p->run) {
        if (p->n_launches > se->points[se->n_points - 1].n_launches)
            se->points[se->n_points - 1] = *p;
        return 0;
    }
    bl_store_point *np = realloc(se->points, (se->n_points + 1) * sizeof *np);
    if (!np)
        return -ENOMEM;
    se->points = np;
    se->points[se->n_points++] = *p;
    return 0;
}

/* The launches of a run per benchmark with what a metric other than the
 * time reads: the launch's ref-cycles/op column, its metric of that unit,
 * and the counters pass's count of it; a benchmark without successful
 * launches gives one row of NULLs. */
static const char metric_sql[] =
    "SELECT b.id, %s, l.ref_cycles_per_op, m.value, c.value, b.n_batches"
    " FROM benches b"
    " LEFT JOIN launches l ON l.bench_id = b.id AND l.status = 0 AND l.skipped = 0"
    " AND l.ns_per_op IS NOT NULL"
    " LEFT JOIN metrics m ON m.launch_id = l.id AND m.unit = ?"
    " LEFT JOIN counters c ON c.bench_id = b.id AND c.unit = ?"
    " WHERE b.run_id = ? ORDER BY b.id, l.seq";

struct metric_acc {
    double *v;
    size_t n, cap;
    double counted;
};

static int acc_add(struct metric_acc *a, double x)
{
    if (a->n == a->cap) {
        size_t nc = a->cap ? a->cap * 2 : 16;
        double *nv = realloc(a->v, nc * sizeof *nv);
        if (!nv)
            return -ENOMEM;
        a->v = nv;
        a->cap = nc;
    }
    a->v[a->n++] = x;
    return 0;
}

/* A benchmark's point of the metric from its launches' values: their
 * median, or the counters pass's one count when no launch has one. */
static bl_store_point metric_point(struct metric_acc *a, size_t run, size_t n_batches)
{
    bl_store_point p = {.run = run, .centre = NAN, .lo = NAN, .hi = NAN, .ci_method = 0};
    if (a->n) {
        p.centre = bl_stats_median(a->v, a->n);
        p.n_launches = a->n;
        p.n_batches = n_batches;
    } else if (!isnan(a->counted)) {
        p.centre = a->counted;
    }
    a->n = 0;
    a->counted = NAN;
    return p;
}

/* The benchmarks of one run (bound in st) into h's series, by the metric:
 * 0, or an error. *matched: some benchmark matched the filter. */
static int history_metric_rows(bl_store *s, struct bl__stmt *st, bl_store_history *h,
                               size_t *cap_series, const regex_t *re, int metric, int *matched)
{
    const struct bl__db_ops *o = DB_OPS(s);
    struct metric_acc a = {.counted = NAN};
    int64_t cur = -1;
    bl_store_series *se = NULL;
    size_t n_batches = 0;
    long prev = -1;
    int rc;
    while ((rc = o->step(st)) == 1) {
        rc = 0;
        int64_t id = o->column_int(st, 0);
        if (id != cur) {
            if (se) {
                bl_store_point p = metric_point(&a, h->n_runs, n_batches);
                if ((rc = add_point(se, &p)) != 0)
                    break;
            }
            cur = id;
            se = NULL;
            const char *name = o->column_text(st, 1);
            if (!name || (re && regexec(re, name, 0, NULL, 0) != 0))
                continue;
            if (!(se = series_for(h, cap_series, name, &prev))) {
                rc = -ENOMEM;
                break;
            }
            *matched = 1;
            n_batches = (size_t)o->column_int(st, 5);
        }
        if (!se)
            continue;
        double ref = o->column_double(st, 2), m = o->column_double(st, 3);
        double x = metric == BL_JUDGE_REF_CYCLES && !isnan(ref) ? ref : m;
        if (!isnan(x))
            rc = acc_add(&a, x);
        a.counted = o->column_double(st, 4);
        if (rc)
            break;
    }
    if (rc >= 0 && se) {
        bl_store_point p = metric_point(&a, h->n_runs, n_batches);
        rc = add_point(se, &p);
    }
    free(a.v);
    return rc < 0 ? rc : 0;
}

int bl_store_history_load(bl_store *s, const char *filter, size_t last, bl_store_history **out,
                          char *err, size_t err_size)
{
    bl_store_history_options o = {.filter = filter, .last = last};
    return bl_store_history_query(s, &o, out, err, err_size);
}

int bl_store_history_query(bl_store *s, const bl_store_history_options *opts,
                           bl_store_history **out, char *err, size_t err_size)
{
    *out = NULL;
    const char *filter = opts->filter;
    size_t last = opts->last;
    int metric = opts->metric;
    if (metric != BL_JUDGE_TIME && metric != BL_JUDGE_REF_CYCLES &&
        metric != BL_JUDGE_INSTRUCTIONS) {
        snprintf(err, err_size, "unknown metric %d", metric);
        return BL_EUSAGE;
    }
    regex_t re;
    if (filter) {
        int e = regcomp(&re, filter, REG_EXTENDED | REG_NOSUB);
        if (e) {
            char m[200];
            regerror(e, &re, m, sizeof m);
            snprintf(err, err_size, "--filter '%s': %s", filter, m);
            return BL_EUSAGE;
        }
    }
    bl_store_history *h = calloc(1, sizeof *h);
    const struct bl__db_ops *o = DB_OPS(s);
    struct bl__stmt *runs = NULL, *benches = NULL;
    char sql[1024];
    snprintf(sql, sizeof sql, "SELECT %s FROM runs r%s ORDER BY r.id DESC", bl__run_cols,
             opts->branch ? " WHERE r.git_branch = ?" : "");
    int rc = h ? 0 : -ENOMEM;
    if (!rc)
        rc = o->begin(s->db, BL__TX_READ);
    if (!rc)
        rc = o->prepare(s->db, sql, &runs);
    if (!rc && opts->branch)
        rc = o->bind_text(runs, 1, opts->branch);
    /* a series is a benchmark of one job: "BenchmarkWork [gcc]" (docs/jobs.md) */
    const char *name_col = s->version >= 4 ? "CASE WHEN b.job IS NULL THEN b.name"
                                             " ELSE b.name || ' [' || b.job || ']' END"
                                           : "b.name";
    char bsql[1024];
    if (metric == BL_JUDGE_TIME)
        snprintf(bsql, sizeof bsql,
                 "SELECT %s, b.centre, b.ci_lo, b.ci_hi, b.ci_method, b.n_launches, b.n_batches"
                 " FROM benches b WHERE b.run_id = ? ORDER BY b.id",
                 name_col);
    else
        snprintf(bsql, sizeof bsql, metric_sql, name_col);
    if (!rc)
        rc = o->prepare(s->db, bsql, &benches);
    const char *unit = bl_judge_metric_unit((enum bl_judge_metric)metric);
    size_t cap_runs = 0, cap_series = 0;
    /* newest first; reversed at the end */
    while (!rc && (!last || h->n_runs < last) && (rc = o->step(runs)) == 1) {
        if (h->n_runs == cap_runs) {
            size_t nc = cap_runs ? cap_runs * 2 : 16;
            bl_store_run *nr = realloc(h->runs, nc * sizeof *nr);
            if (!nr) {
                rc = -ENOMEM;
                break;
            }
            h->runs = nr;
            cap_runs = nc;
        }
        int64_t id = o->column_int(runs, 0);
        int matched = 0;
        if (metric != BL_JUDGE_TIME) {
            /* every bind again: a reset clears them */
            rc = o->bind_text(benches, 1, unit);
            if (!rc)
                rc = o->bind_text(benches, 2, metric == BL_JUDGE_INSTRUCTIONS ? unit : "");
            if (!rc)
                rc = o->bind_int(benches, 3, id);
            if (!rc)
                rc = history_metric_rows(s, benches, h, &cap_series, filter ? &re : NULL, metric,
                                         &matched);
            o->reset(benches);
            if (rc < 0)
                break;
        } else {
            rc = o->bind_int(benches, 1, id);
            long prev = -1; /* the series of this run's previous benchmark */
            while (!rc && (rc = o->step(benches)) == 1) {
                rc = 0; /* a row */
                const char *name = o->column_text(benches, 0);
                if (!name || (filter && regexec(&re, name, 0, NULL, 0) != 0))
                    continue;
                bl_store_series *se = series_for(h, &cap_series, name, &prev);
                bl_store_point p = {
                    .run = h->n_runs,
                    .centre = o->column_double(benches, 1),
                    .lo = o->column_double(benches, 2),
                    .hi = o->column_double(benches, 3),
                    .ci_method = (int)o->column_int(benches, 4),
                    .n_launches = (size_t)o->column_int(benches, 5),
                    .n_batches = (size_t)o->column_int(benches, 6),
                };
                rc = se ? add_point(se, &p) : -ENOMEM;
                matched = 1;
            }
            o->reset(benches);
            if (rc < 0)
                break;
        }
        rc = 0;
        if (matched) {
            rc = bl__read_run(s, runs, 0, &h->runs[h->n_runs]);
            if (!rc)
                h->n_runs++;
        }
    }
    if (rc > 0)
        rc = 0;
    if (runs)
        o->finalize(runs);
    if (benches)
        o->finalize(benches);
    if (h)
        o->rollback(s->db);
    if (filter)
        regfree(&re);
    if (rc) {
        bl_store_history_destroy(h);
        return bl__store_fail(s, rc, err, err_size, "reading the history");
    }
    /* oldest first */
    for (size_t i = 0; i < h->n_runs / 2; i++) {
        bl_store_run t = h->runs[i];
        h->runs[i] = h->runs[h->n_runs - 1 - i];
        h->runs[h->n_runs - 1 - i] = t;
    }
    for (size_t i = 0; i < h->n_series; i++) {
        bl_store_series *se = &h->series[i];
        for (size_t j = 0; j < se->n_points / 2; j++) {
            bl_store_point t = se->points[j];
            se->points[j] = se->points[se->n_points - 1 - j];
            se->points[se->n_points - 1 - j] = t;
        }
        for (size_t j = 0; j < se->n_points; j++)
            se->points[j].run = h->n_runs - 1 - se->points[j].run;
    }
    *out = h;
    return 0;
}

/* ---- profiles --------------------------------------------------------------------- */

void bl_store_profile_free(bl_store_profile_function *f, size_t n)
{
    for (size_t i = 0; f && i < n; i++) {
        free((char *)f[i].name);
        free((char *)f[i].file);
    }
    free(f);
}

int bl_store_load_profile(bl_store *s, int64_t run_id, bl_store_profile_function **out,
                          size_t *n_out, char *err, size_t err_size)
{
    *out = NULL;
    *n_out = 0;
    const struct bl__db_ops *o = DB_OPS(s);
    struct bl__stmt *st;
    int rc = bl__store_prepare(s,
                               "SELECT f.name, f.file, f.src_line, f.self_ns, f.total_ns, f.calls"
                               " FROM profile_functions f JOIN parts p ON f.part_id = p.id"
                               " WHERE p.run_id = ? ORDER BY p.seq, f.seq",
                               &st, err, err_size);
    if (rc)
        return rc;
    rc = o->bind_int(st, 1, run_id);
    bl_store_profile_function *v = NULL;
    size_t n = 0;
    int oom = 0;
    while (!rc && (rc = o->step(st)) == 1) {
        rc = 0; /* a row */
        bl_store_profile_function *nv = realloc(v, (n + 1) * sizeof *nv);
        if (!nv) {
            rc = -ENOMEM;
            break;
        }
        v = nv;
        v[n].name = dup_col(s, st, 0, &oom);
        v[n].file = dup_col(s, st, 1, &oom);
        v[n].line = (int)o->column_int(st, 2);
        v[n].self_ns = o->column_double(st, 3);
        v[n].total_ns = o->column_double(st, 4);
        v[n].calls = (uint64_t)o->column_int(st, 5);
        n++;
        if (oom) {
            rc = -ENOMEM;
            break;
        }
    }
    o->finalize(st);
    if (rc < 0) {
        bl_store_profile_free(v, n);
        return bl__store_fail(s, rc, err, err_size, "loading profile %lld", (long long)run_id);
    }
    *out = v;
    *n_out = n;
    return 0;
}
