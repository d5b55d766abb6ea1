/* check.c - what a failed BL__CHECK does: names the invariant and where it
 * is stated, then aborts (base.h). */
#include <stdio.h>
#include <stdlib.h>

#include "base.h"

void bl__check_failed(const char *cond, const char *file, int line)
{
    /* the one place the library writes to stderr: a broken invariant is a
     * bug in benchlab, and the process is about to abort */
    dprintf(2, "benchlab: internal check failed: %s (%s:%d)\n", cond, file, line);
    abort();
}
