/*
 * fixture_longname.c - a parameter value of 70 KB, so that one instance's
 * name makes a Go result line longer than benchstat reads (64 KiB): the
 * run must refuse that line, say so and exit 2, and write the others.
 */
#include <benchlab.h>
#include <string.h>

static char big[70001];

__attribute__((constructor)) static void fill_big(void)
{
    memset(big, 'v', sizeof big - 1);
}

BENCHLAB(Long, .params = BL_PARAMS(BL_STRS("v", "short", big)))
{
    while (bl_loop(st)) {
    }
}

BENCHLAB_MAIN()
