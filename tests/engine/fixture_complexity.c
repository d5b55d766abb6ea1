/*
 * fixture_complexity.c - complexity fits for the end-to-end tests (e2e.sh,
 * cases complexity-*): a fixed curve, a curve of the benchmark's own, a
 * benchmark fitted only with --complexity, and the registrations that
 * cannot be fitted (which parameter is n?).
 */
#include <benchlab.h>
#include <math.h>
#include <stdint.h>

/* n dependent steps: the time grows as n, whatever the machine */
static void steps(bl_state *st, long long n)
{
    uint64_t x = 1;
    while (bl_loop(st)) {
        for (long long i = 0; i < n; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
        bl_do_not_optimize(x);
    }
}

BENCHLAB(Linear, .params = BL_PARAMS(BL_INTS("n", 1000, 2000, 4000, 8000)), .complexity = BL_ON)
{
    steps(st, bl_param_int(st, "n"));
}

static double n_sqrt_n(double n)
{
    return n * sqrt(n);
}

/* only a curve of its own: that curve is fitted */
BENCHLAB(Own, .params = BL_PARAMS(BL_INTS("n", 16, 64, 256)), .complexity_curve = n_sqrt_n,
         .complexity_curve_name = "n^1.5")
{
    long long n = bl_param_int(st, "n");
    steps(st, (long long)n_sqrt_n((double)n));
}

/* nothing registered: fitted with --complexity only */
BENCHLAB(Unasked, .params = BL_PARAMS(BL_INTS("len", 500, 1000, 2000, 4000)))
{
    steps(st, bl_param_int(st, "len"));
}

/* the size is named among several parameters; the others make groups */
BENCHLAB(Named,
         .params = BL_PARAMS(BL_STRS("kind", "a", "b"), BL_INTS("depth", 1),
                             BL_INTS("n", 1000, 2000, 4000)),
         .complexity = BL_COMPLEXITY_AUTO, .complexity_param = "n")
{
    steps(st, bl_param_int(st, "n"));
}

BENCHLAB(OneSize, .params = BL_PARAMS(BL_INTS("n", 1000)), .complexity = BL_COMPLEXITY_AUTO)
{
    steps(st, bl_param_int(st, "n"));
}

/* log n and n^k need n >= 1 */
BENCHLAB(ZeroSize, .params = BL_PARAMS(BL_INTS("n", 0, 10, 20)), .complexity = BL_COMPLEXITY_AUTO)
{
    steps(st, bl_param_int(st, "n"));
}

BENCHLAB(WhichN, .params = BL_PARAMS(BL_INTS("a", 1), BL_INTS("b", 2)),
         .complexity = BL_COMPLEXITY_AUTO)
{
    steps(st, 10);
}

BENCHLAB(NoSuchN, .params = BL_PARAMS(BL_INTS("a", 1)), .complexity = BL_ON,
         .complexity_param = "size")
{
    steps(st, 10);
}

BENCHLAB(StringN, .params = BL_PARAMS(BL_STRS("size", "big")), .complexity = BL_ON,
         .complexity_param = "size")
{
    steps(st, 10);
}

/* the size is set by the body (bl_set_complexity_n), not a parameter's
 * value: k = 1, 2, 4 thousand steps, n said as k x 1000 */
BENCHLAB(BodyN, .params = BL_PARAMS(BL_INTS("k", 1, 2, 4)), .complexity = BL_ON)
{
    long long n = bl_param_int(st, "k") * 1000;
    steps(st, n);
    bl_set_complexity_n(st, n);
}

/* instances named by the layer above (.raw_name), grouped by
 * .complexity_group: Google Benchmark's families */
#define GROUPED(id, n)                                                                             \
    BENCHLAB(id, .raw_name = 1, .complexity = BL_COMPLEXITY_AUTO, .complexity_group = "Fam")       \
    {                                                                                              \
        steps(st, n);                                                                              \
        bl_set_complexity_n(st, n);                                                                \
    }
GROUPED(Fam_1000, 1000)
GROUPED(Fam_2000, 2000)
GROUPED(Fam_4000, 4000)

/* a group without n: the body never says it */
BENCHLAB(Lost, .raw_name = 1, .complexity = BL_ON, .complexity_group = "Lost")
{
    steps(st, 10);
}

static double max_of(const double *v, size_t n, const void *data)
{
    (void)data;
    double m = v[0];
    for (size_t i = 1; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

/* a statistic of its own over the launches */
BENCHLAB(WithMax,
         .statistics = (const bl_statistic[]){{"max", max_of, NULL, 0}, {NULL, NULL, NULL, 0}})
{
    steps(st, 100);
}

BENCHLAB_MAIN()
