/*
 * charts.c - the five charts of a benchmark's section, each a <figure>
 * with an inline SVG (svg.c primitives), a caption that says how to read
 * it, and a legend of the runs in their colours:
 *
 *   distribution  kernel density of the per-op times of the clean batches
 *   scaling       time per op (T/n) against repetitions per batch n: the
 *                 pilot's doubling-to-tenfold steps, then warmup and
 *                 measurement (seed 003, figure 2), with the clock's cost
 *                 per batch spread over n, which is why n must be large
 *   timeline      every measured batch in the order taken, discarded ones
 *                 marked, with a running median: drift shows
 *   compare       each run's median and interval against the baseline's
 *   history       the median and interval across runs, oldest first
 *
 * Markers are zero-length path segments with round caps: one <path> per
 * series instead of one element per point keeps a report with thousands
 * of batches small.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/changes.h"
#include "report_int.h"

#define W 520.0
#define H 260.0
#define KDE_POINTS 160
#define KDE_BINS 1024
#define RUNNING_WINDOW 9

static void fig_begin(FILE *f, const char *kind, const char *title, const char *hint)
{
    fprintf(f, "<figure class=\"fig %s\"><figcaption><b>%s</b>", kind, title);
    if (hint) {
        fputs(" <span class=\"hint\">", f);
        bl__html_text(f, hint);
        fputs("</span>", f);
    }
    fputs("</figcaption>", f);
}

/* A legend of the runs whose bit is set in `shown`. */
static void legend(FILE *f, const struct bl__rmodel *m, const unsigned char *shown)
{
    fputs("<div class=\"legend\">", f);
    for (size_t r = 0; r < m->n_runs; r++) {
        if (!shown[r])
            continue;
        fprintf(f, "<span><i style=\"background:%s\"></i>", bl__rcolor(r));
        bl__html_text(f, m->runs[r].label);
        if (m->n_runs > 1 && r == m->o->baseline)
            fputs(" (baseline)", f);
        fputs("</span>", f);
    }
    fputs("</div>", f);
}

static void fig_end(FILE *f, const char *note)
{
    if (note && note[0]) {
        fputs("<p class=\"fignote\">", f);
        bl__html_text(f, note);
        fputs("</p>", f);
    }
    fputs("</figure>", f);
}

static void point(FILE *f, double x, double y)
{
    fprintf(f, "M%.1f %.1fh0", x, y);
}

/* ---- distribution ------------------------------------------------------------------ */

/* Append "Bimodal batch times in r (mvalue 3.6): modes near 1.02 µs and
 * 2.05 µs. " to note. */
static void modes_note(char *note, size_t size, const char *label, const char *what,
                       const bl_modality *mo)
{
    size_t len = strlen(note);
    snprintf(note + len, size - len, "%s %s in %s (mvalue %.1f): modes near ",
             mo->n_peaks > 2 ? "Multimodal" : "Bimodal", what, label, mo->mvalue);
    for (size_t q = 0; q < mo->n_modes; q++) {
        char t[48];
        bl__rfmt_time(t, sizeof t, mo->modes[q]);
        len = strlen(note);
        snprintf(note + len, size - len, "%s%s",
                 q == 0                 ? ""
                 : q + 1 == mo->n_modes ? " and "
                                        : ", ",
                 t);
    }
    len = strlen(note);
    snprintf(note + len, size - len, ". ");
}

/* Silverman's rule of thumb, robust to outliers through the IQR. */
static double bandwidth(const bl_summary *s)
{
    double iqr = (s->q3 - s->q1) / 1.34;
    double spread = s->stddev > 0 && iqr > 0 ? fmin(s->stddev, iqr) : fmax(s->stddev, iqr);
    double bw = 0.9 * spread * pow((double)s->n, -0.2);
    if (!(bw > 0))
        bw = fabs(s->median) > 0 ? fabs(s->median) * 1e-3 : 1e-3;
    return bw;
}

/* Density of vals at KDE_POINTS positions over [x0, x1]. Large samples are
 * binned first (KDE_BINS bins), which changes nothing visible. */
static void kde(const double *vals, size_t n, double bw, double x0, double x1, double *dens)
{
    double *bins = NULL;
    double lo = x0, width = (x1 - x0) / KDE_BINS;
    if (n > 4 * KDE_BINS && width > 0)
        bins = calloc(KDE_BINS, sizeof *bins);
    if (bins)
        for (size_t i = 0; i < n; i++) {
            long k = (long)((vals[i] - lo) / width);
            bins[k < 0 ? 0 : k >= KDE_BINS ? KDE_BINS - 1 : k] += 1;
        }
    double norm = 1.0 / ((double)n * bw * sqrt(2 * M_PI));
    for (int g = 0; g < KDE_POINTS; g++) {
        double x = x0 + (x1 - x0) * g / (KDE_POINTS - 1), sum = 0;
        if (bins) {
            for (int k = 0; k < KDE_BINS; k++) {
                double z = (x - (lo + (k + 0.5) * width)) / bw;
                if (bins[k] > 0 && fabs(z) < 6)
                    sum += bins[k] * exp(-0.5 * z * z);
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                double z = (x - vals[i]) / bw;
                if (fabs(z) < 6)
                    sum += exp(-0.5 * z * z);
            }
        }
        dens[g] = sum * norm;
    }
    free(bins);
}

int bl__chart_distribution(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t n_total = 0;
    bool batches = false, disturbed = false;
    for (size_t r = 0; r < m->n_runs; r++) {
        const struct bl__rcell *c = &b->cells[r];
        if (!c->has_s)
            continue;
        double iqr = c->s.q3 - c->s.q1;
        lo = fmin(lo, iqr > 0 ? fmax(c->s.min, c->s.q1 - 3 * iqr) : c->s.min);
        hi = fmax(hi, iqr > 0 ? fmin(c->s.max, c->s.q3 + 3 * iqr) : c->s.max);
        n_total += c->n_vals;
        batches |= c->from_batches;
        disturbed |= c->vals_disturbed;
    }
    if (!n_total)
        return 0;
    fig_begin(f, "dist", "Distribution of time per op",
              disturbed ? "density of the clean batches' per-op times, or of all the disturbed "
                          "batches where every launch was disturbed (they include time off CPU: "
                          "an upper bound); dashed: median"
              : batches ? "density of the clean batches' per-op times; dashed: median"
                        : "density of the launches' results (the input has no batches); "
                          "dashed: median");
    struct bl__plot p;
    bl__plot_begin(&p, f, W, H, "distribution of time per op", 20, 14, 12, 38);
    bl__plot_xdomain(&p, lo, hi, false);
    double x0 = p.x.d0, x1 = p.x.d1;
    double(*dens)[KDE_POINTS] = calloc(m->n_runs, sizeof *dens);
    double top = 0;
    size_t beyond = 0;
    unsigned char *shown = calloc(m->n_runs, 1);
    for (size_t r = 0; dens && shown && r < m->n_runs; r++) {
        const struct bl__rcell *c = &b->cells[r];
        if (!c->has_s)
            continue;
        shown[r] = 1;
        for (size_t i = 0; i < c->n_vals; i++)
            beyond += c->vals[i] < x0 || c->vals[i] > x1;
        if (c->n_vals < 2)
            continue;
        kde(c->vals, c->n_vals, bandwidth(&c->s), x0, x1, dens[r]);
        for (int g = 0; g < KDE_POINTS; g++)
            top = fmax(top, dens[r][g]);
    }
    bl__plot_ydomain(&p, 0, top > 0 ? top : 1, false);
    p.y.d0 = 0;
    bl__plot_axes(&p, AX_TIME, AX_NONE, "time per op", NULL);
    for (size_t r = 0; dens && shown && r < m->n_runs; r++) {
        const struct bl__rcell *c = &b->cells[r];
        if (!shown[r])
            continue;
        const char *col = bl__rcolor(r);
        fprintf(f, "<g class=\"data\" data-run=\"%zu\">", r);
        if (c->n_vals >= 2 && top > 0) {
            fprintf(f, "<path class=\"area\" fill=\"%s\" stroke=\"%s\" d=\"M%.1f %.1f", col, col,
                    p.left, p.bottom);
            for (int g = 0; g < KDE_POINTS; g++)
                fprintf(f, "L%.1f %.1f", bl__plot_x(&p, x0 + (x1 - x0) * g / (KDE_POINTS - 1)),
                        bl__plot_y(&p, dens[r][g]));
            fprintf(f, "L%.1f %.1fZ\"/>", p.right, p.bottom);
        }
        if (c->n_vals <= 400) { /* a rug of the values themselves */
            fprintf(f, "<path class=\"rug\" stroke=\"%s\" d=\"", col);
            for (size_t i = 0; i < c->n_vals; i++)
                if (c->vals[i] >= x0 && c->vals[i] <= x1)
                    fprintf(f, "M%.1f %.1fv-7", bl__plot_x(&p, c->vals[i]), p.bottom);
            fputs("\"/>", f);
        }
        char med[48];
        bl__rfmt_time(med, sizeof med, c->s.median);
        double xm = bl__plot_x(&p, c->s.median);
        fprintf(f,
                "<line class=\"median\" stroke=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
                "y2=\"%.1f\"><title>",
                col, xm, xm, p.top, p.bottom);
        bl__html_text(f, m->runs[r].label);
        fprintf(f, ": median %s of %zu</title></line></g>", med, c->n_vals);
    }
    bl__plot_end(&p);
    if (shown)
        legend(f, m, shown);
    char note[1024] = "";
    if (beyond)
        snprintf(note, sizeof note, "%zu value%s beyond the axis (outliers) not drawn. ", beyond,
                 beyond == 1 ? "" : "s");
    for (size_t r = 0; r < m->n_runs; r++) {
        const bl_diagnosis *d = &b->cells[r].diag;
        if (d->batches_multimodal)
            modes_note(note, sizeof note, m->runs[r].label, "batch times", &d->batches);
        if (d->launches_multimodal)
            modes_note(note, sizeof note, m->runs[r].label, "launch centres", &d->launches);
    }
    fig_end(f, note);
    free(dens);
    free(shown);
    return 1;
}

/* ---- scaling (seed 003) -------------------------------------------------------------- */

int bl__chart_scaling(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b)
{
    double xmax = 1, ylo = INFINITY, yhi = -INFINITY;
    bool any = false;
    for (size_t r = 0; r < m->n_runs; r++) {
        const bl_bench_result *br = b->cells[r].b;
        for (size_t j = 0; br && j < br->n_launches; j++) {
            const bl_launch *l = &br->launches[j];
            if (l->status || l->skipped)
                continue;
            for (size_t k = 0; k < l->n_samples; k++) {
                const bl_sample *s = &l->samples[k];
                if (!s->reps || !strchr("pwm", s->stage) || !(s->ns > 0))
                    continue;
                double v = s->ns / (double)s->reps;
                xmax = fmax(xmax, (double)s->reps);
                if (l->clock_ns > 0) /* the clock's cost at n = 1 is in view */
                    ylo = fmin(ylo, l->clock_ns);
                ylo = fmin(ylo, v);
                yhi = fmax(yhi, v);
                any = true;
            }
        }
    }
    if (!any)
        return 0;
    fig_begin(f, "scaling", "Time per op against repetitions per batch",
              "the pilot (joined) grows the batch until the clock's cost (dotted: one clock "
              "read over n) is negligible; then warmup (faint) and measured batches (dots); "
              "dashed: the estimate before overhead subtraction");
    struct bl__plot p;
    bl__plot_begin(&p, f, W, H, "time per op against repetitions per batch", 62, 14, 12, 38);
    bl__plot_xdomain(&p, 1, xmax, true);
    bl__plot_ydomain(&p, ylo, yhi, true);
    bl__plot_axes(&p, AX_COUNT, AX_TIME, "repetitions per batch (n)", "T / n");
    unsigned char *shown = calloc(m->n_runs, 1);
    for (size_t r = 0; shown && r < m->n_runs; r++) {
        const bl_bench_result *br = b->cells[r].b;
        const char *col = bl__rcolor(r);
        double clock_ns = 0;
        fprintf(f, "<g class=\"data\" data-run=\"%zu\">", r);
        for (size_t j = 0; br && j < br->n_launches; j++) {
            const bl_launch *l = &br->launches[j];
            if (l->status || l->skipped || !l->n_samples)
                continue;
            shown[r] = 1;
            if (!clock_ns)
                clock_ns = l->clock_ns;
            for (int pass = 0; pass < 3; pass++) {
                const char stage = "pwm"[pass];
                const char *cls = pass == 0 ? "pilot" : pass == 1 ? "warm" : "pts";
                if (pass == 0) {
                    fprintf(f, "<path class=\"pilotline\" stroke=\"%s\" d=\"", col);
                    int first = 1;
                    for (size_t k = 0; k < l->n_samples; k++) {
                        const bl_sample *s = &l->samples[k];
                        if (s->stage != 'p' || !s->reps || !(s->ns > 0))
                            continue;
                        fprintf(f, "%c%.1f %.1f", first ? 'M' : 'L',
                                bl__plot_x(&p, (double)s->reps),
                                bl__plot_y(&p, s->ns / (double)s->reps));
                        first = 0;
                    }
                    fputs("\"/>", f);
                }
                fprintf(f, "<path class=\"%s\" stroke=\"%s\" d=\"", cls, col);
                for (size_t k = 0; k < l->n_samples; k++) {
                    const bl_sample *s = &l->samples[k];
                    if (s->stage != stage || !s->reps || !(s->ns > 0) ||
                        (stage == 'm' && s->invalid))
                        continue;
                    point(f, bl__plot_x(&p, (double)s->reps),
                          bl__plot_y(&p, s->ns / (double)s->reps));
                }
                fputs("\"/>", f);
            }
            if (!isnan(l->raw_ns_per_op) && j == 0) {
                double y = bl__plot_y(&p, l->raw_ns_per_op);
                char t[48];
                bl__rfmt_time(t, sizeof t, l->raw_ns_per_op);
                fprintf(f,
                        "<line class=\"median\" stroke=\"%s\" x1=\"%.1f\" x2=\"%.1f\" "
                        "y1=\"%.1f\" y2=\"%.1f\"><title>%s per op before overhead "
                        "subtraction</title></line>",
                        col, p.left, p.right, y, y, t);
            }
        }
        if (clock_ns > 0) { /* the clock's cost per batch, spread over n */
            fputs("<path class=\"clock\" d=\"", f);
            for (int k = 0; k <= 40; k++) {
                double n = pow(10, log10(p.x.d0) + (log10(p.x.d1) - log10(p.x.d0)) * k / 40);
                double y = clock_ns / n;
                if (y < p.y.d0)
                    break;
                fprintf(f, "%c%.1f %.1f", k ? 'L' : 'M', bl__plot_x(&p, n), bl__plot_y(&p, y));
            }
            fputs("\"/>", f);
        }
        fputs("</g>", f);
    }
    bl__plot_end(&p);
    if (shown)
        legend(f, m, shown);
    fig_end(f, NULL);
    free(shown);
    return 1;
}

/* ---- timeline ------------------------------------------------------------------------ */

int bl__chart_timeline(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b)
{
    size_t xmax = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t r = 0; r < m->n_runs; r++) {
        const struct bl__rcell *c = &b->cells[r];
        if (!c->from_batches || !c->has_s)
            continue;
        size_t n = 0;
        for (size_t j = 0; j < c->b->n_launches; j++) {
            const bl_launch *l = &c->b->launches[j];
            if (l->status || l->skipped)
                continue;
            for (size_t k = 0; k < l->n_samples; k++)
                n += l->samples[k].stage == BL_STAGE_MEASURE;
        }
        xmax = n > xmax ? n : xmax;
        double iqr = c->s.q3 - c->s.q1;
        lo = fmin(lo, c->s.min);
        hi = fmax(hi, iqr > 0 ? fmin(c->s.max, c->s.q3 + 4 * iqr) : c->s.max);
    }
    if (!xmax)
        return 0;
    fig_begin(f, "timeline", "Batches in the order measured",
              "dots: clean batches; crosses: discarded (disturbed), or, where every launch was "
              "disturbed, the measurement; line: running median of 9; triangles at the top: "
              "beyond the axis");
    struct bl__plot p;
    bl__plot_begin(&p, f, W, H, "per-op time of each batch in the order measured", 62, 14, 12, 38);
    bl__plot_xdomain(&p, 0, (double)(xmax > 1 ? xmax - 1 : 1), false);
    p.x.d0 = 0;
    bl__plot_ydomain(&p, lo, hi, false);
    bl__plot_axes(&p, AX_COUNT, AX_TIME, "batch", "time per op");
    unsigned char *shown = calloc(m->n_runs, 1);
    struct bl__rbuf {
        double v[RUNNING_WINDOW];
        int n;
    } win;
    char note[256] = "";
    for (size_t r = 0; shown && r < m->n_runs; r++) {
        const struct bl__rcell *c = &b->cells[r];
        if (!c->from_batches || !c->has_s)
            continue;
        shown[r] = 1;
        const char *col = bl__rcolor(r);
        fprintf(f, "<g class=\"data\" data-run=\"%zu\">", r);
        for (int pass = 0; pass < 4; pass++) {
            /* 0 clean dots, 1 discarded crosses, 2 clipped triangles, 3 running median */
            static const char *const cls[] = {"pts", "bad", "clip", "run"};
            fprintf(f, "<path class=\"%s\" stroke=\"%s\" d=\"", cls[pass],
                    pass == 1 ? "#c0392b" : col);
            size_t x = 0;
            int first = 1;
            win.n = 0;
            for (size_t j = 0; j < c->b->n_launches; j++) {
                const bl_launch *l = &c->b->launches[j];
                if (l->status || l->skipped)
                    continue;
                for (size_t k = 0; k < l->n_samples; k++) {
                    const bl_sample *s = &l->samples[k];
                    if (s->stage != BL_STAGE_MEASURE)
                        continue;
                    double v = bl__rbatch_per_op(l, s), px = bl__plot_x(&p, (double)x++);
                    if (isnan(v))
                        continue;
                    bool clipped = v > p.y.d1 || v < p.y.d0;
                    if (pass == 0 && !s->invalid && !clipped)
                        point(f, px, bl__plot_y(&p, v));
                    else if (pass == 1 && s->invalid && !clipped)
                        fprintf(f, "M%.1f %.1fl4 4m0 -4l-4 4", px - 2, bl__plot_y(&p, v) - 2);
                    else if (pass == 2 && clipped)
                        fprintf(f, "M%.1f %.1fl3 5h-6z", px, (v > p.y.d1 ? p.top : p.bottom - 5));
                    else if (pass == 3 && !s->invalid) {
                        if (win.n == RUNNING_WINDOW) {
                            memmove(win.v, win.v + 1, (RUNNING_WINDOW - 1) * sizeof *win.v);
                            win.n--;
                        }
                        win.v[win.n++] = v;
                        double sorted[RUNNING_WINDOW];
                        memcpy(sorted, win.v, (size_t)win.n * sizeof *sorted);
                        bl_stats_sort(sorted, (size_t)win.n);
                        double med = bl_stats_quantile_sorted(sorted, (size_t)win.n, 0.5);
                        fprintf(f, "%c%.1f %.1f", first ? 'M' : 'L', px, bl__plot_y(&p, med));
                        first = 0;
                    }
                }
            }
            fputs("\"/>", f);
        }
        /* launch boundaries */
        if (c->b->n_launches > 1) {
            fprintf(f, "<path class=\"launch\" stroke=\"%s\" d=\"", col);
            size_t x = 0;
            for (size_t j = 0; j < c->b->n_launches; j++) {
                const bl_launch *l = &c->b->launches[j];
                if (l->status || l->skipped)
                    continue;
                if (x)
                    fprintf(f, "M%.1f %.1fV%.1f", bl__plot_x(&p, (double)x - 0.5), p.top, p.bottom);
                for (size_t k = 0; k < l->n_samples; k++)
                    x += l->samples[k].stage == BL_STAGE_MEASURE;
            }
            fputs("\"/>", f);
        }
        fputs("</g>", f);
        if (c->drift) {
            size_t len = strlen(note);
            snprintf(note + len, sizeof note - len,
                     "%sDrift in %s: the last third of the "
                     "batches is %.1f%% %s than the first "
                     "(p = %.2g). ",
                     "", m->runs[r].label, fabs(c->drift_pct),
                     c->drift_pct > 0 ? "slower" : "faster", c->drift_p);
        }
    }
    bl__plot_end(&p);
    if (shown)
        legend(f, m, shown);
    fig_end(f, note);
    free(shown);
    return 1;
}

/* ---- comparison with the baseline -------------------------------------------------------- */

void bl__rfmt_change(char *out, size_t size, const struct bl__rdelta *d)
{
    if (!d->ok) {
        snprintf(out, size, "\xe2\x80\x93");
        return;
    }
    double pct = 100 * (d->ratio - 1);
    if (isnan(d->lo))
        snprintf(out, size, "%+.1f%%", pct);
    else
        snprintf(out, size, "%+.1f%% [%+.1f, %+.1f]", pct, 100 * (d->lo - 1), 100 * (d->hi - 1));
}

int bl__chart_compare(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b)
{
    if (m->n_runs < 2 || !b->cells[m->o->baseline].has_est)
        return 0;
    size_t rows = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t r = 0; r < m->n_runs; r++) {
        const struct bl__rcell *c = &b->cells[r];
        if (!c->has_est)
            continue;
        rows++;
        lo = fmin(lo, isnan(c->est.ci_lo) ? c->est.centre : c->est.ci_lo);
        hi = fmax(hi, isnan(c->est.ci_hi) ? c->est.centre : c->est.ci_hi);
    }
    if (rows < 2)
        return 0;
    fig_begin(f, "compare", "Against the baseline",
              "dot: the centre (median of the launches); bar: its interval; band: the "
              "baseline's interval; right: the change (Hodges-Lehmann ratio) with its interval");
    const double row_h = 34, h = 60 + row_h * (double)rows;
    struct bl__plot p;
    bl__plot_begin(&p, f, W, h, "medians and intervals against the baseline", 120, 150, 10, 38);
    bl__plot_xdomain(&p, lo, hi, false);
    p.y = (struct bl__scale){0, (double)rows, p.top, p.bottom, false};
    bl__plot_axes(&p, AX_TIME, AX_NONE, "time per op", NULL);
    const struct bl__rcell *base = &b->cells[m->o->baseline];
    fprintf(f, "<g class=\"data\">");
    if (!isnan(base->est.ci_lo)) {
        double x0 = bl__plot_x(&p, base->est.ci_lo), x1 = bl__plot_x(&p, base->est.ci_hi);
        fprintf(f,
                "<rect class=\"band\" fill=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                "height=\"%.1f\"/>",
                bl__rcolor(m->o->baseline), x0, p.top, fmax(x1 - x0, 1), p.bottom - p.top);
    }
    size_t row = 0;
    unsigned char *shown = calloc(m->n_runs, 1);
    for (size_t r = 0; shown && r < m->n_runs; r++) {
        const struct bl__rcell *c = &b->cells[r];
        if (!c->has_est)
            continue;
        shown[r] = 1;
        const char *col = bl__rcolor(r);
        double y = p.top + row_h * ((double)row++ + 0.5) + 4;
        double xm = bl__plot_x(&p, c->est.centre);
        fprintf(f, "<text class=\"rowlabel\" x=\"%.1f\" y=\"%.1f\">", p.left - 8, y + 4);
        char label[64];
        snprintf(label, sizeof label, "%s", m->runs[r].label);
        if (strlen(m->runs[r].label) > 18)
            snprintf(label, sizeof label, "%.16s\xe2\x80\xa6", m->runs[r].label);
        bl__html_text(f, label);
        fputs("</text>", f);
        if (!isnan(c->est.ci_lo)) {
            fprintf(f,
                    "<line class=\"ci\" stroke=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
                    "y2=\"%.1f\"/>",
                    col, bl__plot_x(&p, c->est.ci_lo),
                    fmax(bl__plot_x(&p, c->est.ci_hi), 1 + bl__plot_x(&p, c->est.ci_lo)), y, y);
        }
        char med[48], clo[48], chi[48];
        bl__rfmt_time(med, sizeof med, c->est.centre);
        bl__rfmt_time(clo, sizeof clo, c->est.ci_lo);
        bl__rfmt_time(chi, sizeof chi, c->est.ci_hi);
        fprintf(f, "<circle class=\"dot\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>", col,
                xm, y);
        bl__html_text(f, m->runs[r].label);
        fprintf(f, ": %s, interval [%s, %s]</title></circle>", med, clo, chi);
        const struct bl__rdelta *d = &b->deltas[r];
        char change[96];
        const char *cls = "base";
        if (r == m->o->baseline) {
            snprintf(change, sizeof change, "baseline");
        } else {
            bl__rfmt_change(change, sizeof change, d);
            cls = d->verdict < 0 ? "faster" : d->verdict > 0 ? "slower" : "same";
        }
        fprintf(f, "<text class=\"change %s\" x=\"%.1f\" y=\"%.1f\">", cls, p.right + 8, y + 4);
        bl__html_text(f, change);
        fputs("</text>", f);
    }
    fputs("</g>", f);
    bl__plot_end(&p);
    fig_end(f, NULL);
    free(shown);
    return 1;
}

/* ---- history --------------------------------------------------------------------------- */

/* Point i of the history: the earlier runs, then the report's runs. */
int bl__chart_history(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b)
{
    size_t n_hist = m->o->history ? m->o->history->n_runs : 0;
    size_t n_points = n_hist + m->n_runs, n_with = 0;
    double lo = INFINITY, hi = -INFINITY;
    struct bl__rhist pt;
    const char *label;
    for (size_t i = 0; i < n_points; i++) {
        if (!bl__rhistory_point(m, b, i, &pt, &label))
            continue;
        n_with++;
        lo = fmin(lo, isnan(pt.lo) ? pt.centre : pt.lo);
        hi = fmax(hi, isnan(pt.hi) ? pt.centre : pt.hi);
    }
    if (n_with < 3)
        return 0;
    fig_begin(f, "history", "History across runs",
              n_hist ? "centre and interval of each run, oldest first; grey: earlier runs from "
                       "the store; dashed: a change point"
                     : "centre and interval of each run, in the order given; dashed: a change "
                       "point");
    struct bl__plot p;
    bl__plot_begin(&p, f, W, H, "centre per run, oldest first", 62, 14, 12, 50);
    bl__plot_xdomain(&p, 0, (double)(n_points - 1), false);
    p.x.d0 = -0.5;
    p.x.d1 = (double)n_points - 0.5;
    bl__plot_ydomain(&p, lo, hi, false);
    bl__plot_axes(&p, AX_NONE, AX_TIME, NULL, "time per op");
    size_t every = (n_points + 7) / 8;
    fputs("<g class=\"tick x\">", f);
    for (size_t i = 0; i < n_points; i += every) {
        bl__rhistory_point(m, b, i, &pt, &label);
        char t[32];
        if (strlen(label) > 12)
            snprintf(t, sizeof t, "%.11s\xe2\x80\xa6", label);
        else
            snprintf(t, sizeof t, "%s", label);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", bl__plot_x(&p, (double)i), p.bottom + 14);
        bl__html_text(f, t);
        fputs("</text>", f);
    }
    fputs("</g><g class=\"data\"><path class=\"hline\" d=\"", f);
    int first = 1;
    for (size_t i = 0; i < n_points; i++) {
        if (!bl__rhistory_point(m, b, i, &pt, &label))
            continue;
        fprintf(f, "%c%.1f %.1f", first ? 'M' : 'L', bl__plot_x(&p, (double)i),
                bl__plot_y(&p, pt.centre));
        first = 0;
    }
    fputs("\"/>", f);
    /* the change points: a dashed line before the first run of the new
     * level, its change above it; outliers get a ring */
    for (size_t k = 0; k < b->n_changes; k++) {
        const struct bl__rchange *c = &b->changes[k];
        bl__rhistory_point(m, b, c->point, &pt, &label);
        double x = bl__plot_x(&p, (double)c->point - (c->kind == BL_CHANGE_STEP ? 0.5 : 0));
        if (c->kind == BL_CHANGE_STEP) {
            fprintf(f,
                    "<g class=\"change\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
                    "stroke=\"#c0392b\" stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%.1f\" "
                    "fill=\"#c0392b\">%+.1f%%</text><title>change point: ",
                    x, x, p.top, p.bottom, x + 3, p.top + 10, (c->ratio - 1) * 100);
            bl__html_text(f, label);
            fprintf(f, " starts a level %+.1f%% from the one before (p=%.2g)</title></g>",
                    (c->ratio - 1) * 100, c->p);
        } else {
            fprintf(f,
                    "<circle class=\"outlier\" fill=\"none\" stroke=\"#c0392b\" cx=\"%.1f\" "
                    "cy=\"%.1f\" r=\"7\"><title>outlier: ",
                    x, bl__plot_y(&p, pt.centre));
            bl__html_text(f, label);
            fprintf(f, " is %+.1f%% off its level</title></circle>", (c->ratio - 1) * 100);
        }
    }
    for (size_t i = 0; i < n_points; i++) {
        if (!bl__rhistory_point(m, b, i, &pt, &label))
            continue;
        const char *col = i < n_hist ? "#8a8f98" : bl__rcolor(i - n_hist);
        double x = bl__plot_x(&p, (double)i);
        if (!isnan(pt.lo) && !isnan(pt.hi))
            fprintf(f,
                    "<line class=\"whisker\" stroke=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
                    "y2=\"%.1f\"/>",
                    col, x, x, bl__plot_y(&p, pt.lo), bl__plot_y(&p, pt.hi));
        char med[48];
        bl__rfmt_time(med, sizeof med, pt.centre);
        fprintf(f, "<circle class=\"dot\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", col,
                x, bl__plot_y(&p, pt.centre));
        bl__html_text(f, label);
        fprintf(f, ": %s</title></circle>", med);
    }
    fputs("</g>", f);
    bl__plot_end(&p);
    fig_end(f, NULL);
    return 1;
}
