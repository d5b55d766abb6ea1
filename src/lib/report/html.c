/*
 * html.c - the report page (bl_report_write): header, the runs, the
 * overview table sortable by change, then one section per benchmark with
 * its facts, notes and charts (charts.c). The stylesheet and the script
 * are inline; the page loads nothing.
 *
 * The script sorts tables (click a column), filters benchmarks by name,
 * and when it has run without error it marks the document
 * (data-report-ready="1", data-charts-drawn="N" for the charts whose data
 * has a size on screen): the browser test reads those marks.
 *
 * Every string that comes from results (names, labels, metadata, messages,
 * units) goes through bl__html_text.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchlab/changes.h"
#include "report_int.h"

static const char style[] =
    ":root{--fg:#1d2330;--muted:#5f6b7a;--line:#dde2e8;--panel:#f5f7fa;--faster:#1a7f37;"
    "--slower:#cf222e;--warn:#9a6700}"
    "*{box-sizing:border-box}"
    "body{margin:0;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',"
    "Arial,sans-serif;color:var(--fg);background:#fff}"
    "header{padding:18px 32px 14px;border-bottom:1px solid var(--line);background:var(--panel)}"
    "header h1{font-size:22px;margin:0 0 2px}header p{margin:0;color:var(--muted)}"
    "main{padding:4px 32px 40px;max-width:1400px}"
    "h2{font-size:17px;margin:26px 0 8px}h2 a{color:inherit;text-decoration:none}"
    "h2 .badge{font-size:13px;font-weight:600;margin-left:10px;padding:1px 8px;border-radius:10px;"
    "background:var(--panel)}"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums}"
    "th,td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:right;"
    "white-space:nowrap;vertical-align:top}"
    "th:first-child,td:first-child{text-align:left}"
    "td.name{max-width:420px;overflow:hidden;text-overflow:ellipsis}"
    "th{font-weight:600;color:var(--muted);font-size:12px}"
    "table.sortable th{cursor:pointer;user-select:none}"
    "table.sortable th:hover{color:var(--fg)}"
    "th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' "
    "\\25BC'}"
    "tbody tr:hover{background:#fafbfc}"
    ".sub{color:var(--muted);font-size:12px}"
    ".faster{color:var(--faster)}.slower{color:var(--slower)}.same,.base{color:var(--muted)}"
    ".warn{color:var(--warn)}"
    ".flag{font-size:11px;font-weight:600;margin-left:6px;padding:0 6px;border-radius:8px;"
    "border:1px solid currentColor}"
    "a{color:#0969da}"
    ".toolbar{margin:14px 0 8px}.toolbar input{font:inherit;padding:5px 9px;width:280px;"
    "border:1px solid var(--line);border-radius:6px}"
    ".bench{border-top:1px solid var(--line);margin-top:28px}"
    ".facts{margin:4px 0 8px}"
    ".notes{margin:6px 0 10px;padding-left:18px;color:var(--warn);font-size:13px}"
    ".charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(440px,1fr));gap:14px}"
    "figure{margin:0;padding:10px 12px 8px;border:1px solid var(--line);border-radius:8px}"
    "figcaption{font-size:13px;margin-bottom:4px}.hint{color:var(--muted);font-size:12px}"
    "svg.chart{width:100%;height:auto;display:block;font-size:11px}"
    ".chart .grid line{stroke:#edf0f3}.chart .frame{fill:none;stroke:#c8ced6}"
    ".chart .tick text{fill:var(--muted)}.chart .tick.y text{text-anchor:end}"
    ".chart .tick.x text{text-anchor:middle}"
    ".chart .atitle{fill:var(--muted);text-anchor:middle}"
    ".chart .area{fill-opacity:.2;stroke-width:1.6}"
    ".chart .rug{stroke-opacity:.5;stroke-width:1}"
    ".chart .median{stroke-dasharray:5 3;stroke-width:1.4}"
    ".chart .pts{fill:none;stroke-width:3.4;stroke-linecap:round;stroke-opacity:.8}"
    ".chart .warm{fill:none;stroke-width:5;stroke-linecap:round;stroke-opacity:.25}"
    ".chart .pilot{fill:none;stroke-width:7;stroke-linecap:round}"
    ".chart .pilotline{fill:none;stroke-width:1.4}"
    ".chart .bad{fill:none;stroke-width:1.3}"
    ".chart .clip{fill:none;stroke-width:1}"
    ".chart .run{fill:none;stroke-width:1.8}"
    ".chart .launch{fill:none;stroke-dasharray:2 3;stroke-opacity:.55}"
    ".chart .clock{fill:none;stroke:#8a8f98;stroke-dasharray:1.5 3;stroke-width:1.4}"
    ".chart .band{fill-opacity:.14}"
    ".chart .ci{stroke-width:8;stroke-opacity:.45;stroke-linecap:round}"
    ".chart .rowlabel{text-anchor:end;fill:var(--fg)}"
    ".chart .change{font-weight:600;fill:var(--muted)}.chart .change.faster{fill:var(--faster)}"
    ".chart .change.slower{fill:var(--slower)}"
    ".chart .hline{fill:none;stroke:#8a8f98;stroke-width:1.3}"
    ".chart .whisker{stroke-width:2}"
    ".legend{display:flex;flex-wrap:wrap;gap:2px 14px;font-size:12px;color:var(--muted);"
    "margin-top:4px}"
    ".legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;"
    "vertical-align:-1px}"
    ".fignote{font-size:12px;color:var(--warn);margin:4px 0 0}"
    "footer{margin-top:36px;color:var(--muted);font-size:12px}"
    ".hidden{display:none}";

static const char script[] =
    "(function(){'use strict';\n"
    "var root=document.documentElement,errors=0;\n"
    "window.addEventListener('error',function(){errors++;"
    "root.setAttribute('data-report-errors',String(errors));});\n"
    "function key(td){var s=td.getAttribute('data-sort');"
    "if(s===null||s==='')return null;var x=parseFloat(s);return isNaN(x)?null:x;}\n"
    "function sortTable(table,col,th){var tb=table.tBodies[0];"
    "var rows=Array.prototype.slice.call(tb.rows);"
    "var dir=th.getAttribute('aria-sort')==='ascending'?-1:1;"
    "Array.prototype.forEach.call(table.tHead.rows[0].cells,function(h){"
    "h.removeAttribute('aria-sort');});"
    "th.setAttribute('aria-sort',dir>0?'ascending':'descending');"
    "var text=th.getAttribute('data-type')==='text';"
    "rows.sort(function(a,b){if(text)return dir*a.cells[col].textContent.localeCompare("
    "b.cells[col].textContent);var x=key(a.cells[col]),y=key(b.cells[col]);"
    "if(x===null&&y===null)return 0;if(x===null)return 1;if(y===null)return -1;"
    "return dir*(x-y);});"
    "rows.forEach(function(r){tb.appendChild(r);});}\n"
    "Array.prototype.forEach.call(document.querySelectorAll('table.sortable'),function(t){"
    "Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){"
    "th.addEventListener('click',function(){sortTable(t,i,th);});});});\n"
    "var q=document.getElementById('filter');"
    "if(q)q.addEventListener('input',function(){var s=q.value.toLowerCase();"
    "Array.prototype.forEach.call(document.querySelectorAll('[data-name]'),function(e){"
    "e.classList.toggle('hidden',e.getAttribute('data-name').toLowerCase().indexOf(s)<0);});});\n"
    "var drawn=0;Array.prototype.forEach.call(document.querySelectorAll('svg.chart'),"
    "function(svg){var g=svg.querySelectorAll('g.data'),ok=false;"
    "Array.prototype.forEach.call(g,function(d){var b=d.getBBox();"
    "if(b.width>0&&b.height>0)ok=true;});if(ok)drawn++;});\n"
    "root.setAttribute('data-charts-drawn',String(drawn));\n"
    "if(!errors)root.setAttribute('data-report-ready','1');\n"
    "})();\n";

void bl_report_options_init(bl_report_options *o)
{
    memset(o, 0, sizeof *o);
    o->confidence = 0.95;
    o->alpha = 0.05;
    o->seed = 0x62656e63686c6162ULL; /* "benchlab" */
}

static const char *meta(const bl_results *r, const char *key)
{
    for (size_t i = 0; r && i < r->n_meta; i++)
        if (strcmp(r->meta[i].key, key) == 0)
            return r->meta[i].value;
    for (size_t i = 0; r && i < r->n_config; i++)
        if (strcmp(r->config[i].key, key) == 0)
            return r->config[i].value;
    return NULL;
}

static void td_text(FILE *f, const char *cls, const char *text)
{
    fputs(cls ? "<td class=\"" : "<td>", f);
    if (cls) {
        fputs(cls, f);
        fputs("\">", f);
    }
    bl__html_text(f, text ? text : "");
    fputs("</td>", f);
}

static void td_time(FILE *f, double ns)
{
    char t[48];
    bl__rfmt_time(t, sizeof t, ns);
    if (isnan(ns))
        fputs("<td data-sort=\"\">", f);
    else
        fprintf(f, "<td data-sort=\"%.9g\">", ns);
    bl__html_text(f, t);
    fputs("</td>", f);
}

/* A number cell: pre, the value with prec decimals (or %g-like with prec < 0), post. */
static void td_num(FILE *f, double v, int prec, const char *pre, const char *post)
{
    if (isnan(v)) {
        fputs("<td data-sort=\"\">\xe2\x80\x93</td>", f);
        return;
    }
    if (isinf(v)) { /* a kInvert counter of 0; JavaScript's parseFloat reads Infinity */
        fprintf(f, "<td data-sort=\"%sInfinity\">%sinf%s</td>", v < 0 ? "-" : "", v < 0 ? "-" : "",
                post);
        return;
    }
    if (prec >= 0)
        fprintf(f, "<td data-sort=\"%.9g\">%s%.*f%s</td>", v, pre, prec, v, post);
    else
        fprintf(f, "<td data-sort=\"%.9g\">%s%.4g%s</td>", v, pre, v, post);
}

/* A rate with an SI prefix and 4 significant digits: "264.5 M". */
static void td_si(FILE *f, double v)
{
    static const char *const prefix[] = {"", " k", " M", " G", " T", " P"};
    if (isnan(v)) {
        fputs("<td data-sort=\"\">\xe2\x80\x93</td>", f);
        return;
    }
    double x = v;
    int p = 0;
    while (p < 5 && fabs(x) >= 999.95) {
        x /= 1000;
        p++;
    }
    fprintf(f, "<td data-sort=\"%.9g\">%.*f%s</td>", v,
            fabs(x) >= 99.995   ? 1
            : fabs(x) >= 9.9995 ? 2
                                : 3,
            x, prefix[p]);
}

/* ---- the runs ------------------------------------------------------------------------ */

static void write_runs(FILE *f, const struct bl__rmodel *m)
{
    /* the metadata columns that at least one run has */
    static const char *const keys[] = {"date", "host", "commit",          "branch",
                                       "cpu",  "pkg",  "benchlab-version"};
    enum { NKEYS = sizeof keys / sizeof *keys };
    bool has[NKEYS] = {0};
    for (size_t r = 0; r < m->n_runs; r++)
        for (size_t k = 0; k < NKEYS; k++)
            has[k] |= meta(m->runs[r].results, keys[k]) != NULL;
    fputs("<h2>Runs</h2><table class=\"runs\"><thead><tr><th>run</th>", f);
    for (size_t k = 0; k < NKEYS; k++)
        if (has[k])
            fprintf(f, "<th>%s</th>", strcmp(keys[k], "benchlab-version") ? keys[k] : "benchlab");
    fputs("<th>benchmarks</th></tr></thead><tbody>", f);
    for (size_t r = 0; r < m->n_runs; r++) {
        const bl_results *res = m->runs[r].results;
        fprintf(f, "<tr><td><span style=\"color:%s\">\xe2\x96\xa0</span> ", bl__rcolor(r));
        bl__html_text(f, m->runs[r].label);
        if (m->n_runs > 1 && r == m->o->baseline)
            fputs(" <span class=\"sub\">baseline</span>", f);
        fputs("</td>", f);
        for (size_t k = 0; k < NKEYS; k++) {
            if (!has[k])
                continue;
            fputs("<td>", f);
            bl__html_text(f, meta(res, keys[k]));
            const char *dirty = meta(res, "dirty");
            if (strcmp(keys[k], "commit") == 0 && dirty && strcmp(dirty, "true") == 0)
                fputs(" <span class=\"warn\">dirty</span>", f);
            fputs("</td>", f);
        }
        fprintf(f, "<td>%zu</td></tr>", res ? res->n_benches : 0);
    }
    fputs("</tbody></table>", f);
    for (size_t r = 0; r < m->n_runs; r++) {
        const char *noise = meta(m->runs[r].results, "env-warnings");
        if (noise) {
            fputs("<p class=\"sub warn\">", f);
            bl__html_text(f, m->runs[r].label);
            fputs(": noise on the machine: ", f);
            bl__html_text(f, noise);
            fputs("</p>", f);
        }
    }
}

/* ---- the overview ---------------------------------------------------------------------- */

static const char *verdict_class(const struct bl__rdelta *d)
{
    return !d->ok ? "base" : d->verdict < 0 ? "faster" : d->verdict > 0 ? "slower" : "same";
}

static const char *verdict_word(const struct bl__rdelta *d)
{
    return !d->ok ? "" : d->verdict < 0 ? "faster" : d->verdict > 0 ? "slower" : "~";
}

/* The allocation pass of the latest run that has one. */
static const bl_bench_result *alloc_source(const struct bl__rmodel *m, const struct bl__rbench *b)
{
    for (size_t r = m->n_runs; r-- > 0;)
        if (b->cells[r].b && b->cells[r].b->has_alloc)
            return b->cells[r].b;
    return NULL;
}

/* Whether some run of benchmark b knows its on-CPU time. */
static bool bench_has_cpu(const struct bl__rmodel *m, const struct bl__rbench *b)
{
    for (size_t r = 0; r < m->n_runs; r++)
        if (b->cells[r].has_est && !isnan(b->cells[r].cpu_ns))
            return true;
    return false;
}

/* The mark beside a time that came only from disturbed launches; the
 * notes under the benchmark's facts say why. */
static void disturbed_flag(FILE *f, const struct bl__rcell *c)
{
    if (c->has_est && c->disturbed)
        fputs(" <span class=\"warn flag\" title=\"no clean batch in any launch: the time includes "
              "time off CPU (an upper bound)\">disturbed</span>",
              f);
}

/* The change points of the runs shown (each benchmark's history chart
 * marks its own): benchmark, the run that starts the new level, the
 * levels, the change and its p. Outliers are counted, not listed. */
static void write_changes(FILE *f, const struct bl__rmodel *m)
{
    size_t steps = 0, outliers = 0;
    for (size_t i = 0; i < m->n_benches; i++)
        for (size_t k = 0; k < m->benches[i].n_changes; k++) {
            steps += m->benches[i].changes[k].kind == BL_CHANGE_STEP;
            outliers += m->benches[i].changes[k].kind == BL_CHANGE_OUTLIER;
        }
    if (!steps && !outliers)
        return;
    fprintf(f,
            "<h2>Changes</h2><p>%zu change point%s over the runs shown (binary segmentation, "
            "permutation test at alpha 0.001 per benchmark, as <code>benchlab history "
            "--changes</code>)",
            steps, steps == 1 ? "" : "s");
    if (outliers)
        fprintf(f, "; %zu outlier run%s (off the level, not staying), ringed in the charts",
                outliers, outliers == 1 ? "" : "s");
    fputs(".</p>", f);
    if (!steps)
        return;
    fputs("<table class=\"changes\" id=\"changes\"><thead><tr><th>benchmark</th><th>from "
          "run</th><th>before</th><th>after</th><th>change</th><th>p</th></tr></thead><tbody>",
          f);
    for (size_t i = 0; i < m->n_benches; i++) {
        const struct bl__rbench *b = &m->benches[i];
        for (size_t k = 0; k < b->n_changes; k++) {
            const struct bl__rchange *c = &b->changes[k];
            if (c->kind != BL_CHANGE_STEP)
                continue;
            struct bl__rhist pt;
            const char *label;
            bl__rhistory_point(m, b, c->point, &pt, &label);
            fprintf(f, "<tr><td><a href=\"#b%zu\">", i);
            bl__html_text(f, bl__rshort_name(b->name));
            fputs("</a></td>", f);
            td_text(f, NULL, label);
            td_time(f, c->before);
            td_time(f, c->after);
            td_num(f, (c->ratio - 1) * 100, 1, c->ratio >= 1 ? "+" : "", "%");
            td_num(f, c->p, -1, "", "");
            fputs("</tr>", f);
        }
    }
    fputs("</tbody></table>", f);
}

static void write_overview(FILE *f, const struct bl__rmodel *m)
{
    bool alloc = false, cpu = false;
    for (size_t i = 0; i < m->n_benches; i++) {
        alloc |= alloc_source(m, &m->benches[i]) != NULL;
        cpu |= bench_has_cpu(m, &m->benches[i]);
    }
    fputs("<h2>Overview</h2><div class=\"toolbar\"><input id=\"filter\" type=\"search\" "
          "placeholder=\"filter benchmarks by name\" aria-label=\"filter benchmarks\"></div>"
          "<table class=\"sortable overview\" id=\"overview\"><thead><tr>"
          "<th data-type=\"text\">benchmark</th>",
          f);
    for (size_t r = 0; r < m->n_runs; r++) {
        fputs("<th>", f);
        if (m->n_runs > 1)
            bl__html_text(f, m->runs[r].label);
        else
            fputs("time/op", f);
        fputs("</th>", f);
    }
    for (size_t r = 0; cpu && r < m->n_runs; r++) {
        fputs("<th>cpu/op", f);
        if (m->n_runs > 1) {
            fputs(" (", f);
            bl__html_text(f, m->runs[r].label);
            fputs(")", f);
        }
        fputs("</th>", f);
    }
    for (size_t r = 0; r < m->n_runs; r++) {
        if (r == m->o->baseline)
            continue;
        fputs("<th>change", f);
        if (m->n_runs > 2) {
            fputs(" (", f);
            bl__html_text(f, m->runs[r].label);
            fputs(")", f);
        }
        fputs("</th><th data-type=\"text\">verdict</th>", f);
    }
    if (alloc)
        fputs("<th>B/op</th><th>allocs/op</th>", f);
    fputs("<th data-type=\"text\">notes</th></tr></thead><tbody>", f);
    for (size_t i = 0; i < m->n_benches; i++) {
        const struct bl__rbench *b = &m->benches[i];
        fputs("<tr data-name=\"", f);
        bl__html_text(f, b->name);
        fprintf(f, "\"><td class=\"name\"><a href=\"#b%zu\" title=\"", i);
        bl__html_text(f, b->name);
        fputs("\">", f);
        bl__html_text(f, bl__rshort_name(b->name));
        fputs("</a></td>", f);
        int n_fail = 0, n_drift = 0, n_modes = 0, n_noisy = 0, n_disturbed = 0;
        for (size_t r = 0; r < m->n_runs; r++) {
            const struct bl__rcell *c = &b->cells[r];
            n_fail += c->state == CELL_FAILED;
            n_drift += c->drift;
            n_modes += c->multimodal;
            /* a disturbed benchmark kept its batches: it is said as such */
            n_disturbed += c->has_est && c->disturbed;
            n_noisy += !c->disturbed && c->n_measured && c->n_invalid * 10 > c->n_measured;
            if (!c->has_est) {
                fprintf(f, "<td data-sort=\"\" class=\"base\">%s</td>",
                        c->state == CELL_FAILED    ? "failed"
                        : c->state == CELL_SKIPPED ? "skipped"
                                                   : "\xe2\x80\x93");
                continue;
            }
            char t[48];
            bl__rfmt_time(t, sizeof t, c->est.centre);
            fprintf(f, "<td data-sort=\"%.9g\">%s", c->est.centre, t);
            if (c->est.n_launches > 1 && !c->idle && !isnan(c->spread_ns)) {
                bl__rfmt_time(t, sizeof t, c->spread_ns / 2);
                fprintf(f, " <span class=\"sub\">\xc2\xb1%s</span>", t);
            } else if (c->est.n_launches > 1 && !c->idle) {
                fprintf(f, " <span class=\"sub\">\xc2\xb1%.0f%%</span>", 50 * c->est.spread);
            }
            disturbed_flag(f, c);
            fputs("</td>", f);
        }
        for (size_t r = 0; cpu && r < m->n_runs; r++)
            td_time(f, b->cells[r].has_est ? b->cells[r].cpu_ns : NAN);
        for (size_t r = 0; r < m->n_runs; r++) {
            if (r == m->o->baseline)
                continue;
            const struct bl__rdelta *d = &b->deltas[r];
            char change[96];
            bl__rfmt_change(change, sizeof change, d);
            if (d->ok)
                fprintf(f, "<td class=\"%s\" data-sort=\"%.9g\">", verdict_class(d), d->ratio - 1);
            else
                fputs("<td data-sort=\"\">", f);
            bl__html_text(f, change);
            fprintf(f, "</td><td class=\"%s\">%s", verdict_class(d), verdict_word(d));
            if (d->ok && !isnan(d->p))
                fprintf(f, " <span class=\"sub\">p=%.2g</span>", d->p);
            fputs("</td>", f);
        }
        if (alloc) {
            const bl_bench_result *a = alloc_source(m, b);
            td_num(f, a ? a->alloc_bytes_per_op : NAN, 0, "", "");
            td_num(f, a ? a->allocs_per_op : NAN, 0, "", "");
        }
        fputs("<td class=\"warn\">", f);
        if (n_fail)
            fputs("failed ", f);
        if (n_drift)
            fputs("drift ", f);
        if (n_modes)
            fputs("modes ", f);
        if (n_noisy)
            fputs("noisy ", f);
        if (n_disturbed)
            fputs("disturbed ", f);
        fputs("</td></tr>", f);
    }
    fputs("</tbody></table>", f);
    if (m->n_runs > 1) {
        fprintf(f,
                "<p class=\"sub\">Time/op: the centre over the launches (their median; the 20%% "
                "trimmed mean of 2-5), "
                "\xc2\xb1 half the spread of the launch centres (in ns where their median is "
                "below half a core cycle, what subtracting the loop resolves; none for a body "
                "that did no measurable work); cpu/op: the on-CPU time per "
                "op, centred as the time is; disturbed: no launch had a clean batch, so the "
                "time includes time off CPU. Change: the run against the "
                "baseline (Hodges-Lehmann ratio, as benchlab judge gives it), with its %.0f%% "
                "interval. faster / slower: "
                "significant at \xce\xb1 = %g after Holm's correction over the %zu benchmarks and "
                "the interval excludes 0; ~: no difference shown.</p>",
                100 * m->o->confidence, m->o->alpha, m->n_benches);
    }
}

/* ---- a benchmark's section ------------------------------------------------------------ */

/* Median over the successful launches of metric `unit`; NAN when none has it. */
static double metric_median(const bl_bench_result *b, const char *unit)
{
    double v[64];
    size_t n = 0;
    for (size_t j = 0; b && j < b->n_launches && n < 64; j++) {
        const bl_launch *l = &b->launches[j];
        if (l->status || l->skipped)
            continue;
        for (size_t k = 0; k < l->n_metrics; k++)
            if (strcmp(l->metrics[k].unit, unit) == 0)
                v[n++] = l->metrics[k].value;
    }
    return n ? bl_stats_median(v, n) : NAN;
}

/* Units of the instruments across runs: counters, then user metrics. */
struct units {
    const char *u[48];
    int counter[48];
    size_t n;
};

static void add_unit(struct units *us, const char *u, int counter)
{
    for (size_t i = 0; i < us->n; i++)
        if (strcmp(us->u[i], u) == 0)
            return;
    if (us->n < 48) {
        us->counter[us->n] = counter;
        us->u[us->n++] = u;
    }
}

static double counter_value(const bl_bench_result *b, const char *unit)
{
    for (int i = 0; b && i < b->n_counters; i++)
        if (strcmp(b->counter_unit[i], unit) == 0)
            return b->counter_per_op[i];
    return NAN;
}

/* Throughput at the cell's median, counting every thread (bl_launch_rates). */
static void cell_rates(const struct bl__rcell *c, bl_rates *out)
{
    bl_launch tmp;
    memset(&tmp, 0, sizeof tmp);
    out->mb_per_s = out->items_per_s = out->ops_per_s = NAN;
    if (!c->has_est || !c->first_ok)
        return;
    tmp.ns_per_op = c->est.centre;
    tmp.bytes_per_op = c->first_ok->bytes_per_op;
    tmp.items_per_op = c->first_ok->items_per_op;
    tmp.threads = c->first_ok->threads;
    bl_launch_rates(&tmp, out);
}

static void write_facts(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b)
{
    struct units us = {0};
    bool alloc = false, rate[3] = {false, false, false}, cpu = bench_has_cpu(m, b);
    bl_rates rates[64];
    for (size_t r = 0; r < m->n_runs; r++) {
        const bl_bench_result *br = b->cells[r].b;
        if (r < 64)
            cell_rates(&b->cells[r], &rates[r]);
        if (!br)
            continue;
        alloc |= br->has_alloc;
        if (r < 64) {
            rate[0] |= !isnan(rates[r].mb_per_s);
            rate[1] |= !isnan(rates[r].items_per_s);
            rate[2] |= !isnan(rates[r].ops_per_s);
        }
        for (int i = 0; i < br->n_counters; i++)
            add_unit(&us, br->counter_unit[i], 1);
        /* a Go line's cpu-ns/op is the cpu/op column's, not a metric of its own */
        for (size_t j = 0; j < br->n_launches; j++)
            for (size_t k = 0; k < br->launches[j].n_metrics; k++)
                if (!cpu || strcmp(br->launches[j].metrics[k].unit, "cpu-ns/op") != 0)
                    add_unit(&us, br->launches[j].metrics[k].unit, 0);
    }
    fputs("<table class=\"facts\"><thead><tr><th>run</th><th>time/op</th>", f);
    if (cpu)
        fputs("<th>cpu/op</th>", f);
    fputs("<th>interval</th><th>launches</th><th>spread</th>", f);
    if (cpu)
        fputs("<th>cpu spread</th>", f);
    fputs("<th>batches kept</th><th>overhead</th>", f);
    static const char *const rate_unit[3] = {"MB/s", "items/s", "ops/s"};
    for (int k = 0; k < 3; k++)
        if (rate[k])
            fprintf(f, "<th>%s</th>", rate_unit[k]);
    if (alloc)
        fputs("<th>B/op</th><th>allocs/op</th>", f);
    for (size_t i = 0; i < us.n; i++) {
        fputs("<th>", f);
        bl__html_text(f, us.u[i]);
        fputs("</th>", f);
    }
    fputs("</tr></thead><tbody>", f);
    for (size_t r = 0; r < m->n_runs; r++) {
        const struct bl__rcell *c = &b->cells[r];
        if (c->state == CELL_MISSING)
            continue;
        fprintf(f, "<tr><td><span style=\"color:%s\">\xe2\x96\xa0</span> ", bl__rcolor(r));
        bl__html_text(f, m->runs[r].label);
        fputs("</td>", f);
        if (!c->has_est) {
            fprintf(f, "<td class=\"base\">%s</td>",
                    c->state == CELL_SKIPPED ? "skipped" : "failed");
            fputs("<td></td><td></td><td></td><td></td><td></td>", f);
            if (cpu)
                fputs("<td></td><td></td>", f);
        } else {
            char t[48];
            bl__rfmt_time(t, sizeof t, c->est.centre);
            fprintf(f, "<td data-sort=\"%.9g\">", c->est.centre);
            bl__html_text(f, t);
            disturbed_flag(f, c);
            fputs("</td>", f);
            if (cpu)
                td_time(f, c->cpu_ns);
            char lo[48], hi[48], iv[128];
            bl__rfmt_time(lo, sizeof lo, c->est.ci_lo);
            bl__rfmt_time(hi, sizeof hi, c->est.ci_hi);
            if (isnan(c->est.ci_lo))
                snprintf(iv, sizeof iv, "too few values");
            else
                snprintf(iv, sizeof iv, "[%s, %s]%s", lo, hi,
                         c->est.ci_method == BL_CI_BATCHES ? " *" : "");
            td_text(f, NULL, iv);
            fprintf(f, "<td>%zu</td>", c->est.n_launches);
            /* as run's table: none for an idle body, in ns below half a cycle */
            if (!isnan(c->spread_ns) && !c->idle)
                td_time(f, c->spread_ns);
            else
                td_num(f, c->est.n_launches > 1 && !c->idle ? 100 * c->est.spread : NAN, 1, "",
                       "%");
            if (cpu && !isnan(c->cpu_spread_ns) && !c->idle)
                td_time(f, c->cpu_spread_ns);
            else if (cpu)
                td_num(f, c->idle ? NAN : 100 * c->cpu_spread, 1, "", "%");
            if (c->from_batches)
                fprintf(f, "<td>%zu/%zu</td>", c->n_measured - c->n_invalid, c->n_measured);
            else
                fputs("<td class=\"base\">none in input</td>", f);
            td_time(f, c->overhead_ns);
        }
        const double rv[3] = {r < 64 ? rates[r].mb_per_s : NAN, r < 64 ? rates[r].items_per_s : NAN,
                              r < 64 ? rates[r].ops_per_s : NAN};
        for (int k = 0; k < 3; k++)
            if (rate[k])
                td_si(f, rv[k]);
        if (alloc) {
            td_num(f, c->b->has_alloc ? c->b->alloc_bytes_per_op : NAN, 0, "", "");
            td_num(f, c->b->has_alloc ? c->b->allocs_per_op : NAN, 0, "", "");
        }
        for (size_t i = 0; i < us.n; i++)
            td_num(f, us.counter[i] ? counter_value(c->b, us.u[i]) : metric_median(c->b, us.u[i]),
                   -1, "", "");
        fputs("</tr>", f);
    }
    fputs("</tbody></table>", f);
}

static void note(FILE *f, bool *open, const char *run, const char *fmt, const char *text)
{
    if (!*open) {
        fputs("<ul class=\"notes\">", f);
        *open = true;
    }
    fputs("<li>", f);
    if (run) {
        bl__html_text(f, run);
        fputs(": ", f);
    }
    bl__html_text(f, fmt);
    bl__html_text(f, text ? text : "");
    fputs("</li>", f);
}

/* "context-switch 8, off-cpu-gap 8" into out; returns the length written. */
static int reasons(char *out, size_t size, const size_t by[BL_INVALID_NREASONS])
{
    int len = 0;
    out[0] = '\0';
    for (unsigned k = 0; k < BL_INVALID_NREASONS && (size_t)len + 64 < size; k++)
        if (by[k])
            len += snprintf(out + len, size - (size_t)len, "%s%s %zu", len ? ", " : "",
                            bl_invalid_name(k), by[k]);
    return len;
}

static void write_notes(FILE *f, const struct bl__rmodel *m, const struct bl__rbench *b)
{
    bool open = false;
    for (size_t r = 0; r < m->n_runs; r++) {
        const struct bl__rcell *c = &b->cells[r];
        const char *label = m->runs[r].label;
        if (c->state == CELL_MISSING && m->n_runs > 1)
            note(f, &open, label, "not in this run", NULL);
        if (c->state == CELL_FAILED)
            note(f, &open, label, "failed: ", c->message);
        if (c->state == CELL_SKIPPED)
            note(f, &open, label, "skipped: ", c->message);
        if (c->state == CELL_OK && c->message)
            note(f, &open, label, "some launches failed: ", c->message);
        if (c->has_est && c->est.ci_method == BL_CI_BATCHES)
            note(f, &open, label,
                 "one launch: its interval (*) is that of its batches' median, which leaves the "
                 "variance between processes out (run with --count 6)",
                 NULL);
        if (c->has_s && !c->from_batches)
            note(f, &open, label,
                 "the input has no batches (Go format): the distribution is over launches, and "
                 "the scaling and timeline charts need benchlab JSON",
                 NULL);
        if (c->has_est && c->disturbed) {
            /* the words of run's table note (format/table.c) */
            char why[160], t[640];
            reasons(why, sizeof why, c->invalid_by);
            int len = snprintf(
                t, sizeof t,
                "disturbed: no clean batch in any launch, so the %zu disturbed batch%s of "
                "%zu launch%s%s%s%s are the measurement: time/op includes time off CPU (an "
                "upper bound), cpu/op is the time on CPU; a quieter machine or a longer "
                "--time gives a clean one",
                c->n_measured, c->n_measured == 1 ? "" : "es", c->n_disturbed,
                c->n_disturbed == 1 ? "" : "es", why[0] ? " (" : "", why, why[0] ? ")" : "");
            /* why the charts show disturbed batches, not clean ones */
            if (c->vals_disturbed && len > 0 && (size_t)len < sizeof t)
                snprintf(t + len, sizeof t - (size_t)len,
                         ". All %zu of %zu launches were disturbed, so there is no distribution "
                         "of clean batches: the distribution and the timeline show the "
                         "disturbed ones",
                         c->n_disturbed, c->n_disturbed);
            note(f, &open, label, t, NULL);
        } else if (c->n_measured && c->n_invalid * 20 > c->n_measured) {
            char t[256];
            int len = snprintf(t, sizeof t, "%zu of %zu batches discarded as disturbed (",
                               c->n_invalid, c->n_measured);
            len += reasons(t + len, sizeof t - (size_t)len, c->invalid_by);
            snprintf(t + len, sizeof t - (size_t)len, ")");
            note(f, &open, label, t, NULL);
        }
        if (c->b && c->b->alloc_message)
            note(f, &open, label, "allocation pass: ", c->b->alloc_message);
        if (c->b && c->b->counters_message)
            note(f, &open, label, "counters pass: ", c->b->counters_message);
        if (c->b && c->b->n_counters && c->b->counters_scaled)
            note(f, &open, label, "counters were multiplexed and scaled by the kernel", NULL);
        const struct bl__rdelta *d = &b->deltas[r];
        if (r != m->o->baseline && d->ok && !d->by_launch && c->n_launch_vals > 1)
            note(f, &open, label,
                 "compared over batches: five launches or more on both sides (--count 5) "
                 "would put the between-process variance in the test",
                 NULL);
    }
    if (open)
        fputs("</ul>", f);
}

static int write_bench(FILE *f, const struct bl__rmodel *m, size_t i)
{
    const struct bl__rbench *b = &m->benches[i];
    fprintf(f, "<section class=\"bench\" id=\"b%zu\" data-name=\"", i);
    bl__html_text(f, b->name);
    fprintf(f, "\"><h2><a href=\"#b%zu\">", i);
    bl__html_text(f, bl__rshort_name(b->name));
    fputs("</a>", f);
    for (size_t r = 0; r < m->n_runs; r++) {
        const struct bl__rdelta *d = &b->deltas[r];
        if (r == m->o->baseline || !d->ok || (m->n_runs > 2 && r != m->n_runs - 1))
            continue;
        fprintf(f, "<span class=\"badge %s\">%+.1f%% %s</span>", verdict_class(d),
                100 * (d->ratio - 1),
                d->verdict < 0   ? "faster"
                : d->verdict > 0 ? "slower"
                                 : "no difference shown");
    }
    fputs("</h2>", f);
    write_facts(f, m, b);
    write_notes(f, m, b);
    fputs("<div class=\"charts\">", f);
    int n = 0;
    n += bl__chart_distribution(f, m, b);
    n += bl__chart_scaling(f, m, b);
    n += bl__chart_timeline(f, m, b);
    n += bl__chart_compare(f, m, b);
    n += bl__chart_history(f, m, b);
    fputs("</div></section>\n", f);
    return n;
}

/* The jobs of a run, in the order they ran with its baseline job first
 * (meta "jobs" and "baseline-job", engine/run.c); 0 when it has none. */
static size_t run_jobs(const bl_results *r, char ***out)
{
    *out = NULL;
    const char *jobs = r ? bl_results_get_meta(r, "jobs") : NULL;
    const char *base = r ? bl_results_get_meta(r, "baseline-job") : NULL;
    size_t n = 0;
    for (const char *p = jobs; p && *p;) {
        size_t len = strcspn(p, " ");
        char **nv = len ? realloc(*out, (n + 1) * sizeof *nv) : NULL;
        if (len && !nv)
            break;
        if (len) {
            *out = nv;
            if (!(nv[n] = strndup(p, len)))
                break;
            /* the baseline job first */
            if (base && strcmp(nv[n], base) == 0 && n) {
                char *t = nv[n];
                memmove(nv + 1, nv, n * sizeof *nv);
                nv[0] = t;
            }
            n++;
        }
        p += len + (p[len] == ' ');
    }
    return n;
}

/* The runs as shown: a run of jobs given whole becomes one run per job,
 * labelled "LABEL [JOB]" (the job alone for a single input); strings[]
 * holds the job names and labels, to free. The baseline input's first
 * entry is the new baseline. */
struct shown_runs {
    bl_report_run *runs;
    char **strings;
    size_t n, n_strings, baseline;
};

static int expand_jobs(struct shown_runs *s, const bl_report_run *runs, size_t n_runs,
                       size_t baseline)
{
    memset(s, 0, sizeof *s);
    char ***jobs = calloc(n_runs, sizeof *jobs);
    size_t *nj = calloc(n_runs, sizeof *nj), total = 0;
    int rc = jobs && nj ? 0 : -ENOMEM;
    for (size_t k = 0; !rc && k < n_runs; k++) {
        nj[k] = runs[k].job ? 0 : run_jobs(runs[k].results, &jobs[k]);
        total += nj[k] ? nj[k] : 1;
    }
    if (!rc) {
        s->runs = calloc(total, sizeof *s->runs);
        s->strings = calloc(2 * total, sizeof *s->strings);
        rc = s->runs && s->strings ? 0 : -ENOMEM;
    }
    for (size_t k = 0; !rc && k < n_runs; k++) {
        if (k == baseline)
            s->baseline = s->n;
        if (!nj[k])
            s->runs[s->n++] = runs[k];
        for (size_t j = 0; j < nj[k]; j++) {
            char *job = jobs[k][j], *label = NULL;
            s->strings[s->n_strings++] = job;
            jobs[k][j] = NULL;
            size_t len = strlen(runs[k].label) + strlen(job) + 4;
            if (n_runs > 1 && (label = malloc(len)) != NULL) {
                snprintf(label, len, "%s [%s]", runs[k].label, job);
                s->strings[s->n_strings++] = label;
            }
            if (n_runs > 1 && !label)
                rc = -ENOMEM;
            s->runs[s->n++] = (bl_report_run){
                .label = label ? label : job, .results = runs[k].results, .job = job};
        }
    }
    for (size_t k = 0; jobs && nj && k < n_runs; k++) {
        for (size_t j = 0; j < nj[k]; j++)
            free(jobs[k][j]);
        free(jobs[k]);
    }
    free(jobs);
    free(nj);
    return rc;
}

static void shown_runs_fini(struct shown_runs *s)
{
    for (size_t i = 0; i < s->n_strings; i++)
        free(s->strings[i]);
    free(s->strings);
    free(s->runs);
}

static int write_report(FILE *f, const bl_report_run *runs, size_t n_runs,
                        const bl_report_options *opts);

int bl_report_write(FILE *f, const bl_report_run *runs, size_t n_runs,
                    const bl_report_options *opts)
{
    bl_report_options o;
    if (opts)
        o = *opts;
    else
        bl_report_options_init(&o);
    if (!n_runs || o.baseline >= n_runs)
        return BL_EUSAGE;
    struct shown_runs s;
    int rc = expand_jobs(&s, runs, n_runs, o.baseline);
    if (!rc) {
        o.baseline = s.baseline;
        rc = write_report(f, s.runs, s.n, &o);
    }
    shown_runs_fini(&s);
    return rc;
}

static int write_report(FILE *f, const bl_report_run *runs, size_t n_runs,
                        const bl_report_options *opts)
{
    bl_report_options o;
    if (opts)
        o = *opts;
    else
        bl_report_options_init(&o);
    if (!n_runs || o.baseline >= n_runs)
        return BL_EUSAGE;
    if (!(o.confidence > 0 && o.confidence < 1))
        o.confidence = 0.95;
    if (!(o.alpha > 0 && o.alpha < 1))
        o.alpha = 0.05;
    struct bl__rmodel m;
    int rc = bl__rmodel_build(&m, runs, n_runs, &o);
    if (rc) {
        bl__rmodel_fini(&m);
        return rc;
    }
    const char *title = o.title ? o.title : "benchlab report";
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
          "<meta name=\"generator\" content=\"benchlab ",
          f);
    fputs(bl_version(), f);
    fputs("\"><title>", f);
    bl__html_text(f, title);
    fprintf(f, "</title><style>%s</style></head>\n", style);
    /* the charts are counted as they are written; the count goes in a
     * trailing element that the browser test compares with what was drawn */
    fputs("<body><header><h1>", f);
    bl__html_text(f, title);
    fprintf(f, "</h1><p>%zu benchmark%s, %zu run%s", m.n_benches, m.n_benches == 1 ? "" : "s",
            n_runs, n_runs == 1 ? "" : "s");
    if (n_runs > 1) {
        fputs(", baseline ", f);
        bl__html_text(f, runs[o.baseline].label);
    }
    fputs("</p></header><main>", f);
    write_runs(f, &m);
    write_overview(f, &m);
    write_changes(f, &m);
    int charts = 0;
    for (size_t i = 0; i < m.n_benches; i++)
        charts += write_bench(f, &m, i);
    char now[64];
    if (!o.generated) {
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    fputs("<footer>Generated by benchlab ", f);
    fputs(bl_version(), f);
    fputs(" on ", f);
    bl__html_text(f, o.generated ? o.generated : now);
    fputs(". Times are per operation, the empty loop's overhead subtracted; intervals are "
          "distribution-free intervals of the median. This file is self-contained.</footer>",
          f);
    fprintf(f,
            "</main><div id=\"report-meta\" hidden data-charts=\"%d\"></div>\n<script>%s</script>"
            "</body></html>\n",
            charts, script);
    bl__rmodel_fini(&m);
    return ferror(f) ? -EIO : 0;
}
