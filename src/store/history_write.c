/*
 * history_write.c - a history as `benchlab history` shows it
 * (bl_store_history_write): the runs' table, then per benchmark its
 * centre in each of the newest runs that fit, a sparkline of all of them
 * and the change from the first to the last. Stored names, tags and hosts
 * are made safe for a terminal here, never sent to it raw.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "benchlab/format.h"
#include "benchlab/judge.h"
#include "benchlab/output.h"
#include "store_int.h"

/* "2026-12-04 13:47" of an ISO 8601 time, as the other store listings show it. */
static void short_date(char *out, size_t size, const char *iso)
{
    if (!iso || strlen(iso) < 16)
        snprintf(out, size, "%s", iso ? iso : "-");
    else
        snprintf(out, size, "%.10s %.5s", iso, iso + 11);
}

/* "3f7ec28" or "3f7ec28+" (uncommitted changes), "-" outside git. */
static void short_commit(char *out, size_t size, const bl_store_run *r)
{
    if (!r->commit)
        snprintf(out, size, "-");
    else
        snprintf(out, size, "%.7s%s", r->commit, r->dirty == 1 ? "+" : "");
}

static int width(const char *s)
{
    char safe[640];
    s = bl_terminal_text(safe, sizeof safe, s); /* as pad(f, ) prints it */
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(FILE *f, const char *s, int w, int right)
{
    char safe[640]; /* stored names and tags are shown, never sent to the terminal */
    s = bl_terminal_text(safe, sizeof safe, s);
    int n = w - width(s);
    if (right && n > 0)
        fprintf(f, "%*s", n, "");
    fputs(s, f);
    if (!right && n > 0)
        fprintf(f, "%*s", n, "");
}

/* The series' centres as ▁..█ scaled from their minimum to their maximum;
 * a space where the run lacks the benchmark. */
static void sparkline(char *out, size_t size, const bl_store_series *se, size_t first_run,
                      size_t n_runs)
{
    static const char *const bars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < se->n_points; i++) {
        double c = se->points[i].centre;
        if (se->points[i].run >= first_run && !isnan(c)) {
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
    }
    size_t pos = 0, k = 0;
    out[0] = '\0';
    for (size_t r = first_run; r < first_run + n_runs && pos + 4 < size; r++) {
        while (k < se->n_points && se->points[k].run < r)
            k++;
        const char *ch = " ";
        if (k < se->n_points && se->points[k].run == r && !isnan(se->points[k].centre)) {
            double c = se->points[k].centre;
            int level = hi > lo ? (int)((c - lo) / (hi - lo) * 7.0 + 0.5) : 3;
            ch = bars[level < 0 ? 0 : level > 7 ? 7 : level];
        }
        pos += (size_t)snprintf(out + pos, size - pos, "%s", ch);
    }
}

static const bl_store_point *point_at(const bl_store_series *se, size_t run)
{
    for (size_t i = 0; i < se->n_points; i++)
        if (se->points[i].run == run)
            return &se->points[i];
    return NULL;
}

/* The table of runs: id, date, commit, branch, host, tag (and uid). */
static void print_runs(FILE *f, const bl_store_history *h)
{
    static const char *const rhead[] = {"run", "date", "commit", "branch", "host", "tag"};
    int rw[6];
    for (int k = 0; k < 6; k++)
        rw[k] = width(rhead[k]);
    char cells[6][160];
    for (int pass = 0; pass < 2; pass++) { /* widths, then print */
        if (pass) {
            for (int k = 0; k < 6; k++) {
                pad(f, rhead[k], k == 5 ? 0 : rw[k], k == 0);
                fputs(k == 5 ? "\n" : "  ", f);
            }
        }
        for (size_t i = 0; i < h->n_runs; i++) {
            const bl_store_run *r = &h->runs[i];
            snprintf(cells[0], sizeof cells[0], "%lld", (long long)r->id);
            short_date(cells[1], sizeof cells[1], r->measured_at ? r->measured_at : r->saved_at);
            short_commit(cells[2], sizeof cells[2], r);
            snprintf(cells[3], sizeof cells[3], "%s", r->branch ? r->branch : "-");
            snprintf(cells[4], sizeof cells[4], "%s", r->host ? r->host : "-");
            snprintf(cells[5], sizeof cells[5], "%s%s%s", r->tag ? r->tag : "",
                     r->uid ? (r->tag ? " " : "") : "", r->uid ? r->uid : "");
            for (int k = 0; k < 6; k++) {
                if (!pass) {
                    if (width(cells[k]) > rw[k])
                        rw[k] = width(cells[k]);
                    continue;
                }
                pad(f, cells[k], k == 5 ? 0 : rw[k], k == 0);
                fputs(k == 5 ? "\n" : "  ", f);
            }
        }
    }
}

/* A series' change from the first run that has it to the last, as the
 * table's last column: "+12.5%", or "-" with fewer than two values. */
static void print_change(FILE *f, const bl_store_series *se)
{
    const bl_store_point *a = NULL, *b = NULL;
    for (size_t k = 0; k < se->n_points; k++) {
        if (isnan(se->points[k].centre))
            continue;
        if (!a)
            a = &se->points[k];
        b = &se->points[k];
    }
    if (a && b && a != b && a->centre > 0)
        fprintf(f, "  %+7.1f%%\n", (b->centre / a->centre - 1) * 100);
    else
        fprintf(f, "  %8s\n", "-");
}

/* The table of benchmarks: as many run columns as fit (on a terminal), the
 * newest, then the trend when show_spark, then the change. */
static void print_series(FILE *f, const bl_store_history *h, int columns, int show_spark,
                         int metric)
{
    int name_w = (int)strlen("benchmark");
    for (size_t i = 0; i < h->n_series; i++) {
        const char *n = h->series[i].name;
        n += strncmp(n, "Benchmark", 9) == 0 ? 9 : 0;
        if (width(n) > name_w)
            name_w = width(n);
    }
    const int col_w = 11;
    int avail =
        (columns > 0 ? columns : 1 << 20) - name_w - 2 - 10 - (show_spark ? (int)h->n_runs + 2 : 0);
    size_t n_cols = avail > col_w ? (size_t)(avail / col_w) : 1;
    if (n_cols > h->n_runs)
        n_cols = h->n_runs;
    size_t first = h->n_runs - n_cols;
    pad(f, "benchmark", name_w, 0);
    for (size_t r = first; r < h->n_runs; r++) {
        char head[32];
        snprintf(head, sizeof head, "#%lld", (long long)h->runs[r].id);
        fputs("  ", f);
        pad(f, head, col_w - 2, 1);
    }
    if (show_spark) {
        fputs("  ", f);
        pad(f, "trend", (int)h->n_runs, 0);
    }
    fprintf(f, "  %8s\n", "change");
    for (size_t i = 0; i < h->n_series; i++) {
        const bl_store_series *se = &h->series[i];
        const char *n = se->name + (strncmp(se->name, "Benchmark", 9) == 0 ? 9 : 0);
        pad(f, n, name_w, 0);
        for (size_t r = first; r < h->n_runs; r++) {
            const bl_store_point *p = point_at(se, r);
            char v[32];
            if (metric == BL_JUDGE_TIME || !p || isnan(p->centre))
                bl_format_duration(v, sizeof v, p ? p->centre : NAN);
            else
                snprintf(v, sizeof v, "%.4g", p->centre);
            fputs("  ", f);
            pad(f, v, col_w - 2, 1);
        }
        if (show_spark) {
            char line[256];
            sparkline(line, sizeof line, se, 0, h->n_runs);
            fputs("  ", f);
            pad(f, line, (int)h->n_runs, 0);
        }
        print_change(f, se);
    }
}

int bl_store_history_write(FILE *f, const bl_store_history *h, const bl_store_history_options *q,
                           const char *store, int columns, int sparkline)
{
    const char *filter = q ? q->filter : NULL, *branch = q ? q->branch : NULL;
    fprintf(f, "store %s: %zu run%s%s%s%s\n\n", store ? store : "-", h->n_runs,
            h->n_runs == 1 ? "" : "s", filter ? " with matching benchmarks" : "",
            branch ? " on branch " : "", branch ? branch : "");
    if (!h->n_runs) {
        fprintf(f, "nothing saved yet: save runs with --save (benchlab run SUITE --save)\n");
    } else {
        print_runs(f, h);
        fputc('\n', f);
        print_series(f, h, columns, sparkline, q ? q->metric : 0);
    }
    return ferror(f) ? -EIO : 0;
}
