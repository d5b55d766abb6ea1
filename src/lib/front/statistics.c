/*
 * statistics.c - the statistics a definition brings of its own
 * (.statistics, Google Benchmark's ComputeStatistics) on the suite's side.
 *
 * Only the suite's own runner has the functions (they live in the suite's
 * code), so bl_run_main attaches each definition's list to its benchmark's
 * results here, from this process's registry, before anything is written;
 * Google Benchmark's writers (format/gbench_*.c) then add the rows, and the
 * lines below follow benchlab's table. `benchlab run SUITE` has no such
 * functions in its process: there the list stays NULL.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../bench/bench.h"
#include "benchlab.h"
#include "benchlab/format.h"
#include "front.h"

void bl__statistics_attach(bl_results *res)
{
    for (size_t i = 0; res && i < res->n_benches; i++) {
        const struct bl__instance *in = bl__registry_find(res->benches[i].name);
        res->benches[i].statistics = in ? in->def->statistics : NULL;
    }
}

void bl__statistics_write(FILE *f, const bl_results *res)
{
    int header = 0;
    for (size_t i = 0; res && i < res->n_benches; i++) {
        const bl_bench_result *b = &res->benches[i];
        if (!b->statistics || !b->statistics[0].name)
            continue;
        double *v = malloc((b->n_launches ? b->n_launches : 1) * sizeof *v);
        size_t n = 0;
        for (size_t j = 0; v && j < b->n_launches; j++) {
            const bl_launch *l = &b->launches[j];
            if (!l->status && !l->skipped && isfinite(l->ns_per_op))
                v[n++] = l->ns_per_op;
        }
        if (n >= 2 && !header) {
            fputs("\nstatistics of their own, over the launches' times per op:\n", f);
            header = 1;
        }
        for (const bl_statistic *s = b->statistics; n >= 2 && s->name; s++) {
            if (!s->fn)
                continue;
            double x = s->fn(v, n, s->data);
            char text[64];
            if (s->percentage)
                snprintf(text, sizeof text, "%.2f%%", 100 * x);
            else
                bl_format_duration(text, sizeof text, x);
            fprintf(f, "  %s  %s  %s  (%zu launches)\n", b->name, s->name, text, n);
        }
        if (n < 2)
            fprintf(f, "%s: statistics of its own need 2 launches or more (--count), has %zu\n",
                    b->name, n);
        free(v);
    }
}
