/*
 * schema.c - the store's tables: version 1 as it was made, and the
 * migrations that take a store from one version to the next. store.c
 * decides (ensure_schema) whether a store is created, migrated or read as
 * it is; this file says what that means in SQL.
 */
#include <stdio.h>
#include <string.h>

#include "store_int.h"

/* Version 1. "%s" is the backend's auto-numbered key type. Tables hang
 * off runs with ON DELETE CASCADE, so deleting a run deletes all of it. */
static const char *const schema_v1[] = {
    "CREATE TABLE benchlab_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE runs (id %s, uid TEXT UNIQUE, kind TEXT NOT NULL, saved_at TEXT NOT NULL,"
    " measured_at TEXT, git_commit TEXT, git_branch TEXT, git_dirty INTEGER NOT NULL,"
    " host TEXT, fingerprint TEXT, compiler TEXT, cflags TEXT, version TEXT,"
    " env_warnings TEXT, pkg TEXT, tag TEXT, n_parts INTEGER NOT NULL)",
    "CREATE INDEX runs_commit ON runs (git_commit)",
    "CREATE TABLE parts (id %s, run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL, shard TEXT, host TEXT, saved_at TEXT NOT NULL,"
    " n_benches INTEGER NOT NULL, n_launches INTEGER NOT NULL, n_samples BIGINT NOT NULL)",
    "CREATE INDEX parts_run ON parts (run_id)",
    "CREATE TABLE labels (part_id BIGINT NOT NULL REFERENCES parts (id) ON DELETE CASCADE,"
    " kind TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
    " PRIMARY KEY (part_id, kind, seq))",
    "CREATE TABLE benches (id %s, run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
    " part_id BIGINT NOT NULL REFERENCES parts (id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
    " name TEXT NOT NULL, centre DOUBLE PRECISION, ci_lo DOUBLE PRECISION,"
    " ci_hi DOUBLE PRECISION, ci_method INTEGER NOT NULL, n_launches INTEGER NOT NULL,"
    " n_batches INTEGER NOT NULL,"
    " has_alloc INTEGER NOT NULL, alloc_bytes_per_op DOUBLE PRECISION,"
    " allocs_per_op DOUBLE PRECISION, alloc_message TEXT, counters_scaled INTEGER NOT NULL,"
    " counters_message TEXT, profile_raw TEXT, profile_message TEXT)",
    "CREATE INDEX benches_run ON benches (run_id)",
    "CREATE INDEX benches_name ON benches (name)",
    "CREATE TABLE counters (bench_id BIGINT NOT NULL REFERENCES benches (id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL, unit TEXT NOT NULL, value DOUBLE PRECISION,"
    " PRIMARY KEY (bench_id, seq))",
    "CREATE TABLE launches (id %s,"
    " bench_id BIGINT NOT NULL REFERENCES benches (id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL, status INTEGER NOT NULL, skipped INTEGER NOT NULL, message TEXT,"
    " ns_per_op DOUBLE PRECISION, raw_ns_per_op DOUBLE PRECISION,"
    " overhead_ns DOUBLE PRECISION, clock_ns DOUBLE PRECISION, pause_ns DOUBLE PRECISION,"
    " bytes_per_op DOUBLE PRECISION, items_per_op DOUBLE PRECISION, threads INTEGER NOT NULL,"
    " measured_reps BIGINT NOT NULL,"
    " n_measured INTEGER NOT NULL, n_invalid INTEGER NOT NULL, intrinsic INTEGER NOT NULL,"
    " wall_s DOUBLE PRECISION, exit_code INTEGER NOT NULL, term_signal INTEGER NOT NULL,"
    " out_text TEXT, err_text TEXT, out_total BIGINT NOT NULL, err_total BIGINT NOT NULL,"
    " disturbed INTEGER NOT NULL, size_param TEXT, size_n DOUBLE PRECISION,"
    " size_complexity INTEGER NOT NULL, size_user_g DOUBLE PRECISION, size_user_name TEXT,"
    " ref_ns DOUBLE PRECISION, ref_cycles_per_op DOUBLE PRECISION, tuned_reps BIGINT NOT NULL,"
    " tune_stale INTEGER NOT NULL)",
    "CREATE INDEX launches_bench ON launches (bench_id)",
    "CREATE TABLE metrics (launch_id BIGINT NOT NULL REFERENCES launches (id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL, unit TEXT NOT NULL, value DOUBLE PRECISION, flags INTEGER NOT NULL,"
    " per_op DOUBLE PRECISION, PRIMARY KEY (launch_id, seq))",
    "CREATE TABLE units (part_id BIGINT NOT NULL REFERENCES parts (id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL, unit TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
    " PRIMARY KEY (part_id, seq))",
    "CREATE TABLE samples (launch_id BIGINT NOT NULL REFERENCES launches (id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL, stage TEXT NOT NULL, reps BIGINT NOT NULL, ns DOUBLE PRECISION,"
    " cpu_ns DOUBLE PRECISION, nivcsw INTEGER NOT NULL, migrations INTEGER NOT NULL,"
    " minflt INTEGER NOT NULL, majflt INTEGER NOT NULL, pauses INTEGER NOT NULL,"
    " invalid INTEGER NOT NULL, ref_ns DOUBLE PRECISION, PRIMARY KEY (launch_id, seq))",
    "CREATE TABLE baselines (name TEXT PRIMARY KEY,"
    " run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, set_at TEXT NOT NULL)",
    "CREATE TABLE profile_functions ("
    " part_id BIGINT NOT NULL REFERENCES parts (id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
    " name TEXT NOT NULL, file TEXT, src_line INTEGER NOT NULL, self_ns DOUBLE PRECISION,"
    " total_ns DOUBLE PRECISION, calls BIGINT NOT NULL, PRIMARY KEY (part_id, seq))",
    NULL,
};

/*
 * Version 2: what a launch carries since Google Benchmark's counters came
 * (bl_launch, bl_metric): the counters' flags and their threads' sums, the
 * threads' sums of bytes and items, the loop's repetitions and the clock
 * of the rates, the label, time unit and size group (and a threaded
 * benchmark's n summed over its threads, with its own curve there), the clock of cpu/op
 * (.process_cpu) and each batch's process CPU time beside its threads';
 * per benchmark its own plan. Every new column has a default that is what a version 1 row meant
 * ("not said": NULL or 0), so a run saved before reads back as it did.
 */
static const char *const schema_v2[] = {
    "ALTER TABLE benches ADD COLUMN own_time_s DOUBLE PRECISION",
    "ALTER TABLE benches ADD COLUMN own_count INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE launches ADD COLUMN bytes_sum_per_op DOUBLE PRECISION",
    "ALTER TABLE launches ADD COLUMN items_sum_per_op DOUBLE PRECISION",
    "ALTER TABLE launches ADD COLUMN loop_iterations BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE launches ADD COLUMN counter_clock INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE launches ADD COLUMN label TEXT",
    "ALTER TABLE launches ADD COLUMN time_unit TEXT",
    "ALTER TABLE launches ADD COLUMN size_group TEXT",
    "ALTER TABLE launches ADD COLUMN cpu_clock INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE launches ADD COLUMN size_n_sum DOUBLE PRECISION NOT NULL DEFAULT 0",
    "ALTER TABLE launches ADD COLUMN size_user_g_sum DOUBLE PRECISION",
    "ALTER TABLE samples ADD COLUMN proc_cpu_ns DOUBLE PRECISION",
    "ALTER TABLE metrics ADD COLUMN is_counter INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE metrics ADD COLUMN counter_flags INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE metrics ADD COLUMN counter_sum DOUBLE PRECISION",
    NULL,
};

/* Version 3: acknowledged changes (acks.c): a benchmark name or pattern
 * and the commit where its change came in. They belong to no run. */
static const char *const schema_v3[] = {
    "CREATE TABLE acks (benchmark TEXT NOT NULL, git_commit TEXT NOT NULL, reason TEXT,"
    " acked_at TEXT NOT NULL, PRIMARY KEY (benchmark, git_commit))",
    NULL,
};

/*
 * Forward migrations: migrations[v - 1] takes a store from version v to
 * v + 1 (NULL-terminated statement lists). A new store is made as version
 * 1 and then migrated, inside the one transaction that creates it, so new
 * and migrated stores have the same tables. A change to the schema adds
 * an entry here and bumps BL_STORE_SCHEMA_VERSION; stores written before
 * it keep opening, and are migrated once, when first opened.
 */
/* Version 4: a benchmark's job (docs/jobs.md), part of its identity
 * beside its name; NULL for a run without jobs, as every older row. */
static const char *const schema_v4[] = {
    "ALTER TABLE benches ADD COLUMN job TEXT",
    NULL,
};

static const char *const *const migrations[] = {schema_v2, schema_v3, schema_v4};
_Static_assert(sizeof migrations / sizeof *migrations == BL_STORE_SCHEMA_VERSION - 1,
               "one migration per schema version after the first");

/* Run a schema statement with its "%s" replaced by the key type. */
static int exec_fmt(bl_store *s, const char *sql)
{
    char buf[2048];
    const char *mark = strstr(sql, "%s");
    if (mark)
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(mark - sql), sql, DB_OPS(s)->id_type, mark + 2);
    return DB_OPS(s)->exec(s->db, mark ? buf : sql);
}

static int set_meta(bl_store *s, const char *key, const char *value)
{
    struct bl__stmt *st;
    int rc = DB_OPS(s)->prepare(s->db,
                                "INSERT INTO benchlab_meta (key, value) VALUES (?, ?)"
                                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                &st);
    if (rc)
        return rc;
    rc = DB_OPS(s)->bind_text(st, 1, key);
    if (!rc)
        rc = DB_OPS(s)->bind_text(st, 2, value);
    if (!rc)
        rc = DB_OPS(s)->step(st);
    DB_OPS(s)->finalize(st);
    return rc < 0 ? rc : 0;
}

/* Run the migrations from version `from` to BL_STORE_SCHEMA_VERSION. */
static int run_migrations(bl_store *s, long from)
{
    int rc = 0;
    for (long v = from; v < BL_STORE_SCHEMA_VERSION && !rc; v++) {
        const char *const *steps = migrations[v - 1];
        for (size_t i = 0; steps && steps[i] && !rc; i++)
            rc = exec_fmt(s, steps[i]);
    }
    return rc;
}

int bl__store_create_schema(bl_store *s)
{
    int rc = 0;
    for (size_t i = 0; schema_v1[i] && !rc; i++)
        rc = exec_fmt(s, schema_v1[i]);
    if (!rc)
        rc = run_migrations(s, 1);
    char now[32], v[16];
    bl__utc_now(now, sizeof now);
    snprintf(v, sizeof v, "%d", BL_STORE_SCHEMA_VERSION);
    if (!rc)
        rc = set_meta(s, "format", BL__STORE_FORMAT);
    if (!rc)
        rc = set_meta(s, "schema_version", v);
    if (!rc)
        rc = set_meta(s, "created_at", now);
    if (!rc)
        rc = set_meta(s, "created_by", "benchlab " BENCHLAB_VERSION_STRING);
    return rc;
}

int bl__store_migrate(bl_store *s, long from)
{
    int rc = run_migrations(s, from);
    char buf[16];
    snprintf(buf, sizeof buf, "%d", BL_STORE_SCHEMA_VERSION);
    return rc ? rc : set_meta(s, "schema_version", buf);
}
