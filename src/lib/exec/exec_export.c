/*
 * exec_export.c - writing the results of `benchlab exec`: the Go benchmark
 * format (for benchlab compare and benchstat) and hyperfine's JSON, CSV and
 * Markdown exports, with hyperfine's field names and units (seconds) so
 * that tools written for hyperfine read ours.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/base.h"
#include "benchlab/env.h"
#include "benchlab/exec.h"
#include "benchlab/format.h"
#include "benchlab/results.h"

static int status_of(FILE *f)
{
    return ferror(f) ? -EIO : 0;
}

/* Append s, with whitespace and '/' mapped to '_' when `clean`. */
static void append(char *out, size_t size, size_t *pos, const char *s, int clean)
{
    for (; *s && *pos + 1 < size; s++)
        out[(*pos)++] = clean && (isspace((unsigned char)*s) || *s == '/') ? '_' : *s;
    out[*pos] = '\0';
}

void bl_exec_go_name(const bl_exec_result *r, char *out, size_t size)
{
    size_t pos = 0;
    if (!size)
        return;
    out[0] = '\0';
    append(out, size, &pos, "Exec/cmd=", 0);
    append(out, size, &pos, r->command->name, 1);
    for (size_t i = 0; i < r->command->n_params; i++) {
        append(out, size, &pos, "/", 0);
        append(out, size, &pos, r->command->params[i].name, 1);
        append(out, size, &pos, "=", 0);
        append(out, size, &pos, r->command->params[i].value, 1);
    }
}

int bl_exec_write_gobench(FILE *f, const bl_exec_results *res)
{
    fprintf(f, "goos: linux\ngoarch: %s\npkg: benchlab/exec\ncpu: %s\n", bl__sys_goarch(),
            bl__sys_cpu_model());
    fprintf(f, "# benchlab: %s\n# shell: %s\n", bl_version(), res->shell[0] ? res->shell : "none");
    if (res->n_shell_runs)
        fprintf(f, "# shell-startup-ns: %.0f\n", res->shell_wall_ns);
    for (size_t i = 0; i < res->n_results; i++) {
        const bl_exec_result *r = &res->results[i];
        char name[512];
        bl_exec_go_name(r, name, sizeof name);
        /* one line, cut past benchstat's line limit: a newline must not
         * forge a result, a 70 KB command must not make the file unreadable */
        struct bl__buf c = {0};
        bl__buf_puts(&c, "# command: ");
        bl__gobench_field_buf(&c, name);
        bl__buf_puts(&c, " = ");
        bl__gobench_text_buf(&c, r->command->command);
        int rc = c.data ? bl__gobench_put_line(f, &c, 1) : -ENOMEM;
        bl__buf_fini(&c);
        if (rc)
            return rc;
        for (size_t k = 0; k < r->n_runs; k++) {
            const bl_exec_run *run = &r->runs[k];
            char w[64], u[64], s[64], m[64];
            bl_gobench_format_value(w, sizeof w, run->wall_ns);
            bl_gobench_format_value(u, sizeof u, run->user_ns);
            bl_gobench_format_value(s, sizeof s, run->sys_ns);
            bl_gobench_format_value(m, sizeof m, (double)run->peak_rss_bytes);
            /* a peak that is only benchlab's own (exec.h) is left out, not written as the
             * command's */
            fprintf(f, "Benchmark%s\t%8d\t%10s ns/op\t%10s user-ns/op\t%10s sys-ns/op", name, 1, w,
                    u, s);
            if (!run->peak_rss_is_bound)
                fprintf(f, "\t%10s peak-RSS-bytes", m);
            fputc('\n', f);
        }
    }
    return status_of(f);
}

static void json_seconds(FILE *f, double ns)
{
    if (isfinite(ns))
        fprintf(f, "%.9g", ns * 1e-9);
    else
        fputs("null", f);
}

int bl_exec_write_json(FILE *f, const bl_exec_results *res)
{
    fputs("{\n  \"results\": [", f);
    for (size_t i = 0; i < res->n_results; i++) {
        const bl_exec_result *r = &res->results[i];
        int any = r->n_runs > 0;
        fputs(i ? ",\n    {\n" : "\n    {\n", f);
        fputs("      \"command\": ", f);
        bl__json_string(f, r->command->name);
        fputs(",\n      \"mean\": ", f);
        json_seconds(f, any ? r->wall.mean : NAN);
        fputs(",\n      \"stddev\": ", f);
        json_seconds(f, r->n_runs > 1 ? r->wall.stddev : NAN);
        fputs(",\n      \"median\": ", f);
        json_seconds(f, any ? r->wall.median : NAN);
        fputs(",\n      \"user\": ", f);
        json_seconds(f, any ? r->user.mean : NAN);
        fputs(",\n      \"system\": ", f);
        json_seconds(f, any ? r->sys.mean : NAN);
        fputs(",\n      \"min\": ", f);
        json_seconds(f, any ? r->wall.min : NAN);
        fputs(",\n      \"max\": ", f);
        json_seconds(f, any ? r->wall.max : NAN);
        fputs(",\n      \"times\": [", f);
        for (size_t k = 0; k < r->n_runs; k++) {
            fputs(k ? ", " : "", f);
            json_seconds(f, r->runs[k].wall_ns);
        }
        fputs("],\n      \"exit_codes\": [", f);
        for (size_t k = 0; k < r->n_runs; k++)
            fprintf(f, "%s%d", k ? ", " : "", r->runs[k].exit_code);
        fputs("],\n      \"peak_rss_bytes\": [", f);
        for (size_t k = 0; k < r->n_runs; k++)
            if (r->runs[k].peak_rss_is_bound) /* only benchlab's own peak (exec.h) */
                fprintf(f, "%snull", k ? ", " : "");
            else
                fprintf(f, "%s%ld", k ? ", " : "", r->runs[k].peak_rss_bytes);
        fputs("]", f);
        if (r->command->n_params) {
            fputs(",\n      \"parameters\": {", f);
            for (size_t p = 0; p < r->command->n_params; p++) {
                fputs(p ? ", " : "", f);
                bl__json_string(f, r->command->params[p].name);
                fputs(": ", f);
                bl__json_string(f, r->command->params[p].value);
            }
            fputs("}", f);
        }
        fputs("\n    }", f);
    }
    fputs("\n  ]", f);
    if (res->n_shell_runs) {
        fputs(",\n  \"shell_startup\": {\"shell\": ", f);
        bl__json_string(f, res->shell);
        fputs(", \"median\": ", f);
        json_seconds(f, res->shell_wall_ns);
        fprintf(f, ", \"runs\": %zu}", res->n_shell_runs);
    }
    fputs("\n}\n", f);
    return status_of(f);
}

/* The index of parameter `name` in c's, or c->n_params. */
static size_t param_index(const bl_exec_command *c, const char *name)
{
    size_t p = 0;
    while (p < c->n_params && strcmp(c->params[p].name, name) != 0)
        p++;
    return p;
}

int bl_exec_write_csv(FILE *f, const bl_exec_results *res)
{
    /* hyperfine's parameter columns: the names of the first command that has
     * parameters, sorted (hyperfine keeps them in a sorted map); a command
     * without them (a --reference) leaves its cells empty */
    const bl_exec_command *c0 = NULL;
    for (size_t i = 0; !c0 && i < res->n_results; i++)
        if (res->results[i].command->n_params)
            c0 = res->results[i].command;
    size_t n_names = c0 ? c0->n_params : 0;
    const char **names = n_names ? malloc(n_names * sizeof *names) : NULL;
    if (n_names && !names)
        return -ENOMEM;
    for (size_t p = 0; p < n_names; p++) { /* insertion sort, few names */
        size_t j = p;
        while (j > 0 && strcmp(names[j - 1], c0->params[p].name) > 0) {
            names[j] = names[j - 1];
            j--;
        }
        names[j] = c0->params[p].name;
    }
    fputs("command,mean,stddev,median,user,system,min,max", f);
    for (size_t p = 0; p < n_names; p++) {
        struct bl__buf h = {0};
        bl__buf_printf(&h, "parameter_%s", names[p]);
        fputc(',', f);
        bl__csv_field(f, h.data);
        bl__buf_fini(&h);
    }
    fputc('\n', f);
    for (size_t i = 0; i < res->n_results; i++) {
        const bl_exec_result *r = &res->results[i];
        if (!r->n_runs)
            continue;
        bl__csv_field(f, r->command->name);
        fprintf(f, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", r->wall.mean * 1e-9,
                r->n_runs > 1 ? r->wall.stddev * 1e-9 : 0.0, r->wall.median * 1e-9,
                r->user.mean * 1e-9, r->sys.mean * 1e-9, r->wall.min * 1e-9, r->wall.max * 1e-9);
        for (size_t p = 0; p < n_names; p++) {
            size_t k = param_index(r->command, names[p]);
            fputc(',', f);
            if (k < r->command->n_params)
                bl__csv_field(f, r->command->params[k].value);
        }
        fputc('\n', f);
    }
    free(names);
    return status_of(f);
}

/* hyperfine's number in a table cell: µs and ms with one decimal, s with three. */
static void table_value(char *out, size_t size, double ns, double unit_ns)
{
    snprintf(out, size, unit_ns >= 1e9 ? "%.3f" : "%.1f", ns / unit_ns);
}

static void table_row(FILE *f, enum bl_exec_markup m, const char *cells[5])
{
    if (m == BL_EXEC_ASCIIDOC) {
        fputc('\n', f);
        for (int i = 0; i < 5; i++)
            fprintf(f, "| %s \n", cells[i]);
    } else if (m == BL_EXEC_ORGMODE) {
        fprintf(f, "| %s  |  %s |  %s |  %s |  %s |\n", cells[0], cells[1], cells[2], cells[3],
                cells[4]);
    } else {
        fprintf(f, "| %s | %s | %s | %s | %s |\n", cells[0], cells[1], cells[2], cells[3],
                cells[4]);
    }
}

int bl_exec_write_table(FILE *f, const bl_exec_results *res, const bl_exec_table_options *o)
{
    size_t n = o->order ? o->n_order : res->n_results;
    /* the unit: given, or from the first listed command's mean, as hyperfine */
    double unit = o->unit_ns;
    for (size_t i = 0; !unit && i < n; i++) {
        const bl_exec_result *r = &res->results[o->order ? o->order[i] : i];
        if (r->n_runs)
            unit = r->wall.mean < 1e6 ? 1e3 : r->wall.mean < 1e9 ? 1e6 : 1e9;
    }
    if (!unit)
        unit = 1e9;
    const char *u = unit == 1e3 ? "µs" : unit == 1e6 ? "ms" : "s";
    const bl_exec_result *ref = o->reference < res->n_results ? &res->results[o->reference] : NULL;
    for (size_t i = 0; !ref && i < res->n_results; i++)
        if (res->results[i].n_runs)
            ref = &res->results[i];
    for (size_t i = 0; o->reference >= res->n_results && i < res->n_results; i++)
        if (res->results[i].n_runs && res->results[i].wall.mean < ref->wall.mean)
            ref = &res->results[i];
    char h1[32], h2[32], h3[32];
    snprintf(h1, sizeof h1, "Mean [%s]", u);
    snprintf(h2, sizeof h2, "Min [%s]", u);
    snprintf(h3, sizeof h3, "Max [%s]", u);
    const char *head[5] = {"Command", h1, h2, h3, "Relative"};
    if (o->markup == BL_EXEC_ASCIIDOC)
        fputs("[cols=\"<,>,>,>,>\"]\n|===", f);
    table_row(f, o->markup, head);
    if (o->markup == BL_EXEC_MARKDOWN)
        fputs("|:---|---:|---:|---:|---:|\n", f);
    else if (o->markup == BL_EXEC_ORGMODE)
        fputs("|--+--+--+--+--|\n", f);
    for (size_t i = 0; i < n; i++) {
        const bl_exec_result *r = &res->results[o->order ? o->order[i] : i];
        if (!r->n_runs)
            continue;
        struct bl__buf name = {0};
        const char *q = o->markup == BL_EXEC_ORGMODE ? "=" : "`";
        const char *label = r->command->label ? r->command->label : r->command->name;
        int err = 0;
        if (o->markup == BL_EXEC_MARKDOWN) {
            err = bl__markdown_code(&name, label); /* HTML in a code span is shown as text */
        } else {
            err = bl__buf_puts(&name, q);
            for (const char *s = label; !err && *s; s++)
                err = *s == '|' ? bl__buf_puts(&name, "\\|") : bl__buf_append(&name, s, 1);
            if (!err)
                err = bl__buf_puts(&name, q);
        }
        if (err) {
            bl__buf_fini(&name);
            return err;
        }
        char mean[64], sd[32], mn[32], mx[32], rel[64];
        int has_sd = r->n_runs > 1;
        table_value(mean, sizeof mean, r->wall.mean, unit);
        if (has_sd) {
            table_value(sd, sizeof sd, r->wall.stddev, unit);
            size_t len = strlen(mean);
            snprintf(mean + len, sizeof mean - len, " ± %s", sd);
        }
        table_value(mn, sizeof mn, r->wall.min, unit);
        table_value(mx, sizeof mx, r->wall.max, unit);
        /* hyperfine's relative speed: the slower over the faster, with the
         * propagated stddev; a mean of 0 gives inf (1 for the reference) */
        double a = r->wall.mean, b = ref->wall.mean;
        if (r == ref) {
            snprintf(rel, sizeof rel, "1.00");
        } else if (a <= 0 || b <= 0) {
            snprintf(rel, sizeof rel, "inf");
        } else {
            double ratio = a > b ? a / b : b / a;
            snprintf(rel, sizeof rel, "%.2f", ratio);
            if (has_sd && ref->n_runs > 1) {
                double e = ratio * sqrt(pow(r->wall.stddev / a, 2) + pow(ref->wall.stddev / b, 2));
                size_t len = strlen(rel);
                snprintf(rel + len, sizeof rel - len, " ± %.2f", e);
            }
        }
        const char *cells[5] = {name.data, mean, mn, mx, rel};
        table_row(f, o->markup, cells);
        bl__buf_fini(&name);
    }
    if (o->markup == BL_EXEC_ASCIIDOC)
        fputs("|===\n", f);
    return status_of(f);
}

int bl_exec_write_markdown(FILE *f, const bl_exec_results *res)
{
    bl_exec_table_options o = {BL_EXEC_MARKDOWN, 0, NULL, 0, SIZE_MAX};
    return bl_exec_write_table(f, res, &o);
}

int bl_exec_to_results(const bl_exec_results *res, bl_results **out)
{
    *out = NULL;
    bl_results *r = bl_results_create();
    if (!r)
        return -ENOMEM;
    char date[64], buf[128];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    int rc = bl_results_set_config(r, "goos", "linux");
    if (!rc)
        rc = bl_results_set_config(r, "goarch", bl__sys_goarch());
    if (!rc)
        rc = bl_results_set_config(r, "pkg", "benchlab/exec");
    if (!rc)
        rc = bl_results_set_config(r, "cpu", bl__sys_cpu_model());
    if (!rc)
        rc = bl_results_set_meta(r, "date", date);
    if (!rc)
        rc = bl_results_set_meta(r, "host", bl__sys_hostname());
    if (!rc)
        rc = bl_results_set_meta(r, "fingerprint", bl_env_fingerprint());
    if (!rc)
        rc = bl_results_set_meta(r, "benchlab-version", bl_version());
    if (!rc)
        rc = bl_results_set_meta(r, "shell", res->shell[0] ? res->shell : "none");
    if (!rc && res->n_shell_runs) {
        snprintf(buf, sizeof buf, "%.0f", res->shell_wall_ns);
        rc = bl_results_set_meta(r, "shell-startup-ns", buf);
    }
    for (size_t i = 0; !rc && i < res->n_results; i++) {
        const bl_exec_result *x = &res->results[i];
        char name[512], full[528], key[528];
        bl_exec_go_name(x, name, sizeof name);
        snprintf(full, sizeof full, "Benchmark%s", name);
        snprintf(key, sizeof key, "command %s", name);
        rc = bl_results_set_meta(r, key, x->command->command);
        bl_bench_result *b = rc ? NULL : bl_results_bench(r, full);
        if (!rc && !b)
            rc = -ENOMEM;
        /* one launch per run, as the Go format has one line per run: compare
         * and judge then see every run as a value */
        for (size_t k = 0; !rc && k < x->n_runs; k++) {
            const bl_exec_run *run = &x->runs[k];
            bl_launch *l = bl_results_add_launch(b);
            if (!l) {
                rc = -ENOMEM;
                break;
            }
            /* the batch is the raw run; the shell's start-up is its overhead,
             * so that per-op values come out as the corrected wall time */
            bl_sample s = {.stage = BL_STAGE_MEASURE,
                           .reps = 1,
                           .ns = run->raw_wall_ns,
                           .cpu_ns = -1,
                           .proc_cpu_ns = -1};
            rc = bl_launch_add_sample(l, &s);
            l->overhead_ns = run->raw_wall_ns - run->wall_ns;
            l->ns_per_op = run->wall_ns;
            l->raw_ns_per_op = run->raw_wall_ns;
            l->measured_reps = 1;
            l->n_measured = 1;
            l->exit_code = run->exit_code;
            l->term_signal = run->term_signal;
            l->wall_s = run->raw_wall_ns / 1e9;
            if (!rc)
                rc = bl_launch_set_metric(l, "user-ns/op", run->user_ns);
            if (!rc)
                rc = bl_launch_set_metric(l, "sys-ns/op", run->sys_ns);
            if (!rc && !run->peak_rss_is_bound) /* a bound is benchlab's own peak (exec.h) */
                rc = bl_launch_set_metric(l, "peak-RSS-bytes", (double)run->peak_rss_bytes);
        }
    }
    if (rc) {
        bl_results_destroy(r);
        return rc;
    }
    *out = r;
    return 0;
}
