/*
 * diags.c - the records a reader skipped, handed back to the caller
 * instead of printed: the library does not write to stderr, the command
 * line does. The first BL_DIAGS_KEEP are kept in full, the rest only
 * counted, so that a file of a million malformed lines costs no more
 * memory than a file of a hundred.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/format.h"

int bl_diags_add(bl_diags *d, const char *where, const char *fmt, ...)
{
    if (!d)
        return 0;
    d->n_total++;
    if (d->n >= BL_DIAGS_KEEP)
        return 0;
    struct bl__buf msg = {0};
    va_list ap;
    va_start(ap, fmt);
    int rc = bl__buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    char *w = bl__strdup(where ? where : "");
    if (rc || !w || bl__grow((void **)&d->items, &d->cap, d->n + 1, sizeof *d->items)) {
        free(w);
        bl__buf_fini(&msg);
        return -ENOMEM;
    }
    d->items[d->n].where = w;
    d->items[d->n].message = msg.data ? msg.data : bl__strdup("");
    d->n++;
    return 0;
}

void bl_diags_fini(bl_diags *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        free(d->items[i].where);
        free(d->items[i].message);
    }
    free(d->items);
    memset(d, 0, sizeof *d);
}
