/*
 * fixture_instr.c - benchmarks whose instruction counts are known exactly,
 * for the ground truth of --instructions (instructions.sh).
 */
#include <benchlab.h>

/* exactly 99 nops and a ret: 100 instructions a call, 101 with the call */
void bl_test_known100(void);
__asm__(".text\n"
        ".globl bl_test_known100\n"
        ".type bl_test_known100, @function\n"
        "bl_test_known100:\n"
        ".rept 99\n"
        "nop\n"
        ".endr\n"
        "ret\n"
        ".size bl_test_known100, .-bl_test_known100\n");

#define NOPS_1000 __asm__ volatile(".rept 1000\n\tnop\n\t.endr")

BENCHLAB(Nops1000)
{
    while (bl_loop(st))
        NOPS_1000;
}

BENCHLAB(Empty)
{
    while (bl_loop(st)) {
    }
}

BENCHLAB(CallKnown)
{
    while (bl_loop(st))
        bl_test_known100();
}

BENCHLAB(Nops1000Threads, .threads = BL_THREADS(2))
{
    while (bl_loop(st))
        NOPS_1000;
}

/* setup and teardown out of the count: a pause around 2000 nops */
BENCHLAB(Nops1000Paused)
{
    while (bl_loop(st)) {
        bl_pause(st);
        NOPS_1000;
        NOPS_1000;
        bl_resume(st);
        NOPS_1000;
    }
}

/* a string routine glibc picks by the CPU (instructions.c pins it) */
#include <string.h>
static char text[4096];
BENCHLAB(Strlen)
{
    memset(text, 'x', sizeof text - 1);
    while (bl_loop(st)) {
        size_t n = strlen(text);
        bl_do_not_optimize(n);
    }
}

BENCHLAB_MAIN()
