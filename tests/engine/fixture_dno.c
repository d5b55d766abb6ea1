/*
 * fixture_dno.c - proof that bl_do_not_optimize keeps an optimizable loop
 * body alive at -O3. The body is a chain of 64 dependent xorshift-multiply
 * rounds per repetition (not affine, so no compiler can fold it into one
 * step): about 300 cycles if executed. Without a sink, gcc and clang
 * delete it (the Unsunk control shows the compiler does); with the sink it
 * must stay. The test (e2e.sh, do-not-optimize-keeps-work) reads the
 * machine code of the three loops: the multiplies and stores are there or
 * not, whatever the machine's speed.
 */
#include <benchlab.h>
#include <stdint.h>

/* Straight-line code, not a loop: clang may not delete a loop it cannot
 * prove finite in C, which would make the control below prove nothing. */
#define R1 (x ^= x >> 29, x *= 0xbf58476d1ce4e5b9u)
#define R8 (R1, R1, R1, R1, R1, R1, R1, R1)
static inline uint64_t chain(uint64_t x)
{
    (void)R8, (void)R8, (void)R8, (void)R8, (void)R8, (void)R8, (void)R8, (void)R8;
    return x;
}

BENCHLAB(Sunk)
{
    uint64_t i = 0;
    while (bl_loop(st)) {
        bl_do_not_optimize(chain(i++));
    }
}

BENCHLAB(Unsunk)
{
    uint64_t i = 0;
    while (bl_loop(st)) {
        uint64_t r = chain(i++);
        (void)r;
    }
}

/* bl_escape + bl_clobber: stores into a buffer nobody reads must happen. */
BENCHLAB(Escaped)
{
    static uint64_t buf[64];
    bl_escape(buf);
    uint64_t i = 0;
    while (bl_loop(st)) {
        uint64_t x = i++;
        for (int k = 0; k < 64; k++)
            buf[k] = (R1, x);
        bl_clobber();
    }
}

BENCHLAB_MAIN()
