/*
 * svg.c - the drawing primitives of the report: escaped text, scales, nice
 * ticks, a plot frame with grid, tick labels and axis titles. Charts
 * (charts.c) draw their data inside the frame. Everything is written as
 * inline SVG with classes that the page's stylesheet (html.c) styles, so
 * that a chart is small and looks the same as the text around it.
 *
 * Written here rather than with a plotting library: the output is a few
 * primitives (lines, paths, text), and generating them in C keeps the
 * report one self-contained file that unit tests can read.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

void bl__html_text(FILE *f, const char *s)
{
    for (const char *p = s ? s : ""; *p; p++) {
        switch (*p) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            /* control characters other than tab and newline are not allowed in HTML text */
            if ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n')
                fputs("\xef\xbf\xbd", f);
            else
                fputc(*p, f);
        }
    }
}

static const struct {
    double scale;
    const char *unit;
} time_units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "\xc2\xb5s"}, {1, "ns"}};

void bl__rfmt_time(char *out, size_t size, double ns)
{
    if (isnan(ns)) {
        snprintf(out, size, "\xe2\x80\x93");
        return;
    }
    for (size_t i = 0; i < 4; i++) {
        if (fabs(ns) >= time_units[i].scale || i == 3) {
            double v = ns / time_units[i].scale;
            int prec = fabs(v) >= 100 ? 1 : fabs(v) >= 10 ? 2 : 3;
            if (v == 0)
                prec = 0;
            snprintf(out, size, "%.*f %s", prec, v, time_units[i].unit);
            return;
        }
    }
}

const char *bl__rcolor(size_t i)
{
    /* Tableau 10: distinct for the colour-blind in the first few, print well */
    static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1",
                                          "#76b7b2", "#edc948", "#ff9da7", "#9c755f"};
    return palette[i % (sizeof palette / sizeof *palette)];
}

static double scale_at(const struct bl__scale *s, double v)
{
    double t;
    if (s->log) {
        double a = log10(s->d0), b = log10(s->d1);
        t = b > a ? (log10(v > 0 ? v : s->d0) - a) / (b - a) : 0.5;
    } else {
        t = s->d1 > s->d0 ? (v - s->d0) / (s->d1 - s->d0) : 0.5;
    }
    return s->r0 + t * (s->r1 - s->r0);
}

static double clampd(double v, double a, double b)
{
    double lo = a < b ? a : b, hi = a < b ? b : a;
    return v < lo ? lo : v > hi ? hi : v;
}

double bl__plot_x(const struct bl__plot *p, double v)
{
    return clampd(scale_at(&p->x, v), p->x.r0, p->x.r1);
}

double bl__plot_y(const struct bl__plot *p, double v)
{
    return clampd(scale_at(&p->y, v), p->y.r0, p->y.r1);
}

void bl__plot_begin(struct bl__plot *p, FILE *f, double w, double h, const char *label, double ml,
                    double mr, double mt, double mb)
{
    memset(p, 0, sizeof *p);
    p->f = f;
    p->w = w;
    p->h = h;
    p->left = ml;
    p->right = w - mr;
    p->top = mt;
    p->bottom = h - mb;
    p->x = (struct bl__scale){0, 1, p->left, p->right, false};
    p->y = (struct bl__scale){0, 1, p->bottom, p->top, false};
    fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", w, h);
    bl__html_text(f, label);
    fputs("\">", f);
}

void bl__plot_end(struct bl__plot *p)
{
    fprintf(p->f, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
            p->left, p->top, p->right - p->left, p->bottom - p->top);
    fputs("</svg>", p->f);
}

/* A step of 1, 2 or 5 times a power of ten, about span/target. */
static double nice_step(double span, int target)
{
    double raw = span / target;
    double mag = pow(10, floor(log10(raw)));
    double r = raw / mag;
    return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

static void domain(struct bl__scale *s, double lo, double hi, bool log)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = 0;
        hi = 1;
    }
    if (lo > hi) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    s->log = log && lo > 0;
    if (s->log) {
        if (hi / lo < 1.5) { /* too narrow for decades: pad around */
            lo /= 1.25;
            hi *= 1.25;
        }
        s->d0 = pow(10, floor(log10(lo) + 1e-9));
        s->d1 = pow(10, ceil(log10(hi) - 1e-9));
        return;
    }
    if (hi == lo) {
        double d = fabs(lo) > 0 ? fabs(lo) * 0.05 : 1;
        lo -= d;
        hi += d;
    }
    double pad = (hi - lo) * 0.06;
    s->d0 = lo - pad;
    s->d1 = hi + pad;
}

void bl__plot_xdomain(struct bl__plot *p, double lo, double hi, bool log)
{
    domain(&p->x, lo, hi, log);
}

void bl__plot_ydomain(struct bl__plot *p, double lo, double hi, bool log)
{
    domain(&p->y, lo, hi, log);
}

/* Tick values of a scale: nice linear steps, or decades (with 2 and 5 when
 * the scale spans three decades or fewer). Returns the count. */
static int ticks(const struct bl__scale *s, double *out, int max, double *step)
{
    int n = 0;
    *step = 0;
    if (s->log) {
        int a = (int)floor(log10(s->d0) + 1e-9), b = (int)ceil(log10(s->d1) - 1e-9);
        int every = (b - a + 5) / 6; /* at most ~6 decade labels */
        for (int e = a; e <= b && n < max; e++) {
            if ((e - a) % (every ? every : 1))
                continue;
            out[n++] = pow(10, e);
            if (b - a <= 2)
                for (int m = 2; m <= 5 && n < max; m += 3)
                    if (e < b)
                        out[n++] = m * pow(10, e);
        }
        return n;
    }
    /* about one label per 60 px */
    int target = (int)(fabs(s->r1 - s->r0) / 60);
    *step = nice_step(s->d1 - s->d0, target < 2 ? 2 : target > 6 ? 6 : target);
    for (double v = ceil(s->d0 / *step) * *step; v <= s->d1 + *step * 1e-9 && n < max; v += *step)
        out[n++] = fabs(v) < *step * 1e-9 ? 0 : v;
    return n;
}

static void tick_label(char *out, size_t size, double v, int kind, double step)
{
    if (kind == AX_TIME) {
        size_t u = 3;
        double ref = fabs(v) > step ? fabs(v) : step;
        for (size_t i = 0; i < 4; i++)
            if (ref >= time_units[i].scale) {
                u = i;
                break;
            }
        double x = v / time_units[u].scale, st = step / time_units[u].scale;
        int prec = st > 0 && st < 1 ? (int)ceil(-log10(st) - 1e-9) : 0;
        if (step == 0) /* log scale: values are 1, 2, 5 times a power of ten */
            prec = fabs(x) >= 1 || x == 0 ? 0 : (int)ceil(-log10(fabs(x)) - 1e-9);
        snprintf(out, size, "%.*f %s", prec > 6 ? 6 : prec, x, time_units[u].unit);
    } else if (kind == AX_COUNT) {
        static const char *const sfx[] = {"", "k", "M", "G", "T"};
        int i = 0;
        while (fabs(v) >= 1000 && i < 4) {
            v /= 1000;
            i++;
        }
        snprintf(out, size, "%g%s", v, sfx[i]);
    } else {
        snprintf(out, size, "%g", v);
    }
}

void bl__plot_axes(struct bl__plot *p, int xkind, int ykind, const char *xtitle, const char *ytitle)
{
    FILE *f = p->f;
    double tv[64], step;
    char label[64];
    if (ykind != AX_NONE) {
        int n = ticks(&p->y, tv, 64, &step);
        fputs("<g class=\"grid\">", f);
        for (int i = 0; i < n; i++) {
            double y = scale_at(&p->y, tv[i]);
            if (y < p->top - 0.5 || y > p->bottom + 0.5)
                continue;
            fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", p->left, p->right,
                    y, y);
        }
        fputs("</g><g class=\"tick y\">", f);
        for (int i = 0; i < n; i++) {
            double y = scale_at(&p->y, tv[i]);
            if (y < p->top - 0.5 || y > p->bottom + 0.5)
                continue;
            tick_label(label, sizeof label, tv[i], ykind, step);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", p->left - 5, y + 3.5);
            bl__html_text(f, label);
            fputs("</text>", f);
        }
        fputs("</g>", f);
    }
    if (xkind != AX_NONE) {
        int n = ticks(&p->x, tv, 64, &step);
        fputs("<g class=\"grid\">", f);
        for (int i = 0; i < n; i++) {
            double x = scale_at(&p->x, tv[i]);
            if (x < p->left - 0.5 || x > p->right + 0.5)
                continue;
            fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x, x, p->top,
                    p->bottom);
        }
        fputs("</g><g class=\"tick x\">", f);
        for (int i = 0; i < n; i++) {
            double x = scale_at(&p->x, tv[i]);
            if (x < p->left - 0.5 || x > p->right + 0.5)
                continue;
            tick_label(label, sizeof label, tv[i], xkind, step);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x, p->bottom + 14);
            bl__html_text(f, label);
            fputs("</text>", f);
        }
        fputs("</g>", f);
    }
    if (xtitle) {
        fprintf(f, "<text class=\"atitle\" x=\"%.1f\" y=\"%.1f\">", (p->left + p->right) / 2,
                p->h - 4);
        bl__html_text(f, xtitle);
        fputs("</text>", f);
    }
    if (ytitle) {
        fprintf(f, "<text class=\"atitle\" transform=\"translate(12 %.1f) rotate(-90)\">",
                (p->top + p->bottom) / 2);
        bl__html_text(f, ytitle);
        fputs("</text>", f);
    }
}
