/*
 * fixture_store.c - a small, quick suite for the store's end-to-end tests.
 * FIXTURE_FACTOR=K makes BenchmarkWork K times more work per op, so that a
 * test can make a run that is certainly slower (or faster) than another
 * on any machine, however noisy: the judge tests need known answers.
 */
#include <benchlab.h>
#include <stdlib.h>

static unsigned spin(unsigned n)
{
    unsigned x = 1;
    for (unsigned i = 0; i < n; i++)
        x = x * 1103515245u + 12345u;
    return x;
}

BENCHLAB(Work, .params = BL_PARAMS(BL_INTS("n", 200, 400)))
{
    unsigned n = (unsigned)bl_param_int(st, "n");
    const char *f = getenv("FIXTURE_FACTOR");
    if (f && atoi(f) > 0)
        n *= (unsigned)atoi(f);
    while (bl_loop(st))
        bl_do_not_optimize(spin(n));
}

BENCHLAB(Steady)
{
    while (bl_loop(st))
        bl_do_not_optimize(spin(300));
}

BENCHLAB_MAIN()
