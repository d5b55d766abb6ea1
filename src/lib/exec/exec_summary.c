/*
 * exec_summary.c - what `benchlab exec` prints after a session: each
 * command's times (median and its interval, mean and stddev, user and
 * system time, notes on a first slow run and outliers), the shell start-up
 * that was subtracted, and the comparison with the reference command
 * (ratio of medians, its interval, the U test), as hyperfine's summary
 * reads; and the order of the commands in the comparison and the markup
 * exports (bl_exec_write_summary, bl_exec_order). Reads benchlab/exec.h's
 * results only.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "benchlab/exec.h"
#include "benchlab/format.h"
#include "benchlab/output.h"
#include "benchlab/stats.h"

/* A duration in the --time-unit (unit_ns), or chosen by its size (0). */
static void fmt_time(char *out, size_t size, double ns, double unit_ns)
{
    if (!unit_ns)
        bl_format_duration(out, size, ns);
    else
        snprintf(out, size, "%.3f %s", ns / unit_ns,
                 unit_ns == 1e3   ? "µs"
                 : unit_ns == 1e6 ? "ms"
                                  : "s");
}

/*
 * User and system time come from wait4's rusage, which counts whole
 * microseconds: below that nothing was measured, and a 0 would be false.
 */
#define RUSAGE_RESOLUTION_NS 1000.0

static void fmt_cpu_time(char *out, size_t size, double ns, double unit_ns)
{
    if (ns < RUSAGE_RESOLUTION_NS)
        snprintf(out, size, "< 1 µs (rusage's resolution)");
    else
        fmt_time(out, size, ns, unit_ns);
}

static const char *label(const bl_exec_result *r)
{
    return r->command->label ? r->command->label : r->command->name;
}

static void print_result(FILE *f, size_t index, const bl_exec_result *r, const bl_exec_results *res,
                         double u)
{
    char med[32], lo[32], hi[32], mean[32], sd[32], mad[32], mn[32], mx[32], us[48], sy[48];
    char safe[1024];
    fprintf(f, "Benchmark %zu: %s\n", index + 1, bl_terminal_text(safe, sizeof safe, label(r)));
    if (!r->n_runs) {
        fprintf(f, "  no runs measured\n");
        return;
    }
    const bl_summary *w = &r->wall;
    fmt_time(med, sizeof med, w->median, u);
    fmt_time(mean, sizeof mean, w->mean, u);
    fmt_time(sd, sizeof sd, r->n_runs > 1 ? w->stddev : 0, u);
    fmt_time(mad, sizeof mad, w->mad, u);
    fmt_time(mn, sizeof mn, w->min, u);
    fmt_time(mx, sizeof mx, w->max, u);
    fmt_cpu_time(us, sizeof us, r->user.median, u);
    fmt_cpu_time(sy, sizeof sy, r->sys.median, u);
    if (isfinite(w->ci_lo)) {
        fmt_time(lo, sizeof lo, w->ci_lo, u);
        fmt_time(hi, sizeof hi, w->ci_hi, u);
        fprintf(f, "  median %s  [%s, %s] %.0f%% CI    mean %s ± %s (stddev)\n", med, lo, hi,
                w->confidence * 100, mean, sd);
    } else {
        fprintf(f, "  median %s  (too few runs for a %.0f%% CI)    mean %s ± %s (stddev)\n", med,
                w->confidence * 100, mean, sd);
    }
    /* a bound is benchlab's own peak, which the kernel counts for the spawn (exec.h) */
    fprintf(
        f, "  MAD %s    range %s … %s    user %s, system %s    peak RSS %s%.1f MiB%s    %zu runs\n",
        mad, mn, mx, us, sy, r->max_rss_is_bound ? "≤ " : "", (double)r->max_rss_bytes / 1048576.0,
        r->max_rss_is_bound ? " (benchlab's own, which the kernel counts)" : "", r->n_runs);
    if (w->median <= 0 && res->n_shell_runs) {
        char sh[32];
        fmt_time(sh, sizeof sh, res->shell_wall_ns, u);
        fprintf(f,
                "  note: the median is 0: the command takes no longer than the shell's start-up "
                "(%s), so what is left after subtracting it is below what can be measured; "
                "run it without a shell (-N) to measure it\n",
                sh);
    }
    size_t failed = 0;
    for (size_t k = 0; k < r->n_runs; k++)
        failed += r->runs[k].exit_code != 0;
    if (failed)
        fprintf(f, "  warning: %zu of %zu runs exited with a non-zero status (ignored)\n", failed,
                r->n_runs);
    if (bl_exec_first_run_slow(r))
        fprintf(f, "  warning: the first run was much slower than the others (caches were cold?);"
                   " try --warmup or --prepare\n");
    size_t slow = bl_exec_count_slow(r);
    if (slow)
        fprintf(f,
                "  warning: %zu of %zu runs were much slower than the rest (other programs "
                "running?); the median resists them, the mean does not\n",
                slow, r->n_runs);
}

void bl_exec_order(const bl_exec_results *res, int by_time, int by_mean, size_t *order)
{
    for (size_t i = 0; i < res->n_results; i++)
        order[i] = i;
    if (!by_time)
        return;
    for (size_t i = 1; i < res->n_results; i++) { /* insertion sort: stable */
        size_t x = order[i], j = i;
        const bl_exec_result *rx = &res->results[x];
        double vx = by_mean ? rx->wall.mean : rx->wall.median;
        while (j > 0) {
            const bl_exec_result *ry = &res->results[order[j - 1]];
            double vy = by_mean ? ry->wall.mean : ry->wall.median;
            if (rx->n_runs && (!ry->n_runs || vx < vy)) {
                order[j] = order[j - 1];
                j--;
            } else {
                break;
            }
        }
        order[j] = x;
    }
}

/* The verdict when p is not below 0.05: no difference, or too few runs to find one. */
static void print_no_verdict(FILE *f, const char *sep, const bl_exec_result *a,
                             const bl_exec_result *b, double p)
{
    double min_p = bl_stats_utest_min_p(a->n_runs, b->n_runs);
    if (min_p > 0.05)
        fprintf(f,
                "%stoo few runs to tell (%zu and %zu: the U test's p cannot go below %.2g; "
                "4 runs each can find a difference)\n",
                sep, a->n_runs, b->n_runs, min_p);
    else
        fprintf(f, "%sno significant difference (p=%.3g)\n", sep, p);
}

static void print_comparison(FILE *f, const bl_exec_results *res, int by_command, int has_reference)
{
    size_t *order = malloc(res->n_results * sizeof *order);
    if (!order)
        return;
    bl_exec_order(res, !by_command, 0, order);
    /* hyperfine's reference: --reference (run first), else the fastest */
    const bl_exec_result *a = has_reference ? &res->results[0] : &res->results[order[0]];
    if (by_command && !has_reference) {
        for (size_t i = 0; i < res->n_results; i++)
            if (res->results[i].n_runs &&
                (!a->n_runs || res->results[i].wall.median < a->wall.median))
                a = &res->results[i];
    }
    if (!a->n_runs) {
        free(order);
        return;
    }
    /* labels are the user's commands or names read from a parameter list:
     * shown, not obeyed, as in "Benchmark 1: ..." */
    char sa[512], sb[512], sz[512];
    fprintf(f, "Relative to '%s' (ratio of medians, %.0f%% interval; Mann-Whitney U test):\n",
            bl_terminal_text(sa, sizeof sa, label(a)), a->wall.confidence * 100);
    for (size_t k = 0; k < res->n_results; k++) {
        const bl_exec_result *b = &res->results[order[k]];
        double ratio, lo, hi, p;
        if (b == a || !b->n_runs || bl_exec_compare(a, b, &ratio, &lo, &hi, &p) != 0)
            continue;
        if (a->wall.median <= 0 || b->wall.median <= 0) {
            const bl_exec_result *z = a->wall.median <= 0 ? a : b;
            fprintf(f, "  %-30s no ratio: the median of '%s' is 0 (see its note)",
                    bl_terminal_text(sb, sizeof sb, label(b)),
                    bl_terminal_text(sz, sizeof sz, label(z)));
            if (p < 0.05)
                fprintf(f, "; %s (p=%.3g)\n", b->wall.median > a->wall.median ? "slower" : "faster",
                        p);
            else
                print_no_verdict(f, "; ", a, b, p);
            continue;
        }
        fprintf(f, "  %-30s %.3fx", bl_terminal_text(sb, sizeof sb, label(b)), ratio);
        if (isfinite(lo))
            fprintf(f, " [%.3f, %.3f]", lo, hi);
        if (p < 0.05)
            fprintf(f, "  %s (p=%.3g)\n", ratio > 1 ? "slower" : "faster", p);
        else
            print_no_verdict(f, "  ", a, b, p);
    }
    free(order);
}

static int any_runs(const bl_exec_results *res)
{
    for (size_t i = 0; i < res->n_results; i++)
        if (res->results[i].n_runs)
            return 1;
    return 0;
}

int bl_exec_write_summary(FILE *f, const bl_exec_results *res, int by_command, int has_reference,
                          double unit_ns)
{
    for (size_t i = 0; i < res->n_results; i++)
        print_result(f, i, &res->results[i], res, unit_ns);
    char shell[256]; /* $SHELL's or --shell's */
    if (res->n_shell_runs) {
        char sh[32];
        fmt_time(sh, sizeof sh, res->shell_wall_ns, unit_ns);
        fprintf(f,
                "Shell start-up (%s -c '', median of %zu runs in the same rounds): %s, "
                "subtracted from every run.\n",
                bl_terminal_text(shell, sizeof shell, res->shell), res->n_shell_runs, sh);
    } else if (res->shell[0] && any_runs(res)) {
        fprintf(f,
                "Shell start-up (%s -c ''): not measured before the session ended; the "
                "times above include it.\n",
                bl_terminal_text(shell, sizeof shell, res->shell));
    }
    if (res->stopped_early)
        fprintf(f,
                "Stopped before the time budget: after at least %zu runs the median's %.0f%% "
                "interval was within %g%% of it.\n",
                res->early_min_runs, res->results[0].wall.confidence * 100,
                res->early_rel_width * 100);
    size_t with_runs = 0;
    for (size_t i = 0; i < res->n_results; i++)
        with_runs += res->results[i].n_runs > 0;
    if (with_runs >= 2)
        print_comparison(f, res, by_command, has_reference);
    return ferror(f) ? -EIO : 0;
}
