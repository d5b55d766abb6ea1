/*
 * skipped.c - printing the records a reader skipped (bl_diags), one line
 * each on stderr, and the exit status that says input was skipped.
 */
#include <stdio.h>

#include "benchlab/format.h"
#include "cli.h"

int cli_print_skipped(const char *cmd, const bl_diags *d)
{
    for (size_t i = 0; i < d->n; i++)
        fprintf(stderr, "%s: %s\n", d->items[i].where, d->items[i].message);
    if (d->n_total > d->n)
        fprintf(stderr, "%s: %zu more records skipped (not listed)\n", cmd, d->n_total - d->n);
    return d->n_total ? CLI_SKIPPED : 0;
}
