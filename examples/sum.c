/* sum.c - the README tour: a one-file benchmark suite. Build against an installed benchlab:
 *     cc -O2 sum.c $(pkg-config --cflags --libs benchlab) -o sum
 */
#include <benchlab.h>
#include <stdlib.h>

BENCHLAB(Sum, .params = BL_PARAMS(BL_INTS("size", 64, 4096)))
{
    long n = bl_param_int(st, "size");
    int *a = calloc(n, sizeof *a);
    while (bl_loop(st)) {
        long s = 0;
        for (long i = 0; i < n; i++)
            s += a[i];
        bl_do_not_optimize(s);
    }
    free(a);
    bl_set_bytes_per_op(st, n * sizeof *a);
}

BENCHLAB_MAIN()
