/*
 * changes.c - the change points of a stored history: each series' centres
 * through bl_changes_detect (stats/changepoint.c), with the runs' ids and
 * commits beside them, as the report bl_changes_write prints
 * (`benchlab history --changes`; docs/store.md, "Change points").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

void bl_store_changes_free(bl_changes_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_series; i++) {
        bl_changes_series *se = (bl_changes_series *)&r->series[i];
        free((void *)se->run_ids);
        free((void *)se->commits);
        free((void *)se->changes);
        free((void *)se->acked);
    }
    free((void *)r->series);
    memset(r, 0, sizeof *r);
}

/* One series: its values without the runs that gave none. */
static int series_changes(const bl_store_history *h, const bl_store_series *in,
                          const bl_changes_options *o, bl_changes_series *out)
{
    double *x = malloc((in->n_points + 1) * sizeof *x);
    int64_t *ids = malloc((in->n_points + 1) * sizeof *ids);
    const char **commits = malloc((in->n_points + 1) * sizeof *commits);
    int rc = x && ids && commits ? 0 : -ENOMEM;
    size_t n = 0;
    for (size_t i = 0; !rc && i < in->n_points; i++) {
        const bl_store_point *p = &in->points[i];
        if (!isfinite(p->centre))
            continue;
        x[n] = p->centre;
        ids[n] = h->runs[p->run].id;
        commits[n] = h->runs[p->run].commit;
        n++;
    }
    bl_change *ch = NULL;
    size_t n_ch = 0;
    if (!rc)
        rc = bl_changes_detect(x, n, o, &ch, &n_ch);
    free(x);
    if (rc) {
        free(ids);
        free(commits);
        return rc;
    }
    *out = (bl_changes_series){.name = in->name,
                               .n = n,
                               .run_ids = ids,
                               .commits = commits,
                               .changes = ch,
                               .n_changes = n_ch};
    return 0;
}

int bl_store_history_changes(const bl_store_history *h, const bl_changes_options *options,
                             bl_changes_report *out)
{
    memset(out, 0, sizeof *out);
    bl_changes_options o;
    bl_changes_options_init(&o);
    if (options) {
        /* the defaults filled in as bl_changes_detect fills them, for the report */
        if (options->alpha > 0)
            o.alpha = options->alpha;
        if (options->threshold >= 0)
            o.threshold = options->threshold;
        if (options->min_runs)
            o.min_runs = options->min_runs;
        if (options->permutations)
            o.permutations = options->permutations;
        if (options->outlier_k > 0)
            o.outlier_k = options->outlier_k;
    }
    out->options = o;
    out->n_runs = h->n_runs;
    bl_changes_series *se = calloc(h->n_series + 1, sizeof *se);
    if (!se)
        return -ENOMEM;
    out->series = se;
    int rc = 0;
    for (size_t i = 0; i < h->n_series && !rc; i++) {
        rc = series_changes(h, &h->series[i], options, &se[i]);
        if (!rc)
            out->n_series++;
    }
    if (rc)
        bl_store_changes_free(out);
    return rc;
}
