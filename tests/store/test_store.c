/*
 * test_store.c - the results store's API, run against SQLite (ctest
 * store/sqlite) and, unchanged, against a real PostgreSQL server
 * (store/postgresql: pg.sh starts one and sets BENCHLAB_TEST_PG).
 *
 * Every test gets a fresh store: a new file in a temporary directory, or
 * a new database on the server. A few cases need raw access to make the
 * store bad on purpose (a foreign table, a newer schema version, a
 * trigger that fails in the middle of a save, a lock held, a read-only
 * role); raw_exec() speaks SQL to either engine for that.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "benchlab.h"
#include "benchlab/store.h"

/* ---- the store under test ---------------------------------------------------------- */

static const char *pg_base; /* "postgresql://user@127.0.0.1:PORT", or NULL: SQLite */
static char dir[256];       /* SQLite: the temporary directory */
static char spec[512];      /* the fresh store of the current test */
static char db_name[64];    /* PostgreSQL: its database */
static char err[2048];

static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static PGconn *pg_connect(const char *db)
{
    char uri[600];
    snprintf(uri, sizeof uri, "%s/%s", pg_base, db);
    PGconn *c = PQconnectdb(uri);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "cannot connect to %s: %s", uri, PQerrorMessage(c));
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, quiet, NULL);
    return c;
}

static int pg_admin(const char *sql)
{
    PGconn *c = pg_connect("postgres");
    if (!c)
        return -1;
    PGresult *r = PQexec(c, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok)
        fprintf(stderr, "%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
    PQfinish(c);
    return ok ? 0 : -1;
}

/* SQL on the current store, outside the library. */
static void raw_exec(const char *fmt, ...)
{
    char sql[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    if (pg_base) {
        PGconn *c = pg_connect(db_name);
        assert_non_null(c);
        PGresult *r = PQexec(c, sql);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
        if (!ok)
            fprintf(stderr, "%s: %s", sql, PQresultErrorMessage(r));
        PQclear(r);
        PQfinish(c);
        assert_true(ok);
    } else {
        sqlite3 *db;
        assert_int_equal(sqlite3_open(spec, &db), SQLITE_OK);
        sqlite3_busy_timeout(db, 30000);
        char *msg = NULL;
        int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
        if (rc != SQLITE_OK)
            fprintf(stderr, "%s: %s\n", sql, msg);
        sqlite3_free(msg);
        sqlite3_close(db);
        assert_int_equal(rc, SQLITE_OK);
    }
}

/* One integer from a query on the current store. */
static long long raw_count(const char *sql)
{
    long long v = -1;
    if (pg_base) {
        PGconn *c = pg_connect(db_name);
        assert_non_null(c);
        PGresult *r = PQexec(c, sql);
        assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
        v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        PQclear(r);
        PQfinish(c);
    } else {
        sqlite3 *db;
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_open(spec, &db), SQLITE_OK);
        sqlite3_busy_timeout(db, 30000);
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    return v;
}

static int fresh_store(void **state)
{
    (void)state;
    static int n;
    if (pg_base) {
        snprintf(db_name, sizeof db_name, "bl_test_%d_%d", (int)getpid(), n++);
        char sql[128];
        snprintf(sql, sizeof sql, "CREATE DATABASE %s", db_name);
        if (pg_admin(sql))
            return -1;
        snprintf(spec, sizeof spec, "%s/%s", pg_base, db_name);
    } else {
        snprintf(dir, sizeof dir, "/tmp/bl_store_test_XXXXXX");
        if (!mkdtemp(dir))
            return -1;
        snprintf(spec, sizeof spec, "%s/results.db", dir);
    }
    return 0;
}

static int drop_store(void **state)
{
    (void)state;
    if (pg_base) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", db_name);
        return pg_admin(sql);
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- results to save ---------------------------------------------------------------- */

/* A run with everything a run can hold: labels, two benchmarks, an OK
 * launch with batches of every stage and disturbance, a failed and a
 * skipped launch, metrics, allocation and counters, captured output. */
static bl_results *make_results(double scale, const char *commit)
{
    bl_results *r = bl_results_create();
    assert_non_null(r);
    assert_int_equal(bl_results_set_config(r, "goos", "linux"), 0);
    assert_int_equal(bl_results_set_config(r, "pkg", "suite"), 0);
    assert_int_equal(bl_results_set_unit_meta(r, "hits/s", "better", "higher"), 0);
    assert_int_equal(bl_results_set_unit_meta(r, "hits/op", "assume", "exact"), 0);
    assert_int_equal(bl_results_set_meta(r, "date", "2024-06-11T15:30:12Z"), 0);
    assert_int_equal(bl_results_set_meta(r, "host", "box"), 0);
    assert_int_equal(bl_results_set_meta(r, "env-warnings", "governor: powersave"), 0);
    if (commit) {
        assert_int_equal(bl_results_set_meta(r, "commit", commit), 0);
        assert_int_equal(bl_results_set_meta(r, "branch", "main"), 0);
        assert_int_equal(bl_results_set_meta(r, "dirty", "false"), 0);
    }

    bl_bench_result *b = bl_results_bench(r, "BenchmarkSort/size=1000");
    assert_non_null(b);
    b->has_alloc = true;
    b->alloc_bytes_per_op = 4096;
    b->allocs_per_op = 1.5;
    b->n_counters = 2;
    snprintf(b->counter_unit[0], sizeof b->counter_unit[0], "instructions/op");
    snprintf(b->counter_unit[1], sizeof b->counter_unit[1], "cycles/op");
    b->counter_per_op[0] = 12345.678;
    b->counter_per_op[1] = 1.0 / 3.0;
    b->counters_scaled = true;
    b->profile_raw = strdup("suite.profile/BenchmarkSort_size=1000.raw");
    b->own_time_s = 2.5;
    b->own_count = 3;
    for (int k = 0; k < 3; k++) {
        bl_launch *l = bl_results_add_launch(b);
        assert_non_null(l);
        l->clock_ns = 18.25;
        l->pause_ns = 40.0 / 3.0;
        l->wall_s = 0.61;
        l->bytes_per_op = 8000;
        l->items_per_op = 16;
        l->ref_ns = 0.3125;
        l->ref_cycles_per_op = 3200.5;
        l->tuned_reps = 1000 + (uint64_t)k;
        l->tune_stale = k == 2;
        l->size.param = strdup("size");
        l->size.n = 1000;
        l->size.complexity = 2;
        l->size.user_g = k == 1 ? 31622.7766 : NAN;
        l->size.user_name = k == 1 ? strdup("n^1.5") : NULL;
        l->threads = k == 2 ? 4 : 0;
        /* what Google Benchmark's counters brought: the threads' sums, the
         * loop's repetitions (the top bit set once: BIGINT is signed), the
         * clock of the rates, label, time unit, size group */
        l->bytes_sum_per_op = k == 2 ? 4 * 8000.0 : 8000;
        l->items_sum_per_op = k == 2 ? 4 * 16.0 + 0.25 : 16;
        l->loop_iterations = k == 2 ? (UINT64_C(1) << 63) + 7 : 123456789012 + (uint64_t)k;
        l->counter_clock = k == 0 ? BL_CLOCK_CPU : k == 1 ? BL_CLOCK_REAL : BL_CLOCK_MANUAL;
        l->cpu_clock = k == 1 ? BL_CPU_PROCESS : BL_CPU_THREAD; /* .process_cpu */
        l->label = k == 1 ? strdup("four threads \xff") : NULL;
        if (k == 0)
            snprintf(l->time_unit, sizeof l->time_unit, "us");
        l->size.group = k == 1 ? strdup("BenchmarkSortGroup") : NULL;
        l->size.n_sum = k == 2 ? 4000 : 0; /* 4 threads' SetComplexityN, summed */
        l->size.user_g_sum = k == 2 ? 252982.2128 : NAN;
        bl_sample p = {.stage = BL_STAGE_PILOT, .reps = 1, .ns = 900, .cpu_ns = 880};
        assert_int_equal(bl_launch_add_sample(l, &p), 0);
        bl_sample o = {.stage = BL_STAGE_OVERHEAD, .reps = 1000, .ns = 350.5, .cpu_ns = -1};
        assert_int_equal(bl_launch_add_sample(l, &o), 0);
        for (int i = 0; i < 150; i++) { /* two statements of 64 batches, and the rest */
            bl_sample m = {
                .stage = BL_STAGE_MEASURE,
                .reps = 1000 + (uint64_t)i,
                .ns = scale * (1e6 + 1000.0 * (i % 7) + 0.1 * i),
                .cpu_ns = scale * (1e6 + 1000.0 * (i % 7)),
                .nivcsw = i == 3,
                .migrations = i == 5 ? 2 : 0,
                .minflt = i == 7 ? 9 : 0,
                .majflt = 0,
                .pauses = i == 11 ? 4 : 0,
                .ref_ns = i == 0 ? 0 : 0.3125 + 1e-4 * i,
                /* the process's CPU time beside the thread's; one batch without */
                .proc_cpu_ns = k == 1 && i != 13 ? scale * (1.9e6 + 0.3 * i) : -1,
            };
            assert_int_equal(bl_launch_add_sample(l, &m), 0);
        }
        bl_launch_finish(l);
        assert_int_equal(bl_launch_set_metric(l, "items/op", 42.0 + k), 0);
        assert_int_equal(bl_launch_set_metric(l, "hits/op", 1e-9), 0);
        assert_int_equal(bl_launch_set_metric_ex(l, "hits/s", 0.25, BL_HIGHER_IS_BETTER | BL_RATE),
                         0);
        l->metrics[l->n_metrics - 1].value = 1234.5; /* per second, as bl_launch_finish sets it */
        /* counters: flags, and the sum of the threads their value came from */
        assert_int_equal(bl_launch_set_counter(l, "reads/s", 3e6 + k, BL_HIGHER_IS_BETTER,
                                               BL_COUNTER_RATE | BL_COUNTER_AVG_THREADS),
                         0);
        l->metrics[l->n_metrics - 1].value = 1.5e9 / 7;
        assert_int_equal(
            bl_launch_set_counter(l, "ns/miss", k == 1 ? NAN : 0.1, 0,
                                  BL_COUNTER_RATE | BL_COUNTER_INVERT | BL_COUNTER_1024),
            0);
        l->metrics[l->n_metrics - 1].value = k == 1 ? NAN : 3.75;
        if (k == 1) {
            l->out = strdup("hello \xff\xfe world\n"); /* invalid UTF-8 on purpose */
            l->out_total = 100000;
        }
    }
    bl_bench_result *f = bl_results_bench(r, "BenchmarkBroken");
    assert_non_null(f);
    bl_launch *l = bl_results_add_launch(f);
    l->status = BL_ECRASH;
    l->disturbed = true;
    l->message = strdup("killed by signal 11 (Segmentation fault)");
    l->term_signal = 11;
    l->exit_code = 0;
    l = bl_results_add_launch(f);
    l->skipped = true;
    l->message = strdup("needs root");
    l->err = strdup("warning: skipped\n");
    l->err_total = 17;
    return r;
}

static void same_double(double a, double b)
{
    if (isnan(a) || isnan(b)) {
        assert_true(isnan(a) && isnan(b));
        return;
    }
    assert_true(a == b);
}

static void same_text(const char *a, const char *b)
{
    if (!a || !b) {
        assert_ptr_equal(a, b);
        return;
    }
    assert_string_equal(a, b);
}

static const char *meta(const bl_results *r, const char *key)
{
    return bl_results_get_meta(r, key);
}

/* Everything measured reads back exactly (text cleaned of invalid UTF-8). */
static void assert_same_results(const bl_results *a, const bl_results *b)
{
    assert_int_equal(a->n_config, b->n_config);
    for (size_t i = 0; i < a->n_config; i++) {
        assert_string_equal(a->config[i].key, b->config[i].key);
        assert_string_equal(a->config[i].value, b->config[i].value);
    }
    for (size_t i = 0; i < a->n_meta; i++)
        same_text(a->meta[i].value, meta(b, a->meta[i].key));
    assert_int_equal(a->n_units, b->n_units);
    for (size_t i = 0; i < a->n_units; i++) {
        assert_string_equal(a->units[i].unit, b->units[i].unit);
        assert_string_equal(a->units[i].key, b->units[i].key);
        assert_string_equal(a->units[i].value, b->units[i].value);
    }
    assert_int_equal(a->n_benches, b->n_benches);
    for (size_t i = 0; i < a->n_benches; i++) {
        const bl_bench_result *x = &a->benches[i], *y = &b->benches[i];
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->has_alloc, y->has_alloc);
        if (x->has_alloc) {
            same_double(x->alloc_bytes_per_op, y->alloc_bytes_per_op);
            same_double(x->allocs_per_op, y->allocs_per_op);
        }
        assert_int_equal(x->n_counters, y->n_counters);
        assert_int_equal(x->counters_scaled, y->counters_scaled);
        same_text(x->profile_raw, y->profile_raw);
        same_text(x->profile_message, y->profile_message);
        same_double(x->own_time_s, y->own_time_s);
        assert_int_equal(x->own_count, y->own_count);
        for (int c = 0; c < x->n_counters; c++) {
            assert_string_equal(x->counter_unit[c], y->counter_unit[c]);
            same_double(x->counter_per_op[c], y->counter_per_op[c]);
        }
        assert_int_equal(x->n_launches, y->n_launches);
        for (size_t j = 0; j < x->n_launches; j++) {
            const bl_launch *p = &x->launches[j], *q = &y->launches[j];
            assert_int_equal(p->status, q->status);
            assert_int_equal(p->skipped, q->skipped);
            same_text(p->message, q->message);
            same_double(p->ns_per_op, q->ns_per_op);
            same_double(p->raw_ns_per_op, q->raw_ns_per_op);
            same_double(p->overhead_ns, q->overhead_ns);
            same_double(p->clock_ns, q->clock_ns);
            same_double(p->pause_ns, q->pause_ns);
            same_double(p->bytes_per_op, q->bytes_per_op);
            same_double(p->items_per_op, q->items_per_op);
            assert_int_equal(p->threads, q->threads);
            same_double(p->bytes_sum_per_op, q->bytes_sum_per_op);
            same_double(p->items_sum_per_op, q->items_sum_per_op);
            assert_true(p->loop_iterations == q->loop_iterations);
            assert_int_equal(p->counter_clock, q->counter_clock);
            assert_int_equal(p->cpu_clock, q->cpu_clock);
            same_double(p->size.n_sum, q->size.n_sum);
            same_double(p->size.user_g_sum, q->size.user_g_sum);
            assert_string_equal(p->time_unit, q->time_unit);
            if (p->label && q->label) /* invalid UTF-8 comes back as '?' */
                assert_int_equal(strlen(p->label), strlen(q->label));
            else
                assert_ptr_equal(p->label, q->label);
            same_text(p->size.group, q->size.group);
            assert_int_equal(p->disturbed, q->disturbed);
            same_double(p->ref_ns, q->ref_ns);
            same_double(p->ref_cycles_per_op, q->ref_cycles_per_op);
            assert_int_equal(p->tuned_reps, q->tuned_reps);
            assert_int_equal(p->tune_stale, q->tune_stale);
            same_text(p->size.param, q->size.param);
            same_double(p->size.param ? p->size.n : NAN, q->size.param ? q->size.n : NAN);
            assert_int_equal(p->size.complexity, q->size.complexity);
            same_double(p->size.user_g, q->size.user_g);
            same_text(p->size.user_name, q->size.user_name);
            same_double(p->wall_s, q->wall_s);
            assert_int_equal(p->measured_reps, q->measured_reps);
            assert_int_equal(p->n_measured, q->n_measured);
            assert_int_equal(p->n_invalid, q->n_invalid);
            assert_int_equal(p->intrinsic, q->intrinsic);
            assert_memory_equal(p->invalid_by, q->invalid_by, sizeof p->invalid_by);
            assert_int_equal(p->exit_code, q->exit_code);
            assert_int_equal(p->term_signal, q->term_signal);
            assert_int_equal(p->out_total, q->out_total);
            assert_int_equal(p->err_total, q->err_total);
            same_text(p->err, q->err);
            assert_int_equal(p->n_metrics, q->n_metrics);
            for (size_t m = 0; m < p->n_metrics; m++) {
                assert_string_equal(p->metrics[m].unit, q->metrics[m].unit);
                same_double(p->metrics[m].value, q->metrics[m].value);
                assert_int_equal(p->metrics[m].flags, q->metrics[m].flags);
                same_double(p->metrics[m].per_op, q->metrics[m].per_op);
                assert_int_equal(p->metrics[m].is_counter, q->metrics[m].is_counter);
                assert_int_equal(p->metrics[m].counter_flags, q->metrics[m].counter_flags);
                same_double(p->metrics[m].counter_sum, q->metrics[m].counter_sum);
            }
            assert_int_equal(p->n_samples, q->n_samples);
            for (size_t k = 0; k < p->n_samples; k++) {
                const bl_sample *s = &p->samples[k], *t = &q->samples[k];
                assert_int_equal(s->stage, t->stage);
                assert_int_equal(s->reps, t->reps);
                same_double(s->ns, t->ns);
                same_double(s->cpu_ns, t->cpu_ns);
                assert_int_equal(s->nivcsw, t->nivcsw);
                assert_int_equal(s->migrations, t->migrations);
                assert_int_equal(s->minflt, t->minflt);
                assert_int_equal(s->majflt, t->majflt);
                assert_int_equal(s->pauses, t->pauses);
                assert_int_equal(s->invalid, t->invalid);
                same_double(s->ref_ns, t->ref_ns);
                assert_true((s->proc_cpu_ns > 0) == (t->proc_cpu_ns > 0));
                if (s->proc_cpu_ns > 0)
                    same_double(s->proc_cpu_ns, t->proc_cpu_ns);
            }
        }
    }
}

static bl_store *open_store(unsigned flags)
{
    bl_store *s = NULL;
    int rc = bl_store_open(spec, flags, &s, err, sizeof err);
    if (rc)
        fprintf(stderr, "open: %s\n", err);
    assert_int_equal(rc, 0);
    return s;
}

static int64_t save(bl_store *s, const bl_results *r, const char *uid)
{
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.git_dir = ""; /* the test's results carry their commit, or none */
    o.run_uid = uid;
    int64_t id = -1;
    int rc = bl_store_save(s, r, &o, &id, err, sizeof err);
    if (rc)
        fprintf(stderr, "save: %s\n", err);
    assert_int_equal(rc, 0);
    assert_true(id > 0);
    return id;
}

/* ---- the cases ---------------------------------------------------------------------- */

static void save_then_load_gives_back_every_field(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    bl_results *r = make_results(1.0, "3f7ec28a1111111111111111111111111111abcd");
    int64_t id = save(s, r, NULL);
    bl_results *back = NULL;
    bl_store_run run;
    assert_int_equal(bl_store_load_ref(s, "@latest", &back, &run, err, sizeof err), 0);
    assert_int_equal(run.id, id);
    assert_string_equal(run.kind, "run");
    assert_string_equal(run.commit, "3f7ec28a1111111111111111111111111111abcd");
    assert_string_equal(run.branch, "main");
    assert_int_equal(run.dirty, 0);
    assert_string_equal(run.host, "box");
    assert_string_equal(run.pkg, "suite");
    assert_string_equal(run.env_warnings, "governor: powersave");
    assert_string_equal(run.measured_at, "2024-06-11T15:30:12Z");
    assert_int_equal(run.n_benches, 2);
    assert_int_equal(run.n_parts, 1);
    bl_store_run_fini(&run);
    assert_same_results(r, back);
    /* invalid UTF-8 is stored as '?', the same on both engines */
    assert_string_equal(back->benches[0].launches[1].out, "hello ?? world\n");
    char idbuf[32];
    snprintf(idbuf, sizeof idbuf, "%lld", (long long)id);
    assert_string_equal(meta(back, "run-id"), idbuf);
    bl_results_destroy(back);
    bl_results_destroy(r);
    bl_store_close(s);
}

static void missing_store_is_not_found_without_create(void **state)
{
    (void)state;
    bl_store *s = NULL;
    int rc = bl_store_open(spec, 0, &s, err, sizeof err);
    assert_int_equal(rc, BL_ENOTFOUND);
    assert_null(s);
    assert_non_null(strstr(err, "store "));
    /* nothing was created by looking */
    if (!pg_base)
        assert_int_not_equal(access(spec, F_OK), 0);
}

static void foreign_database_is_not_a_store(void **state)
{
    (void)state;
    if (pg_base) {
        raw_exec("CREATE TABLE accounts (id INTEGER)");
    } else {
        FILE *f = fopen(spec, "w");
        assert_non_null(f);
        fputs("this is a text file, not a database, and certainly not a store\n", f);
        fclose(f);
    }
    bl_store *s = NULL;
    int rc = bl_store_open(spec, BL_STORE_CREATE, &s, err, sizeof err);
    assert_int_equal(rc, BL_EFORMAT);
    assert_non_null(strstr(err, "not a benchlab store"));
    assert_non_null(strstr(err, pg_base ? db_name : spec));
    if (!pg_base) { /* an SQLite database of someone else's */
        unlink(spec);
        raw_exec("CREATE TABLE accounts (id INTEGER)");
        rc = bl_store_open(spec, BL_STORE_CREATE, &s, err, sizeof err);
        assert_int_equal(rc, BL_EFORMAT);
        assert_non_null(strstr(err, "accounts"));
    }
    assert_int_equal(raw_count("SELECT count(*) FROM accounts"), 0);
}

static void newer_schema_is_refused_by_name(void **state)
{
    (void)state;
    bl_store_close(open_store(BL_STORE_CREATE));
    raw_exec("UPDATE benchlab_meta SET value = '99' WHERE key = 'schema_version'");
    bl_store *s = NULL;
    int rc = bl_store_open(spec, BL_STORE_CREATE, &s, err, sizeof err);
    assert_int_equal(rc, BL_EUNSUPPORTED);
    assert_non_null(strstr(err, "newer"));
    assert_non_null(strstr(err, "99"));
    assert_null(s);
}

static void references_resolve_to_runs(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    bl_results *a = make_results(1.0, "aaaa111111111111111111111111111111111111");
    bl_results *b = make_results(1.1, "bbbb222222222222222222222222222222222222");
    int64_t ida = save(s, a, NULL);
    int64_t idb = save(s, b, "ci-42");
    int64_t id;
    assert_int_equal(bl_store_resolve(s, "@latest", &id, err, sizeof err), 0);
    assert_int_equal(id, idb);
    assert_int_equal(bl_store_resolve(s, "latest~1", &id, err, sizeof err), 0);
    assert_int_equal(id, ida);
    assert_int_equal(bl_store_resolve(s, "@latest~2", &id, err, sizeof err), BL_ENOTFOUND);
    char num[32];
    snprintf(num, sizeof num, "@%lld", (long long)ida);
    assert_int_equal(bl_store_resolve(s, num, &id, err, sizeof err), 0);
    assert_int_equal(id, ida);
    assert_int_equal(bl_store_resolve(s, "@ci-42", &id, err, sizeof err), 0);
    assert_int_equal(id, idb);
    /* a stored commit's prefix, when git does not know it */
    assert_int_equal(bl_store_resolve(s, "@aaaa1111", &id, err, sizeof err), 0);
    assert_int_equal(id, ida);
    assert_int_equal(bl_store_resolve(s, "@BBBB2222", &id, err, sizeof err), 0);
    assert_int_equal(id, idb);
    assert_int_equal(bl_store_resolve(s, "@nosuchthing", &id, err, sizeof err), BL_ENOTFOUND);
    assert_non_null(strstr(err, "unknown run @nosuchthing"));
    assert_int_equal(bl_store_resolve(s, "@", &id, err, sizeof err), BL_EUSAGE);
    assert_int_equal(bl_store_resolve(s, "@latest~x", &id, err, sizeof err), BL_EUSAGE);
    assert_int_equal(bl_store_resolve(s, "@baseline:main", &id, err, sizeof err), BL_ENOTFOUND);
    assert_non_null(strstr(err, "baseline set main"));
    assert_int_equal(bl_store_baseline_set(s, "main", ida, err, sizeof err), 0);
    assert_int_equal(bl_store_resolve(s, "@baseline:main", &id, err, sizeof err), 0);
    assert_int_equal(id, ida);
    /* setting it again moves it */
    assert_int_equal(bl_store_baseline_set(s, "main", idb, err, sizeof err), 0);
    assert_int_equal(bl_store_resolve(s, "@baseline:main", &id, err, sizeof err), 0);
    assert_int_equal(id, idb);
    assert_int_equal(bl_store_baseline_set(s, "main", 9999, err, sizeof err), BL_ENOTFOUND);
    bl_store_baseline *bl;
    size_t n;
    assert_int_equal(bl_store_baseline_list(s, &bl, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_string_equal(bl[0].name, "main");
    assert_int_equal(bl[0].run_id, idb);
    bl_store_baselines_free(bl, n);
    bl_results_destroy(a);
    bl_results_destroy(b);
    bl_store_close(s);
}

/* Acknowledgements: kept by benchmark and commit, replaced by the same
 * pair, withdrawn by name; a commit that is no revision git knows here
 * (the test runs outside the project's history) is kept as the hex given,
 * lowercased; covers() by the run's own commit needs no git. */
static void acknowledgements_are_kept_and_withdrawn(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    const char *c = "ABCDEF0123456789abcdef0123456789abcdef01";
    assert_int_equal(bl_store_ack_add(s, "Hash/*", c, "safer hash", err, sizeof err), 0);
    assert_int_equal(bl_store_ack_add(s, "Hash/*", c, "a faster hash next", err, sizeof err), 0);
    assert_int_equal(bl_store_ack_add(s, "Sort", "1234567", NULL, err, sizeof err), 0);
    assert_int_equal(bl_store_ack_add(s, "Sort", "nothex!", NULL, err, sizeof err), BL_EUSAGE);
    assert_non_null(strstr(err, "commit 'nothex!'"));
    assert_int_equal(bl_store_ack_add(s, "", c, NULL, err, sizeof err), BL_EUSAGE);
    bl_store_ack *a;
    size_t n;
    assert_int_equal(bl_store_ack_list(s, &a, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(a[0].benchmark, "Hash/*");
    assert_string_equal(a[0].commit, "abcdef0123456789abcdef0123456789abcdef01");
    assert_string_equal(a[0].reason, "a faster hash next");
    assert_null(a[1].reason);
    assert_true(bl_store_ack_names(&a[0], "BenchmarkHash/len=64"));
    assert_true(bl_store_ack_names(&a[0], "Hash/len=64"));
    assert_false(bl_store_ack_names(&a[0], "BenchmarkSort"));
    assert_true(bl_store_ack_covers(&a[0], "1111111", a[0].commit));
    assert_true(bl_store_ack_covers(&a[1], NULL, "1234567abc"));
    assert_false(bl_store_ack_covers(&a[1], "1234567abc", "1234567abc"));
    assert_false(bl_store_ack_covers(&a[1], NULL, "7654321"));
    bl_store_acks_free(a, n);
    assert_int_equal(bl_store_ack_remove(s, "Hash/*", c, err, sizeof err), 0);
    assert_int_equal(bl_store_ack_remove(s, "Hash/*", c, err, sizeof err), BL_ENOTFOUND);
    assert_non_null(strstr(err, "no acknowledgement of Hash/*"));
    assert_int_equal(bl_store_ack_list(s, &a, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    bl_store_acks_free(a, n);
    bl_store_close(s);
}

static void shards_with_one_run_id_are_one_run(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    const char *commit = "cccc333333333333333333333333333333333333";
    bl_results *one = bl_results_create(), *two = bl_results_create();
    bl_results_set_meta(one, "commit", commit);
    bl_results_set_meta(two, "commit", commit);
    bl_results *full = make_results(1.0, commit);
    /* shard 1 has the first benchmark, shard 2 the second */
    bl_results *parts[2] = {one, two};
    for (int p = 0; p < 2; p++) {
        bl_bench_result *src = &full->benches[p];
        bl_bench_result *dst = bl_results_bench(parts[p], src->name);
        for (size_t j = 0; j < src->n_launches; j++) {
            bl_launch *l = bl_results_add_launch(dst);
            for (size_t k = 0; k < src->launches[j].n_samples; k++)
                bl_launch_add_sample(l, &src->launches[j].samples[k]);
            l->status = src->launches[j].status;
            l->skipped = src->launches[j].skipped;
            bl_launch_finish(l);
        }
    }
    int64_t id1 = save(s, one, "ci-7");
    int64_t id2 = save(s, two, "ci-7");
    assert_int_equal(id1, id2);
    bl_store_run run;
    assert_int_equal(bl_store_get_run(s, id1, &run, err, sizeof err), 0);
    assert_int_equal(run.n_parts, 2);
    assert_int_equal(run.n_benches, 2);
    bl_store_run_fini(&run);
    bl_results *back;
    assert_int_equal(bl_store_load(s, id1, &back, err, sizeof err), 0);
    assert_int_equal(back->n_benches, 2);
    assert_string_equal(back->benches[0].name, full->benches[0].name);
    assert_string_equal(back->benches[1].name, full->benches[1].name);
    assert_int_equal(back->benches[0].n_launches, 3);
    bl_results_destroy(back);

    /* a shard of another commit does not join, and leaves nothing */
    bl_results *other = make_results(1.0, "dddd444444444444444444444444444444444444");
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.run_uid = "ci-7";
    o.git_dir = "";
    assert_int_equal(bl_store_save(s, other, &o, NULL, err, sizeof err), -EEXIST);
    assert_non_null(strstr(err, "ci-7"));
    assert_int_equal(raw_count("SELECT count(*) FROM parts"), 2);
    assert_int_equal(raw_count("SELECT count(*) FROM runs"), 1);
    bl_results_destroy(other);
    bl_results_destroy(full);
    bl_results_destroy(one);
    bl_results_destroy(two);
    bl_store_close(s);
}

/* A run of the named benchmarks, in this order, one launch each. */
static bl_results *run_of(const char *const *names, size_t n)
{
    bl_results *r = bl_results_create();
    assert_non_null(r);
    for (size_t i = 0; i < n; i++) {
        bl_launch *l = bl_results_add_launch(bl_results_bench(r, names[i]));
        assert_non_null(l);
        for (int k = 0; k < 10; k++) {
            bl_sample m = {.stage = BL_STAGE_MEASURE, .reps = 100, .ns = 1000.0 + k, .cpu_ns = -1};
            assert_int_equal(bl_launch_add_sample(l, &m), 0);
        }
        bl_launch_finish(l);
    }
    return r;
}

/* size=1024 sorts before size=64 as text; history keeps the suite's order,
 * and a benchmark only an older run has goes after the one it followed. */
static void history_keeps_the_suites_order_not_the_names(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    const char *old_names[] = {"BenchmarkSum/size=64", "BenchmarkSum/size=256",
                               "BenchmarkSum/size=1024"};
    const char *new_names[] = {"BenchmarkSum/size=1024", "BenchmarkCopy/size=64"};
    bl_results *r = run_of(old_names, 3);
    save(s, r, NULL);
    bl_results_destroy(r);
    r = run_of(new_names, 2);
    save(s, r, NULL);
    bl_results_destroy(r);
    bl_store_history *h;
    assert_int_equal(bl_store_history_load(s, NULL, 0, &h, err, sizeof err), 0);
    assert_int_equal(h->n_series, 4);
    assert_string_equal(h->series[0].name, "BenchmarkSum/size=64");
    assert_string_equal(h->series[1].name, "BenchmarkSum/size=256");
    assert_string_equal(h->series[2].name, "BenchmarkSum/size=1024");
    assert_string_equal(h->series[3].name, "BenchmarkCopy/size=64");
    assert_int_equal(h->series[2].n_points, 2);
    assert_int_equal(h->series[0].n_points, 1);
    assert_int_equal(h->series[0].points[0].run, 0);
    bl_store_history_destroy(h);
    bl_store_close(s);
}

static void history_gives_each_benchmark_its_centre_per_run(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    double scales[3] = {1.0, 1.5, 0.9};
    double centres[3];
    for (int i = 0; i < 3; i++) {
        bl_results *r = make_results(scales[i], NULL);
        bl_estimate est;
        assert_int_equal(bl_bench_estimate(&r->benches[0], 0.95, &est), 0);
        centres[i] = est.centre;
        save(s, r, NULL);
        bl_results_destroy(r);
    }
    bl_store_history *h;
    assert_int_equal(bl_store_history_load(s, NULL, 0, &h, err, sizeof err), 0);
    assert_int_equal(h->n_runs, 3);
    assert_true(h->runs[0].id < h->runs[1].id && h->runs[1].id < h->runs[2].id);
    assert_int_equal(h->n_series, 2);
    /* in the suite's order: BenchmarkSort/size=1000, then BenchmarkBroken */
    assert_string_equal(h->series[1].name, "BenchmarkBroken");
    assert_true(isnan(h->series[1].points[0].centre));
    const bl_store_series *se = &h->series[0];
    assert_string_equal(se->name, "BenchmarkSort/size=1000");
    assert_int_equal(se->n_points, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(se->points[i].run, (size_t)i);
        same_double(se->points[i].centre, centres[i]);
        assert_true(se->points[i].lo <= se->points[i].centre);
        assert_true(se->points[i].hi >= se->points[i].centre);
        assert_int_equal(se->points[i].n_launches, 3);
        /* three launches: their trimmed mean and its t interval */
        assert_int_equal(se->points[i].ci_method, BL_CI_LAUNCHES_T);
    }
    bl_store_history_destroy(h);

    assert_int_equal(bl_store_history_load(s, "Sort", 2, &h, err, sizeof err), 0);
    assert_int_equal(h->n_runs, 2);
    assert_int_equal(h->n_series, 1);
    assert_int_equal(h->series[0].n_points, 2);
    same_double(h->series[0].points[1].centre, centres[2]);
    bl_store_history_destroy(h);

    assert_int_equal(bl_store_history_load(s, "^NoSuch", 0, &h, err, sizeof err), 0);
    assert_int_equal(h->n_runs, 0);
    assert_int_equal(h->n_series, 0);
    bl_store_history_destroy(h);
    assert_int_equal(bl_store_history_load(s, "(", 0, &h, err, sizeof err), BL_EUSAGE);
    assert_non_null(strstr(err, "--filter"));

    bl_store_run *runs;
    size_t n;
    assert_int_equal(bl_store_list(s, 2, &runs, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_true(runs[0].id < runs[1].id);
    bl_store_runs_free(runs, n);
    bl_store_close(s);
}

/* A trigger fails the save in its middle, after the run, its part, a
 * benchmark and several batches were written: nothing of it may stay. */
static void failed_save_leaves_nothing_behind(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    bl_results *r = make_results(1.0, NULL);
    save(s, r, NULL);
    if (pg_base) {
        raw_exec("CREATE FUNCTION fail_late() RETURNS trigger AS $$ BEGIN"
                 " RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql;"
                 "CREATE TRIGGER fail_late BEFORE INSERT ON samples FOR EACH ROW"
                 " WHEN (NEW.seq = 15) EXECUTE FUNCTION fail_late()");
    } else {
        raw_exec("CREATE TRIGGER fail_late BEFORE INSERT ON samples WHEN NEW.seq = 15"
                 " BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
    }
    long long runs = raw_count("SELECT count(*) FROM runs"),
              samples = raw_count("SELECT count(*) FROM samples"),
              benches = raw_count("SELECT count(*) FROM benches");
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.git_dir = "";
    int rc = bl_store_save(s, r, &o, NULL, err, sizeof err);
    assert_true(rc < 0);
    assert_non_null(strstr(err, "injected failure"));
    assert_int_equal(raw_count("SELECT count(*) FROM runs"), runs);
    assert_int_equal(raw_count("SELECT count(*) FROM parts"), runs);
    assert_int_equal(raw_count("SELECT count(*) FROM benches"), benches);
    assert_int_equal(raw_count("SELECT count(*) FROM samples"), samples);
    /* and the store keeps working */
    raw_exec("DROP TRIGGER fail_late%s", pg_base ? " ON samples" : "");
    save(s, r, NULL);
    bl_results_destroy(r);
    bl_store_close(s);
}

/* Every stored run is whole: its parts' counts match the rows. */
static void assert_runs_whole(void)
{
    assert_int_equal(raw_count("SELECT count(*) FROM parts p WHERE p.n_benches <>"
                               " (SELECT count(*) FROM benches b WHERE b.part_id = p.id)"),
                     0);
    assert_int_equal(raw_count("SELECT count(*) FROM parts p WHERE p.n_samples <>"
                               " (SELECT count(*) FROM samples s JOIN launches l"
                               " ON s.launch_id = l.id JOIN benches b ON l.bench_id = b.id"
                               " WHERE b.part_id = p.id)"),
                     0);
    assert_int_equal(raw_count("SELECT count(*) FROM runs r WHERE r.n_parts <>"
                               " (SELECT count(*) FROM parts p WHERE p.run_id = r.id)"),
                     0);
}

/*
 * `writers` processes at once, each saving `saves` runs (run name `uid`,
 * commit `commit`), each save on a connection of its own as separate CI
 * jobs do. Asserts that every writer succeeded.
 */
static void run_writers(int writers, int saves, const char *uid, const char *commit)
{
    pid_t pids[16];
    assert_true(writers <= 16);
    for (int w = 0; w < writers; w++) {
        pids[w] = fork();
        assert_true(pids[w] >= 0);
        if (pids[w] != 0)
            continue;
        bl_results *r = make_results(1.0 + w, commit);
        int failed = 0;
        for (int i = 0; i < saves; i++) {
            bl_store *s = NULL;
            bl_store_save_options o;
            bl_store_save_options_init(&o);
            o.git_dir = "";
            o.run_uid = uid;
            char e[1024];
            if (bl_store_open(spec, BL_STORE_CREATE, &s, e, sizeof e) ||
                bl_store_save(s, r, &o, NULL, e, sizeof e)) {
                fprintf(stderr, "writer %d: %s\n", w, e);
                failed = 1;
            }
            bl_store_close(s);
        }
        bl_results_destroy(r);
        _exit(failed);
    }
    for (int w = 0; w < writers; w++) {
        int st;
        assert_int_equal(waitpid(pids[w], &st, 0), pids[w]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
}

static void concurrent_writers_lose_nothing(void **state)
{
    (void)state;
    bl_store_close(open_store(BL_STORE_CREATE));
    enum { WRITERS = 3, SAVES = 6 };
    run_writers(WRITERS, SAVES, NULL, NULL);
    assert_int_equal(raw_count("SELECT count(*) FROM runs"), WRITERS * SAVES);
    assert_runs_whole();
}

static void concurrent_shards_of_one_run_join_it(void **state)
{
    (void)state;
    bl_store_close(open_store(BL_STORE_CREATE));
    enum { WRITERS = 4 };
    run_writers(WRITERS, 1, "matrix-1", "eeee555555555555555555555555555555555555");
    assert_int_equal(raw_count("SELECT count(*) FROM runs"), 1);
    assert_int_equal(raw_count("SELECT n_parts FROM runs"), WRITERS);
    /* parts numbered 1..WRITERS without gaps */
    assert_int_equal(raw_count("SELECT sum(seq) FROM parts"), WRITERS * (WRITERS + 1) / 2);
    assert_runs_whole();
}

/* A writer killed at a random point of its saves leaves whole runs only. */
static void killed_writer_leaves_whole_runs(void **state)
{
    (void)state;
    bl_store_close(open_store(BL_STORE_CREATE));
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        bl_results *r = make_results(1.0, NULL);
        bl_store *s = NULL;
        char e[1024];
        if (bl_store_open(spec, 0, &s, e, sizeof e))
            _exit(1);
        bl_store_save_options o;
        bl_store_save_options_init(&o);
        o.git_dir = "";
        /* bounded, so that a parent that failed early leaves no writer behind */
        for (int i = 0; i < 2000; i++)
            if (bl_store_save(s, r, &o, NULL, e, sizeof e))
                _exit(2);
        _exit(3);
    }
    /* wait for a first whole run, then kill in the middle of later ones */
    for (int i = 0; i < 3000 && raw_count("SELECT count(*) FROM runs") < 2; i++)
        usleep(10000);
    struct timespec ts = {0, (long)(getpid() % 7) * 1000000L};
    nanosleep(&ts, NULL);
    kill(pid, SIGKILL);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    bl_store *s = open_store(0); /* SQLite rolls a hot journal back here */
    bl_store_close(s);
    assert_true(raw_count("SELECT count(*) FROM runs") >= 2);
    assert_runs_whole();
}

static void locked_store_fails_clearly_after_the_timeout(void **state)
{
    (void)state;
    bl_store_close(open_store(BL_STORE_CREATE));
    bl_results *r = make_results(1.0, NULL);
    setenv("BENCHLAB_STORE_TIMEOUT", "0.3", 1);
    sqlite3 *lite = NULL;
    PGconn *pg = NULL;
    if (pg_base) {
        pg = pg_connect(db_name);
        assert_non_null(pg);
        PQclear(PQexec(pg, "BEGIN"));
        PGresult *x = PQexec(pg, "LOCK TABLE runs IN ACCESS EXCLUSIVE MODE");
        assert_int_equal(PQresultStatus(x), PGRES_COMMAND_OK);
        PQclear(x);
    } else {
        assert_int_equal(sqlite3_open(spec, &lite), SQLITE_OK);
        assert_int_equal(sqlite3_exec(lite, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    }
    bl_store *s = NULL;
    int rc = bl_store_open(spec, BL_STORE_CREATE, &s, err, sizeof err);
    if (!rc) {
        bl_store_save_options o;
        bl_store_save_options_init(&o);
        o.git_dir = "";
        rc = bl_store_save(s, r, &o, NULL, err, sizeof err);
    }
    assert_int_equal(rc, -EBUSY);
    assert_non_null(strstr(err, pg_base ? db_name : spec));
    if (pg) {
        PQclear(PQexec(pg, "ROLLBACK"));
        PQfinish(pg);
    } else {
        sqlite3_exec(lite, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(lite);
    }
    unsetenv("BENCHLAB_STORE_TIMEOUT");
    if (!s)
        s = open_store(0);
    save(s, r, NULL); /* the lock gone, saving works */
    bl_results_destroy(r);
    bl_store_close(s);
}

/* The store made read-only, in ro_spec: PostgreSQL through a role that may
 * only SELECT, SQLite by the file's and its directory's modes (a child
 * that drops root reads it). */
static void read_only_spec(char *ro_spec, size_t size)
{
    snprintf(ro_spec, size, "%s", spec);
    if (pg_base) {
        pg_admin("DROP ROLE IF EXISTS bl_reader");
        assert_int_equal(pg_admin("CREATE ROLE bl_reader LOGIN"), 0);
        raw_exec("GRANT SELECT ON ALL TABLES IN SCHEMA public TO bl_reader");
        /* pg_base is "postgresql://USER@HOST:PORT": swap the user */
        const char *at = strchr(pg_base, '@');
        assert_non_null(at);
        snprintf(ro_spec, size, "postgresql://bl_reader%s/%s", at, db_name);
    } else {
        assert_int_equal(chmod(spec, 0444), 0);
        assert_int_equal(chmod(dir, 0555), 0);
    }
}

/* Wait for the child that read the read-only store, make the store
 * writable again, and fail unless the child exited 0. */
static void end_read_only(pid_t pid)
{
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!pg_base) {
        chmod(dir, 0755);
        chmod(spec, 0644);
    } else {
        raw_exec("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM bl_reader");
        pg_admin("DROP ROLE IF EXISTS bl_reader");
    }
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* A store this process may read but not write: PostgreSQL through a role
 * with SELECT only; SQLite as a file of root's when we are root (dropping
 * to nobody in a child), else a file and directory without write bits. */
static void read_only_store_refuses_save_but_reads(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    bl_results *r = make_results(1.0, NULL);
    save(s, r, NULL);
    bl_store_close(s);
    char ro_spec[600];
    read_only_spec(ro_spec, sizeof ro_spec);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!pg_base && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(10);
        bl_store *ro = NULL;
        char e[1024];
        if (bl_store_open(ro_spec, BL_STORE_CREATE, &ro, e, sizeof e)) {
            fprintf(stderr, "open: %s\n", e);
            _exit(11);
        }
        bl_results *back = NULL;
        if (bl_store_load_ref(ro, "@latest", &back, NULL, e, sizeof e)) {
            fprintf(stderr, "load: %s\n", e);
            _exit(12);
        }
        bl_results_destroy(back);
        bl_store_save_options o;
        bl_store_save_options_init(&o);
        o.git_dir = "";
        int rc = bl_store_save(ro, r, &o, NULL, e, sizeof e);
        bl_store_close(ro);
        if (rc != -EROFS && rc != -EACCES) {
            fprintf(stderr, "save gave %d: %s\n", rc, e);
            _exit(13);
        }
        if (!strstr(e, "store ")) {
            fprintf(stderr, "message without the store: %s\n", e);
            _exit(14);
        }
        _exit(0);
    }
    end_read_only(pid);
    assert_int_equal(raw_count("SELECT count(*) FROM runs"), 1);
    bl_results_destroy(r);
}

/* ---- schema version 1 --------------------------------------------------------------- */

/* The columns version 2 added (store.c, schema_v2). */
static const char *const v2_columns[][2] = {
    {"benches", "own_time_s"},
    {"benches", "own_count"},
    {"launches", "bytes_sum_per_op"},
    {"launches", "items_sum_per_op"},
    {"launches", "loop_iterations"},
    {"launches", "counter_clock"},
    {"launches", "label"},
    {"launches", "time_unit"},
    {"launches", "size_group"},
    {"launches", "cpu_clock"},
    {"launches", "size_n_sum"},
    {"launches", "size_user_g_sum"},
    {"samples", "proc_cpu_ns"},
    {"metrics", "is_counter"},
    {"metrics", "counter_flags"},
    {"metrics", "counter_sum"},
};

/* Turn the current store back into a version 1 store: its tables as
 * version 1 made them, its rows as version 1 saved them. (tests/store/
 * cli.sh migrates stores made by benchlab 1's own binary.) */
static void downgrade_to_v1(void)
{
    for (size_t i = 0; i < sizeof v2_columns / sizeof *v2_columns; i++)
        raw_exec("ALTER TABLE %s DROP COLUMN %s", v2_columns[i][0], v2_columns[i][1]);
    raw_exec("DROP TABLE acks");                     /* version 3 */
    raw_exec("ALTER TABLE benches DROP COLUMN job"); /* version 4 */
    raw_exec("UPDATE benchlab_meta SET value = '1' WHERE key = 'schema_version'");
}

/* What version 1 kept of r, in r: the launches and metrics without the
 * counters' flags and sums, the threads' sums, repetitions and clock. */
static void as_v1(bl_results *r)
{
    for (size_t i = 0; i < r->n_benches; i++) {
        bl_bench_result *b = &r->benches[i];
        b->own_time_s = 0;
        b->own_count = 0;
        for (size_t j = 0; j < b->n_launches; j++) {
            bl_launch *l = &b->launches[j];
            l->bytes_sum_per_op = l->items_sum_per_op = 0;
            l->loop_iterations = 0;
            l->counter_clock = BL_CLOCK_UNSAID;
            l->cpu_clock = BL_CPU_THREAD;
            l->size.n_sum = 0;
            l->size.user_g_sum = NAN;
            for (size_t k = 0; k < l->n_samples; k++)
                l->samples[k].proc_cpu_ns = -1;
            free(l->label);
            l->label = NULL;
            l->time_unit[0] = '\0';
            free(l->size.group);
            l->size.group = NULL;
            for (size_t m = 0; m < l->n_metrics; m++) {
                l->metrics[m].is_counter = false;
                l->metrics[m].counter_flags = 0;
                l->metrics[m].counter_sum = 0;
            }
        }
    }
}

static long long schema_version(void)
{
    return raw_count("SELECT value FROM benchlab_meta WHERE key = 'schema_version'");
}

/* A version 1 store is migrated once, when first opened: its runs are
 * kept and read back as version 1 read them; new runs keep everything. */
static void old_schema_migrates_once_and_reads_as_before(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    bl_results *r = make_results(1.0, NULL);
    int64_t old_id = save(s, r, "old");
    bl_store_close(s);
    downgrade_to_v1();
    assert_int_equal(schema_version(), 1);

    s = open_store(0); /* a reading open migrates too */
    assert_int_equal(schema_version(), BL_STORE_SCHEMA_VERSION);
    assert_int_equal(raw_count("SELECT count(*) FROM runs"), 1);
    assert_int_equal(raw_count("SELECT count(*) FROM launches WHERE loop_iterations = 0"),
                     raw_count("SELECT count(*) FROM launches"));
    bl_results *back = NULL;
    bl_store_run run;
    assert_int_equal(bl_store_load_ref(s, "@old", &back, &run, err, sizeof err), 0);
    assert_int_equal(run.id, old_id);
    bl_store_run_fini(&run);
    bl_results *v1 = make_results(1.0, NULL);
    as_v1(v1);
    assert_same_results(v1, back);
    bl_results_destroy(back);
    /* a run saved now keeps all */
    save(s, r, "new");
    assert_int_equal(bl_store_load_ref(s, "@new", &back, NULL, err, sizeof err), 0);
    assert_same_results(r, back);
    bl_results_destroy(back);
    bl_store_close(s);
    /* once: opening again finds version 2 (adding the columns again would fail) */
    s = open_store(BL_STORE_CREATE);
    assert_int_equal(schema_version(), BL_STORE_SCHEMA_VERSION);
    assert_int_equal(raw_count("SELECT count(*) FROM runs"), 2);
    bl_store_close(s);
    bl_results_destroy(v1);
    bl_results_destroy(r);
}

/* How many of version 2's columns the store's tables have. */
static long long v2_columns_present(void)
{
    char sql[2048];
    int n = snprintf(sql, sizeof sql, "%s",
                     pg_base ? "SELECT count(*) FROM information_schema.columns WHERE "
                               "table_schema = current_schema() AND ("
                             : "SELECT count(*) FROM (SELECT 'benches' AS t, name FROM "
                               "pragma_table_info('benches') UNION ALL SELECT 'launches', name "
                               "FROM pragma_table_info('launches') UNION ALL SELECT 'metrics', "
                               "name FROM pragma_table_info('metrics') UNION ALL SELECT "
                               "'samples', name FROM pragma_table_info('samples')) WHERE (");
    for (size_t i = 0; i < sizeof v2_columns / sizeof *v2_columns; i++)
        n += snprintf(sql + n, sizeof sql - (size_t)n, "%s(%s = '%s' AND %s = '%s')",
                      i ? " OR " : "", pg_base ? "table_name" : "t", v2_columns[i][0],
                      pg_base ? "column_name" : "name", v2_columns[i][1]);
    snprintf(sql + n, sizeof sql - (size_t)n, ")");
    return raw_count(sql);
}

/* A client killed mid-transaction leaves its PostgreSQL backend running:
 * the server finds the client gone only when it next reads or writes the
 * socket, and a COMMIT already sent still commits. Wait until every other
 * session on the store has ended, so what is read next is final (reading at
 * once saw version 1 beside migrated columns: the commit landed between the
 * two reads). SQLite has no such session: a killed writer is gone. */
static void wait_for_other_sessions(void)
{
    if (!pg_base)
        return;
    long long others = -1;
    for (int i = 0; i < 3000; i++) { /* 30 s */
        others = raw_count("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND pid <> pg_backend_pid()");
        if (others == 0)
            return;
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    fail_msg("%lld sessions of the killed client still on %s after 30 s", others, db_name);
}

/* A migration killed at any point (kill -9) leaves the store as it was or
 * wholly migrated, never between, and it opens (and migrates) afterwards. */
static void killed_migration_leaves_one_version(void **state)
{
    (void)state;
    const long long all = (long long)(sizeof v2_columns / sizeof *v2_columns);
    bl_store *s = open_store(BL_STORE_CREATE);
    bl_results *r = make_results(1.0, NULL);
    save(s, r, NULL);
    bl_store_close(s);
    bl_results_destroy(r);
    /* how long a migrating open takes here, to spread the kills over it */
    downgrade_to_v1();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bl_store_close(open_store(0));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long span_ns = (t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec);
    int seen[BL_STORE_SCHEMA_VERSION + 1] = {0}; /* rounds that left version 1, the current */
    const int rounds = 16;
    for (int round = 0; round < rounds; round++) {
        if (schema_version() == BL_STORE_SCHEMA_VERSION)
            downgrade_to_v1();
        assert_int_equal(v2_columns_present(), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            bl_store *m = NULL;
            char e[1024];
            _exit(bl_store_open(spec, 0, &m, e, sizeof e) ? 1 : 0);
        }
        /* kill points spread over 1.5 times the open: before, during, after
         * (a fork and the child's start come first) */
        long at = span_ns * 3 / 2 * ((round * 7) % rounds) / rounds;
        struct timespec ts = {at / 1000000000L, at % 1000000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) == 0));
        wait_for_other_sessions();
        long long v = schema_version(), cols = v2_columns_present();
        if (!((v == 1 && cols == 0) || (v == BL_STORE_SCHEMA_VERSION && cols == all)))
            fail_msg("round %d, killed %.2f ms after the fork: the store says version %lld with "
                     "%lld of the %lld migrated columns (expected version 1 with none or "
                     "version %d with all)",
                     round, at / 1e6, v, cols, all, BL_STORE_SCHEMA_VERSION);
        seen[v]++;
    }
    s = open_store(0); /* whatever the last round left, it opens at version 2 */
    assert_int_equal(schema_version(), BL_STORE_SCHEMA_VERSION);
    assert_int_equal(v2_columns_present(), all);
    assert_int_equal(raw_count("SELECT count(*) FROM runs"), 1);
    bl_results *back = NULL;
    assert_int_equal(bl_store_load_ref(s, "@latest", &back, NULL, err, sizeof err), 0);
    assert_int_equal(back->n_benches, 2);
    bl_results_destroy(back);
    bl_store_close(s);
    print_message("killed migrations (an open takes %.1f ms): %d left version 1, %d the current\n",
                  span_ns / 1e6, seen[1], seen[BL_STORE_SCHEMA_VERSION]);
}

/* A version 1 store that cannot be written (a copy on read-only media, a
 * reader's role) is read as it is, not migrated; saving into it is
 * refused with the reason. The next writable open migrates it. */
static void old_read_only_store_reads_without_migrating(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    bl_results *r = make_results(1.0, NULL);
    save(s, r, NULL);
    bl_store_close(s);
    downgrade_to_v1();
    char ro_spec[600];
    read_only_spec(ro_spec, sizeof ro_spec);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!pg_base && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(10);
        bl_results *v1 = make_results(1.0, NULL);
        as_v1(v1);
        for (unsigned flags = 0; flags <= BL_STORE_CREATE; flags++) {
            bl_store *ro = NULL;
            char e[1024];
            if (bl_store_open(ro_spec, flags, &ro, e, sizeof e)) {
                fprintf(stderr, "open: %s\n", e);
                _exit(11);
            }
            bl_results *back = NULL;
            if (bl_store_load_ref(ro, "@latest", &back, NULL, e, sizeof e)) {
                fprintf(stderr, "load: %s\n", e);
                _exit(12);
            }
            /* as version 1 read it: the counters' columns are not there */
            const bl_launch *l = &back->benches[0].launches[2];
            if (back->n_benches != v1->n_benches || l->loop_iterations != 0 ||
                l->n_samples != v1->benches[0].launches[2].n_samples || l->metrics[3].is_counter ||
                l->metrics[3].value != v1->benches[0].launches[2].metrics[3].value)
                _exit(13);
            bl_results_destroy(back);
            bl_store_save_options o;
            bl_store_save_options_init(&o);
            o.git_dir = "";
            int rc = bl_store_save(ro, r, &o, NULL, e, sizeof e);
            bl_store_close(ro);
            if (rc != -EROFS || !strstr(e, "store ") ||
                !strstr(e, "(version 1) must be migrated")) {
                fprintf(stderr, "save gave %d: %s\n", rc, e);
                _exit(14);
            }
        }
        bl_results_destroy(v1);
        _exit(0);
    }
    end_read_only(pid);
    assert_int_equal(schema_version(), 1); /* not migrated, not written */
    s = open_store(0);
    assert_int_equal(schema_version(), BL_STORE_SCHEMA_VERSION);
    bl_store_close(s);
    bl_results_destroy(r);
}

static void unreachable_server_is_one_clear_error(void **state)
{
    (void)state;
    bl_store *s = NULL;
    int rc = bl_store_open("postgresql://nobody:secret@127.0.0.1:1/nothing?connect_timeout=3",
                           BL_STORE_CREATE, &s, err, sizeof err);
    assert_int_equal(rc, -ECONNREFUSED);
    assert_null(s);
    assert_non_null(strstr(err, "cannot connect"));
    assert_non_null(strstr(err, "127.0.0.1:1"));
    assert_null(strstr(err, "secret")); /* never the password */
    assert_null(strchr(err, '\n'));
    /* short passwords, in the query too */
    rc = bl_store_open("postgresql://u:p@127.0.0.1:1/x?connect_timeout=3&password=q", 0, &s, err,
                       sizeof err);
    assert_int_equal(rc, -ECONNREFUSED);
    assert_non_null(strstr(err, "postgresql://u:***@127.0.0.1:1/x?connect_timeout=3&password=***"));
}

static void profile_summary_round_trips(void **state)
{
    (void)state;
    bl_store *s = open_store(BL_STORE_CREATE);
    bl_label info[] = {{(char *)"mode", (char *)"sampled"}, {(char *)"command", (char *)"./app"}};
    bl_store_profile_function fns[] = {
        {"main", "app.c", 10, 1e6, 9e6, 0},
        {"work", NULL, 0, 8e6, 8e6, 12},
    };
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.git_dir = "";
    int64_t id;
    assert_int_equal(bl_store_save_profile(s, info, 2, fns, 2, &o, &id, err, sizeof err), 0);
    bl_store_run run;
    assert_int_equal(bl_store_get_run(s, id, &run, err, sizeof err), 0);
    assert_string_equal(run.kind, "profile");
    assert_int_equal(run.n_benches, 0);
    bl_store_run_fini(&run);
    bl_store_profile_function *back;
    size_t n;
    assert_int_equal(bl_store_load_profile(s, id, &back, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(back[0].name, "main");
    assert_string_equal(back[0].file, "app.c");
    assert_int_equal(back[0].line, 10);
    same_double(back[0].total_ns, 9e6);
    assert_null(back[1].file);
    assert_int_equal(back[1].calls, 12);
    bl_store_profile_free(back, n);
    /* a profile has no benchmarks: @latest skips it */
    int64_t latest;
    assert_int_equal(bl_store_resolve(s, "@latest", &latest, err, sizeof err), BL_ENOTFOUND);
    bl_store_close(s);
}

static void run_saver_creates_the_store_and_says_where(void **state)
{
    (void)state;
    bl_results *r = make_results(1.0, NULL);
    bl_run_save_request req = {.store = spec, .tag = "nightly"};
    char where[600], e[1024];
    int64_t id = 0;
    assert_int_equal(bl_store_run_saver(&req, r, &id, where, sizeof where, e, sizeof e), 0);
    assert_true(id > 0);
    assert_string_equal(where, spec);
    bl_store *s = open_store(0);
    bl_store_run run;
    assert_int_equal(bl_store_get_run(s, id, &run, err, sizeof err), 0);
    assert_string_equal(run.tag, "nightly");
    bl_store_run_fini(&run);
    bl_store_close(s);
    bl_results_destroy(r);
}

int main(void)
{
    pg_base = getenv("BENCHLAB_TEST_PG");
    if (pg_base && !*pg_base)
        pg_base = NULL;
#define T(f) cmocka_unit_test_setup_teardown(f, fresh_store, drop_store)
    const struct CMUnitTest tests[] = {
        T(save_then_load_gives_back_every_field),
        T(missing_store_is_not_found_without_create),
        T(foreign_database_is_not_a_store),
        T(newer_schema_is_refused_by_name),
        T(references_resolve_to_runs),
        T(acknowledgements_are_kept_and_withdrawn),
        T(shards_with_one_run_id_are_one_run),
        T(history_gives_each_benchmark_its_centre_per_run),
        T(history_keeps_the_suites_order_not_the_names),
        T(failed_save_leaves_nothing_behind),
        T(concurrent_writers_lose_nothing),
        T(concurrent_shards_of_one_run_join_it),
        T(killed_writer_leaves_whole_runs),
        T(locked_store_fails_clearly_after_the_timeout),
        T(read_only_store_refuses_save_but_reads),
        T(old_schema_migrates_once_and_reads_as_before),
        T(old_read_only_store_reads_without_migrating),
        T(killed_migration_leaves_one_version),
        T(unreachable_server_is_one_clear_error),
        T(profile_summary_round_trips),
        T(run_saver_creates_the_store_and_says_where),
    };
    return cmocka_run_group_tests_name(pg_base ? "store/postgresql" : "store/sqlite", tests, NULL,
                                       NULL);
}
