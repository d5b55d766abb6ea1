/*
 * table.c - the human summary of a run, written to stderr by the runner.
 *
 * Per benchmark (bl_bench_estimate): the centre over its launches, the
 * 95% interval of that centre (t over the launch centres, so the variance
 * between processes is in it), the number of launches and their spread
 * ((max - min) / median of the launch centres), clean/measured batches,
 * the loop overhead that was subtracted, and the throughput at the centre;
 * the on-CPU time per op beside the wall time (bl_launch_cpu_per_op) with
 * its own spread over the launches, measured as the time's.
 * Below the table, plain-word notes, one per benchmark and kind: disturbed
 * batches and why, failures, skips, drift within launches and modes in the
 * batch times or the launch centres (bl_bench_diagnose).
 *
 * Built in three steps: the rows as data (run_rows.c, shared with the
 * Markdown writer), the layout (which columns, the text of each cell,
 * widths), the print (the table, its footnotes, the notes).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/base.h"
#include "benchlab.h" /* enum bl_metric_flags */
#include "benchlab/format.h"
#include "benchlab/stats.h"
#include "run_rows.h"
#include "text.h"

void bl_format_duration(char *out, size_t size, double ns)
{
    if (isnan(ns)) {
        snprintf(out, size, "-");
        return;
    }
    static const struct {
        double scale;
        const char *unit;
    } u[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        if (fabs(ns) >= u[i].scale || i == 3) {
            double v = ns / u[i].scale;
            int prec = fabs(v) >= 100 ? 1 : fabs(v) >= 10 ? 2 : 3;
            snprintf(out, size, "%.*f %s", prec, v, u[i].unit);
            return;
        }
    }
}

/* Display width of a UTF-8 string (µ is one column), as bl__text_pad shows it. */
int bl__text_width(const char *s)
{
    struct bl__buf safe = {0};
    s = bl__terminal_safe(&safe, s);
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    bl__buf_fini(&safe);
    return w;
}

/* Every table cell (names, units, parameter values) comes through here:
 * control characters are shown (\x1b), never sent to the terminal. */
void bl__text_pad(FILE *f, const char *s, int w, int right)
{
    int n = w - bl__text_width(s);
    struct bl__buf safe = {0};
    if (right)
        for (int i = 0; i < n; i++)
            fputc(' ', f);
    fputs(bl__terminal_safe(&safe, s), f);
    if (!right)
        for (int i = 0; i < n; i++)
            fputc(' ', f);
    bl__buf_fini(&safe);
}

void bl_format_complexity(char *out, size_t size, const bl_complexity_result *c)
{
    if (!c->best.curve) {
        snprintf(out, size, "not fitted: %s", c->message ? c->message : "no fit");
        return;
    }
    static const char *const g[] = {"", "", "", "log n", "n", "n log n", "n^2", "n^3"};
    const char *curve = c->best.curve == BL_OUSER && c->user_name ? c->user_name
                        : c->best.curve == BL_OUSER               ? "f(n)"
                                                                  : g[c->best.curve];
    char coef[32];
    if (fabs(c->best.coefficient) >= 1.0)
        bl_format_duration(coef, sizeof coef, c->best.coefficient);
    else /* n^2 and n^3 coefficients are tiny: keep 4 significant digits, which
          * bl_format_duration does not below 1 ns (0.01612 came out as 0.016) */
        snprintf(coef, sizeof coef, "%.4g ns", c->best.coefficient);
    char name[160];
    if (c->best.curve == BL_OUSER)
        snprintf(name, sizeof name, "O(%s)", curve);
    else
        snprintf(name, sizeof name, "%s", bl_complexity_name(c->best.curve));
    snprintf(out, size, "%s in %s (%zu sizes, %.0f to %.0f): %s%s%s, RMS %.1f%%", name, c->param,
             c->n_points, c->n[0], c->n[c->n_points - 1], coef, *curve ? " x " : "", curve,
             100 * c->best.rms);
}

#define PLOT_CELLS 20

/*
 * "1.146 GiB/s", "45.60 M items/s", 4 significant digits. Bytes take
 * binary prefixes (KiB, MiB, GiB: powers of 1024), spelled so, as
 * benchstat's B/s (`1.146Gi`) and Google Benchmark do; counts take SI
 * prefixes (k, M, G: powers of 1000) and stand apart from the unit.
 */
static int one_rate(char *out, size_t size, double v, const char *unit)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P"};
    static const char *const bin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    bool bytes = unit[0] == 'B';
    double step = bytes ? 1024 : 1000;
    int p = 0;
    while (p < 5 && fabs(v) >= 999.95) {
        v /= step;
        p++;
    }
    int prec = fabs(v) >= 99.995 ? 1 : fabs(v) >= 9.9995 ? 2 : 3;
    const char *prefix = bytes ? bin[p] : si[p];
    return snprintf(out, size, "%.*f %s%s%s", prec, v, prefix, *prefix && !bytes ? " " : "", unit);
}

void bl_format_rate(char *out, size_t size, const bl_rates *r)
{
    const double v[3] = {r->mb_per_s * 1e6, r->items_per_s, r->ops_per_s};
    static const char *const unit[3] = {"B/s", "items/s", "ops/s"};
    size_t len = 0;
    snprintf(out, size, "-");
    for (int i = 0; i < 3; i++) {
        if (isnan(v[i]) || len + 2 >= size)
            continue;
        if (len)
            len += (size_t)snprintf(out + len, size - len, ", ");
        int n = len < size ? one_rate(out + len, size - len, v[i], unit[i]) : 0;
        len += n > 0 ? (size_t)n : 0;
    }
}

/* Unicode blocks U+2581..U+2588, lowest to highest. */
static const char *const spark_level[8] = {"\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83",
                                           "\xe2\x96\x84", "\xe2\x96\x85", "\xe2\x96\x86",
                                           "\xe2\x96\x87", "\xe2\x96\x88"};

int bl_format_sparkline(char *out, size_t size, const double *values, size_t n, int width,
                        double min_span)
{
    if (size)
        out[0] = '\0';
    if (!n || width <= 0 || size < 4)
        return 0;
    size_t cells = n < (size_t)width ? n : (size_t)width;
    if (cells * 3 + 1 > size)
        cells = (size - 1) / 3;
    if (cells > 256)
        cells = 256;
    double level[256], lo = INFINITY, hi = -INFINITY;
    for (size_t c = 0; c < cells; c++) {
        /* the median of the values that fall in this cell (64 of them at most) */
        size_t a = c * n / cells, b = (c + 1) * n / cells, step = (b - a + 63) / 64, k = 0;
        double tmp[64];
        for (size_t i = a; i < b && k < 64; i += step)
            if (!isnan(values[i]))
                tmp[k++] = values[i];
        level[c] = k ? bl_stats_median(tmp, k) : NAN;
        if (!isnan(level[c])) {
            lo = fmin(lo, level[c]);
            hi = fmax(hi, level[c]);
        }
    }
    if (hi - lo < min_span) {
        double mid = (lo + hi) / 2;
        lo = mid - min_span / 2;
        hi = mid + min_span / 2;
    }
    size_t len = 0;
    for (size_t c = 0; c < cells; c++) {
        const char *glyph = " ";
        if (!isnan(level[c])) {
            long k = hi > lo ? lround((level[c] - lo) / (hi - lo) * 7) : 3;
            glyph = spark_level[k < 0 ? 0 : k > 7 ? 7 : k];
        }
        size_t gl = strlen(glyph);
        memcpy(out + len, glyph, gl);
        len += gl;
    }
    out[len] = '\0';
    return (int)cells;
}

int bl_terminal_plots(int fd)
{
    const char *term = getenv("TERM"), *off = getenv("BENCHLAB_NO_PLOTS");
    return isatty(fd) && !(term && strcmp(term, "dumb") == 0) && !(off && *off);
}

int bl_terminal_colors(int fd)
{
    const char *term = getenv("TERM"), *off = getenv("NO_COLOR");
    return isatty(fd) && !(term && strcmp(term, "dumb") == 0) && !(off && *off);
}

/* The clean batches of every successful launch in the order measured, as a
 * sparkline: drift within a launch and steps between launches show. Its
 * heights span 5% of the centre at least. */
static void batch_sparkline(const bl_bench_result *b, double centre, char *out, size_t size)
{
    size_t total = 0, n = 0;
    for (size_t j = 0; j < b->n_launches; j++)
        total += b->launches[j].n_samples;
    double *all = malloc((total ? total : 1) * sizeof *all);
    for (size_t j = 0; all && j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        double *v;
        long k = l->status || l->skipped ? 0 : bl_launch_per_op(l, &v);
        for (long t = 0; t < k && n < total; t++)
            all[n++] = v[t];
        if (k >= 0 && !(l->status || l->skipped))
            free(v);
    }
    if (all)
        bl_format_sparkline(out, size, all, n, PLOT_CELLS, 0.05 * (centre > 0 ? centre : 0));
    free(all);
}

/* "bimodal batch times (mvalue 3.6): modes near 1.020 µs and 2.050 µs" */
static void modes_words(char *out, size_t size, const char *what, const bl_modality *m)
{
    int len = snprintf(out, size, "%s %s (mvalue %.1f): modes near ",
                       m->n_peaks > 2 ? "multimodal" : "bimodal", what, m->mvalue);
    for (size_t q = 0; q < m->n_modes && len > 0 && (size_t)len < size; q++) {
        char d[32];
        bl_format_duration(d, sizeof d, m->modes[q]);
        len += snprintf(out + len, size - (size_t)len, "%s%s",
                        q == 0                ? ""
                        : q + 1 == m->n_modes ? " and "
                                              : ", ",
                        d);
    }
}

int bl__disturbed_note(const bl_bench_result *b, char *buf, size_t size)
{
    size_t n = 0, batches = 0, by[BL_INVALID_NREASONS] = {0};
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status || l->skipped || !l->disturbed || isnan(l->ns_per_op))
            continue;
        n++;
        batches += l->n_measured;
        for (unsigned k = 0; k < BL_INVALID_NREASONS; k++)
            by[k] += l->invalid_by[k];
    }
    if (!n)
        return 0;
    char why[256] = "";
    size_t used = 0;
    for (unsigned k = 0; k < BL_INVALID_NREASONS && used < sizeof why; k++)
        if (by[k]) {
            int w = snprintf(why + used, sizeof why - used, "%s%s %zu", used ? ", " : "",
                             bl_invalid_name(k), by[k]);
            used += w > 0 ? (size_t)w : 0;
        }
    snprintf(buf, size,
             "disturbed: no clean batch in any launch, so the %zu disturbed batch%s of %zu "
             "launch%s (%s) are the measurement: time/op includes time off CPU (an upper "
             "bound), cpu/op is the time on CPU; a quieter machine or a longer --time gives "
             "a clean one",
             batches, batches == 1 ? "" : "es", n, n == 1 ? "" : "es", why);
    return 1;
}

int bl_format_diagnosis(const bl_diagnosis *d, char lines[3][BL_DIAGNOSIS_LINE])
{
    int n = 0;
    /* A p-value below 1e-6 says no more than "far beyond chance": the
     * U test's normal tail underflows toward 1e-300 on long launches, and
     * "p=1.8e-277" would claim a precision nothing here has. */
    if (d->drift && d->drift_p < 1e-6)
        snprintf(lines[n++], BL_DIAGNOSIS_LINE, "drift %+.1f%% within launches (p<1e-6)",
                 d->drift_pct);
    else if (d->drift)
        snprintf(lines[n++], BL_DIAGNOSIS_LINE, "drift %+.1f%% within launches (p=%.2g)",
                 d->drift_pct, d->drift_p);
    if (d->batches_multimodal)
        modes_words(lines[n++], BL_DIAGNOSIS_LINE, "batch times", &d->batches);
    if (d->launches_multimodal) {
        modes_words(lines[n], BL_DIAGNOSIS_LINE, "launch centres", &d->launches);
        size_t len = strlen(lines[n]);
        snprintf(lines[n++] + len, BL_DIAGNOSIS_LINE - len, ": each process lands in one");
    }
    return n;
}

/* Drift within launches and modes (bl_bench_diagnose), a note each. */
static void diagnosis_notes(FILE *f, const bl_bench_result *b, const char *yellow,
                            const char *reset)
{
    bl_diagnosis d;
    char lines[3][BL_DIAGNOSIS_LINE];
    int n = bl_bench_diagnose(b, &d) == 0 ? bl_format_diagnosis(&d, lines) : 0;
    struct bl__buf safe = {0};
    for (int k = 0; k < n; k++)
        fprintf(f, "%snote%s %s: %s\n", yellow, reset, bl__shown_bench(&safe, b->name, b->job),
                lines[k]);
    bl__buf_fini(&safe);
}

/* Columns; cpu/op, ref-cycles/op, throughput, B/op, allocs/op and metrics
 * only when some benchmark has them (cpu/op: whenever the on-CPU time was
 * measured, as Google Benchmark's CPU column), the sparkline only on a
 * terminal that shows it. */
enum {
    C_NAME,
    C_TIME,
    C_CPU,
    C_REF,
    C_CI,
    C_LAUNCHES,
    C_SPREAD,
    C_CPU_SPREAD,
    C_BATCHES,
    C_OVH,
    C_RATE,
    C_BYTES,
    C_ALLOCS,
    C_METRICS,
    C_PLOT
};
#define NCOL 15
#define CELL 160

static const char *const head[NCOL] = {"benchmark", "time/op",  "cpu/op",          "ref-cycles/op",
                                       "95% CI",    "launches", "spread",          "cpu spread",
                                       "batches",   "overhead", "throughput",      "B/op",
                                       "allocs/op", "metrics",  "batches in order"};

/* The text of one row, cell by cell. */
struct cells {
    char cell[NCOL][CELL];
};

/* How the table is laid out: which columns, their widths, the text of each
 * row with an estimate, and which footnotes are due. */
struct layout {
    bool show[NCOL];
    int w[NCOL];
    int last;            /* the last column shown: not padded */
    struct cells *cells; /* one per benchmark with an estimate, in order */
    size_t n_cells;
    bool one_launch;    /* some interval comes from the batches of one process */
    bool directed;      /* some metric shows its better direction */
    bool metric_spread; /* some metric shows its spread */
    bool spread_ns;     /* some spread is in ns, not over the median */
};

/* Colours of the text around the table (all "" without BL_TABLE_COLOR). */
struct palette {
    const char *bold, *yellow, *red, *reset;
};

/*
 * The user metrics of a benchmark (bl_report_metric), each the median over
 * its successful launches, in the order first reported, with the better
 * direction declared and, from two launches on, its spread over them as
 * the time's spread column has it ((max - min) / median):
 * "3.25 ratio↑ (1.2%), 10.00 misses/op↓ (0.00%), 7.000 plain/op (0.00%)".
 * Sets *directed when some metric has a direction and *spread when some
 * has a spread (the legend is then due).
 */
static void metrics_cell(const struct bl__run_row *row, char *out, size_t size, bool *directed,
                         bool *spread)
{
    size_t len = 0;
    snprintf(out, size, "-");
    for (size_t i = 0; i < row->n_metrics; i++) {
        const struct bl__metric_summary *m = &row->metrics[i];
        char num[48];
        size_t ul = strlen(m->unit);
        bool rate = ul > 2 && strcmp(m->unit + ul - 2, "/s") == 0;
        if (!m->n)
            snprintf(num, sizeof num, "-");
        else if (rate) /* "416.4 M hits/s", as the throughput column */
            one_rate(num, sizeof num, m->median, m->unit);
        else
            bl_gobench_format_value(num, sizeof num, m->median);
        /* both directions declared is refused elsewhere: show neither */
        const char *dir = (m->flags & BL_HIGHER_IS_BETTER) && !(m->flags & BL_LOWER_IS_BETTER)
                              ? "\xe2\x86\x91" /* up arrow */
                          : (m->flags & BL_LOWER_IS_BETTER) && !(m->flags & BL_HIGHER_IS_BETTER)
                              ? "\xe2\x86\x93" /* down arrow */
                              : "";
        *directed |= *dir != 0;
        char pct[24] = "";
        if (m->n > 1 && !isnan(m->spread)) {
            pct[0] = ' ';
            pct[1] = '(';
            bl__run_rows_percent(pct + 2, sizeof pct - 3, m->spread);
            strcat(pct, ")");
        }
        int w = snprintf(out + len, size - len, "%s%s%s%s%s%s", len ? ", " : "", num,
                         rate && m->n ? "" : " ", rate && m->n ? "" : m->unit, dir, pct);
        if (w < 0 || (size_t)w >= size - len) {
            /* no room for this one: say that more exist rather than cut a unit */
            if (len + 5 < size)
                snprintf(out + len, size - len, ", ...");
            else
                out[len] = '\0';
            return;
        }
        *spread |= *pct != 0;
        len += (size_t)w;
    }
}

/* The text of the cells of one row with an estimate. */
static void format_cells(struct layout *lo, const struct bl__run_row *row, struct cells *c,
                         struct bl__buf *safe)
{
    const bl_estimate *e = &row->e;
    const bl_bench_result *b = row->bench;
    snprintf(c->cell[C_NAME], CELL, "%s", bl__shown_bench(safe, b->name, b->job));
    bl_format_duration(c->cell[C_TIME], CELL, e->centre);
    bl_format_duration(c->cell[C_CPU], CELL, e->cpu_ns); /* NAN: "-" */
    if (e->ci_method != BL_CI_NONE) {
        char low[32], high[32];
        bl_format_duration(low, sizeof low, e->ci_lo);
        bl_format_duration(high, sizeof high, e->ci_hi);
        snprintf(c->cell[C_CI], CELL, "[%s, %s]%s", low, high,
                 e->ci_method == BL_CI_BATCHES ? "*" : "");
        lo->one_launch |= e->ci_method == BL_CI_BATCHES;
    } else {
        snprintf(c->cell[C_CI], CELL, "(too few batches)");
    }
    snprintf(c->cell[C_LAUNCHES], CELL, "%zu", e->n_launches);
    /* the spreads, time's and on-CPU time's ("-" for an idle body; in ns
     * below half a cycle) */
    lo->spread_ns |= bl__run_rows_spreads(row, c->cell[C_SPREAD], c->cell[C_CPU_SPREAD], CELL);
    snprintf(c->cell[C_BATCHES], CELL, "%zu/%zu", e->n_batches, e->n_measured);
    bl_format_duration(c->cell[C_OVH], CELL, e->overhead_ns);
    /* reference cycles: the launches' values, centred as the time is */
    snprintf(c->cell[C_REF], CELL, "-");
    if (!isnan(e->ref_cycles))
        bl_gobench_format_value(c->cell[C_REF], CELL, e->ref_cycles);
    bl_format_rate(c->cell[C_RATE], CELL, &row->rates);
    if (b->has_alloc) {
        snprintf(c->cell[C_BYTES], CELL, "%.0f", b->alloc_bytes_per_op);
        snprintf(c->cell[C_ALLOCS], CELL, "%.0f", b->allocs_per_op);
    } else {
        snprintf(c->cell[C_BYTES], CELL, "-");
        snprintf(c->cell[C_ALLOCS], CELL, "-");
    }
    if (lo->show[C_METRICS])
        metrics_cell(row, c->cell[C_METRICS], CELL, &lo->directed, &lo->metric_spread);
    if (lo->show[C_PLOT])
        batch_sparkline(b, e->centre, c->cell[C_PLOT], CELL);
}

/* Choose the columns, write the cells and measure them. 0 or -ENOMEM. */
static int table_layout(struct layout *lo, const struct bl__run_rows *rows, unsigned flags)
{
    memset(lo, 0, sizeof *lo);
    static const bool always[NCOL] = {
        [C_NAME] = true,   [C_TIME] = true,    [C_CI] = true, [C_LAUNCHES] = true,
        [C_SPREAD] = true, [C_BATCHES] = true, [C_OVH] = true};
    memcpy(lo->show, always, sizeof lo->show);
    lo->show[C_CPU] = lo->show[C_CPU_SPREAD] = rows->any_cpu;
    lo->show[C_REF] = rows->any_ref;
    lo->show[C_RATE] = rows->any_rate;
    lo->show[C_BYTES] = lo->show[C_ALLOCS] = rows->any_alloc;
    lo->show[C_METRICS] = rows->any_metrics;
    lo->show[C_PLOT] = (flags & BL_TABLE_PLOTS) != 0;
    for (int c = 0; c < NCOL; c++)
        if (lo->show[c])
            lo->last = c;
    for (int c = 0; c < NCOL; c++)
        lo->w[c] = bl__text_width(head[c]);
    lo->cells = calloc(rows->n_rows + 1, sizeof *lo->cells);
    if (!lo->cells)
        return -ENOMEM;
    struct bl__buf safe = {0};
    for (size_t i = 0; i < rows->n_rows; i++) {
        if (!rows->rows[i].have)
            continue;
        struct cells *c = &lo->cells[lo->n_cells++];
        format_cells(lo, &rows->rows[i], c, &safe);
        for (int k = 0; k < NCOL; k++)
            if (bl__text_width(c->cell[k]) > lo->w[k])
                lo->w[k] = bl__text_width(c->cell[k]);
    }
    bl__buf_fini(&safe);
    return 0;
}

/* One line of the table: the cells shown, padded to their widths (the
 * last one not), numbers to the right. */
static void print_line(FILE *f, const struct layout *lo, const char *const text[NCOL], int is_head)
{
    for (int c = 0; c < NCOL; c++) {
        if (!lo->show[c])
            continue;
        /* the last cell is not padded, nor is a heading of metrics there */
        int w = c == lo->last && !(is_head && c != C_METRICS) ? 0 : lo->w[c];
        bl__text_pad(f, text[c], w, c > 0 && c != C_CI && c != C_METRICS);
        fputs(c < lo->last ? "  " : "\n", f);
    }
}

/* The table and its footnotes. */
static void table_print(FILE *f, const struct layout *lo, const struct palette *p)
{
    if (!lo->n_cells)
        return;
    fputs(p->bold, f);
    print_line(f, lo, head, 1);
    fputs(p->reset, f);
    for (size_t i = 0; i < lo->n_cells; i++) {
        const char *text[NCOL];
        for (int c = 0; c < NCOL; c++)
            text[c] = lo->cells[i].cell[c];
        print_line(f, lo, text, 0);
    }
    if (lo->one_launch)
        fprintf(f, "* one launch: the interval comes from the batches of one process and "
                   "leaves out the variance between processes (--count 2 or more)\n");
    if (lo->spread_ns)
        fprintf(f, "spread in ns: the launches' median is below half a core cycle, what "
                   "subtracting the loop resolves, so their range (max - min) rather than a "
                   "share of that median\n");
    if (lo->directed || lo->metric_spread)
        fprintf(f, "metrics: median over launches%s%s\n",
                lo->metric_spread ? " (in parentheses their spread, as time/op's)" : "",
                lo->directed ? "; \xe2\x86\x91 higher is better, \xe2\x86\x93 lower is better"
                             : "");
}

/* Macrobenchmarks (one invocation per batch): the whole distribution. */
static void write_invocations(FILE *f, const bl_bench_result *b, struct bl__buf *sn)
{
    size_t n = 0, single = 1;
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status || l->skipped)
            continue;
        for (size_t k = 0; k < l->n_samples; k++)
            if (l->samples[k].stage == BL_STAGE_MEASURE && !l->samples[k].invalid) {
                single &= l->samples[k].reps == 1;
                n++;
            }
    }
    if (!n || !single)
        return;
    double *v = malloc(n * sizeof *v);
    size_t m = 0;
    for (size_t j = 0; v && j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status || l->skipped)
            continue;
        double *x;
        long k = bl_launch_per_op(l, &x);
        for (long t = 0; t < k && m < n; t++)
            v[m++] = x[t];
        if (k >= 0)
            free(x);
    }
    if (v && m) {
        bl_stats_sort(v, m);
        static const double ps[] = {0, 0.1, 0.5, 0.9, 0.99, 1};
        static const char *const pn[] = {"min", "p10", "median", "p90", "p99", "max"};
        fprintf(f, "%s: per invocation (n=%zu):", bl__shown_bench(sn, b->name, b->job), m);
        for (int q = 0; q < 6; q++) {
            char d[32];
            bl_format_duration(d, sizeof d, bl_stats_quantile_sorted(v, m, ps[q]));
            fprintf(f, "  %s %s", pn[q], d);
        }
        fputc('\n', f);
    }
    free(v);
}

/* Complexity fits (bl_results_fit_complexity). */
static void write_complexity(FILE *f, const bl_results *r, const struct palette *p,
                             struct bl__buf *sn, struct bl__buf *sm)
{
    if (r->n_complexity)
        fprintf(f, "%sComplexity of time/op in the size (least squares, normalised RMS):%s\n",
                p->bold, p->reset);
    for (size_t i = 0; i < r->n_complexity; i++) {
        const bl_complexity_result *c = &r->complexity[i];
        char what[512];
        bl_format_complexity(what, sizeof what, c);
        fprintf(f, "  %s: %s\n", bl__terminal_safe(sn, bl__shown_name(c->name)),
                bl__terminal_safe(sm, what));
        if (c->message && c->best.curve)
            fprintf(f, "%snote%s %s: %s\n", p->yellow, p->reset, sn->data,
                    bl__terminal_safe(sm, c->message));
    }
}

/* A failed or skipped launch, its message said once with the number of
 * launches that said it. */
static void write_failure(FILE *f, const bl_bench_result *b, size_t j, bool good,
                          const struct palette *p, struct bl__buf *sn, struct bl__buf *sm)
{
    const bl_launch *l = &b->launches[j];
    /* a message said by several launches is said once, with the count */
    const char *msg = l->message ? l->message : bl_strerror(l->status);
    size_t same = 0, first = j;
    for (size_t k = 0; k < b->n_launches; k++) {
        const bl_launch *o = &b->launches[k];
        const char *om = o->message ? o->message : bl_strerror(o->status);
        if ((o->status || o->skipped) && o->skipped == l->skipped && o->disturbed == l->disturbed &&
            strcmp(om, msg) == 0) {
            if (!same)
                first = k;
            same++;
        }
    }
    if (first != j)
        return;
    const char *name = bl__shown_bench(sn, b->name, b->job);
    msg = bl__terminal_safe(sm, msg);
    if (l->skipped)
        fprintf(f, "SKIP %s: %s", name, msg);
    else if (l->disturbed && good)
        fprintf(f, "%snote%s %s: launch discarded: %s", p->yellow, p->reset, name, msg);
    else
        fprintf(f, "%sFAIL%s %s: %s", p->red, p->reset, name, msg);
    if (same > 1)
        fprintf(f, " (%zu of %zu launches)", same, b->n_launches);
    fputc('\n', f);
}

/* "a, b" of the reasons set in `bits` (with their counts when `by`). */
static void write_reasons(FILE *f, unsigned bits, const size_t *by)
{
    int first = 1;
    for (unsigned k = 0; k < BL_INVALID_NREASONS; k++) {
        if (!(bits & (1u << k)))
            continue;
        fprintf(f, "%s%s", first ? "" : ", ", bl_invalid_name(k));
        if (by)
            fprintf(f, " %zu", by[k]);
        first = 0;
    }
}

/* Notes in plain words about one benchmark, one per kind. */
static void write_bench_notes(FILE *f, const struct bl__run_row *row, const struct palette *p,
                              struct bl__buf *sn, struct bl__buf *sm)
{
    const bl_bench_result *b = row->bench;
    unsigned intrinsic = 0, disturbed = 0;
    size_t invalid = 0, measured = 0, by[BL_INVALID_NREASONS] = {0}, ok = 0;
    bool good = false; /* some launch gave a value */
    for (size_t j = 0; j < b->n_launches; j++)
        good |= !b->launches[j].status && !b->launches[j].skipped;
    for (size_t j = 0; j < b->n_launches; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status || l->skipped) {
            write_failure(f, b, j, good, p, sn, sm);
            continue;
        }
        ok++;
        intrinsic |= l->intrinsic;
        invalid += l->n_invalid;
        measured += l->n_measured;
        for (unsigned k = 0; k < BL_INVALID_NREASONS; k++) {
            by[k] += l->invalid_by[k];
            disturbed |= by[k] ? 1u << k : 0;
        }
    }
    const char *name = bl__shown_bench(sn, b->name, b->job);
    if (intrinsic) {
        fprintf(f, "note %s: most batches show ", name);
        write_reasons(f, intrinsic, NULL);
        fprintf(f, ": taken as part of the benchmark, not used to discard batches\n");
    }
    char clock_note[200];
    if (row->have && bl__run_rows_cpu_clock_note(clock_note, sizeof clock_note, b))
        fprintf(f, "note %s: %s\n", name, clock_note);
    if (ok && invalid * 20 > measured && invalid < measured) {
        fprintf(f, "%snote%s %s: %zu of %zu batches discarded as disturbed (", p->yellow, p->reset,
                name, invalid, measured);
        write_reasons(f, disturbed, by);
        fprintf(f, ")\n");
    }
    char dn[640];
    bool kept_disturbed = bl__disturbed_note(b, dn, sizeof dn) != 0;
    if (kept_disturbed)
        fprintf(f, "%snote%s %s: %s\n", p->yellow, p->reset, name, bl__terminal_safe(sm, dn));
    /* launches are the unit: a few clean batches per launch are enough,
     * fewer than 10 in all are not */
    else if (ok && measured - invalid < 10)
        fprintf(f, "%snote%s %s: only %zu clean batches in all, treat this result with care\n",
                p->yellow, p->reset, name, measured - invalid);
    if (ok && row->idle)
        fprintf(f,
                "%snote%s %s: the body did no measurable work (less than half a cycle per "
                "op beyond the empty loop): the compiler may have removed it; pass its "
                "result to bl_do_not_optimize() (bl_escape() for memory it writes)\n",
                p->yellow, p->reset, name);
    if (ok)
        diagnosis_notes(f, b, p->yellow, p->reset);
}

/*
 * rows -> layout -> print: the rows are the run's data (run_rows.c, which
 * the Markdown writer reads too), the layout chooses columns and widths,
 * and the print writes the table, its footnotes and the notes below it.
 */
void bl_table_write(FILE *f, const bl_results *r, unsigned flags)
{
    const bool color = (flags & BL_TABLE_COLOR) != 0;
    const struct palette p = {color ? "\033[1m" : "", color ? "\033[33m" : "",
                              color ? "\033[31m" : "", color ? "\033[0m" : ""};
    struct bl__run_rows rows;
    struct layout lo;
    if (bl__run_rows_build(&rows, r) != 0)
        return;
    if (table_layout(&lo, &rows, flags) != 0) {
        bl__run_rows_fini(&rows);
        return;
    }
    table_print(f, &lo, &p);
    /* names and messages come from benchmarks: shown, never sent to the terminal */
    struct bl__buf sn = {0}, sm = {0};
    for (size_t i = 0; i < r->n_benches; i++)
        write_invocations(f, &r->benches[i], &sn);
    write_complexity(f, r, &p, &sn, &sm);
    const char *clash = bl_results_get_meta(r, "unit-conflicts");
    if (clash)
        fprintf(f, "%snote%s better= of a unit declared two ways, the first declaration kept: %s\n",
                p.yellow, p.reset, bl__terminal_safe(&sm, clash));
    for (size_t i = 0; i < rows.n_rows; i++)
        write_bench_notes(f, &rows.rows[i], &p, &sn, &sm);
    bl__jobs_table_write(f, r);
    free(lo.cells);
    bl__run_rows_fini(&rows);
    bl__buf_fini(&sn);
    bl__buf_fini(&sm);
}
