/*
 * test_unwind.c - the stack-copy unwinder (src/profile/unwind.c) on frames
 * whose call frame information is known, because we wrote it.
 *
 * A sample is taken where we choose: the code traps (ud2) and the SIGILL
 * handler keeps what the sampler keeps (pc, sp, the callee-saved registers
 * and the stack from sp up), then steps over the trap. The frames are shaped
 * as ld.so's lazy-binding path, where samples were seen to be cut (issue 25):
 * an outer frame whose CFA is in rbx (_dl_runtime_resolve), and a callee
 * that saves rbx and clobbers it (_dl_fixup), sampled in its body and again
 * after its epilogue popped rbx, where gcc's CFI still puts rbx in a slot
 * that now lies below the stack pointer.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include <cmocka.h>

#include "symbolize.h"

/* rbx_frame(): keeps its frame in rbx and calls saves_rbx(), which traps
 * twice: in its body (rbx clobbered, the caller's value in its slot) and
 * after `pop %rbx` (the CFI, as gcc writes epilogues, still names the slot). */
__asm__(".text\n"
        ".globl bl_test_rbx_frame\n"
        ".type bl_test_rbx_frame, @function\n"
        "bl_test_rbx_frame:\n"
        ".cfi_startproc\n"
        "    push %rbx\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset %rbx, -16\n"
        "    mov %rsp, %rbx\n"
        ".cfi_def_cfa_register %rbx\n"
        "    and $-64, %rsp\n"
        "    call bl_test_saves_rbx\n"
        ".globl bl_test_after_call\n"
        "bl_test_after_call:\n"
        "    mov %rbx, %rsp\n"
        ".cfi_def_cfa_register %rsp\n"
        "    pop %rbx\n"
        ".cfi_def_cfa_offset 8\n"
        ".cfi_restore %rbx\n"
        "    ret\n"
        ".cfi_endproc\n"
        ".size bl_test_rbx_frame, .-bl_test_rbx_frame\n"
        ".globl bl_test_saves_rbx\n"
        ".type bl_test_saves_rbx, @function\n"
        "bl_test_saves_rbx:\n"
        ".cfi_startproc\n"
        "    push %rbx\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset %rbx, -16\n"
        "    mov $0x5bad, %ebx\n"
        "    ud2\n"
        "    pop %rbx\n"
        ".cfi_def_cfa_offset 8\n"
        "    ud2\n"
        "    ret\n"
        ".cfi_endproc\n"
        ".size bl_test_saves_rbx, .-bl_test_saves_rbx\n");
void bl_test_rbx_frame(void);
extern const char bl_test_after_call[];

enum { MAX_WORDS = 1 << 16 };

struct sample {
    uint64_t pc, sp, saved[6]; /* rbp, rbx, r12-r15, as the sampler keeps them */
    uint64_t *stack;
    size_t n;
};

static struct sample g_samples[2];
static int g_taken;
static uintptr_t g_stack_top;

/* The stack is read word by word, as the sampler does: it holds the
 * sanitizer's red zones, which are no bug of ours to read. */
__attribute__((no_sanitize("address"))) static void on_trap(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)si;
    ucontext_t *uc = ctx;
    greg_t *g = uc->uc_mcontext.gregs;
    if (g_taken < 2) {
        struct sample *s = &g_samples[g_taken++];
        s->pc = (uint64_t)g[REG_RIP];
        s->sp = (uint64_t)g[REG_RSP];
        const int regs[6] = {REG_RBP, REG_RBX, REG_R12, REG_R13, REG_R14, REG_R15};
        for (int i = 0; i < 6; i++)
            s->saved[i] = (uint64_t)g[regs[i]];
        s->n = (g_stack_top - s->sp) / 8 < MAX_WORDS ? (g_stack_top - s->sp) / 8 : MAX_WORDS;
        const volatile uint64_t *from = (const volatile uint64_t *)s->sp;
        for (size_t i = 0; i < s->n; i++)
            s->stack[i] = from[i];
    }
    g[REG_RIP] += 2; /* over the ud2 */
}

static char *read_maps(size_t *n)
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char *text = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n + 4096 > cap) {
            cap = cap ? 2 * cap : 65536;
            text = realloc(text, cap);
            assert_non_null(text);
        }
        size_t got = fread(text + *n, 1, cap - *n - 1, f);
        if (got == 0)
            break;
        *n += got;
    }
    fclose(f);
    text[*n] = 0;
    char *line = strstr(text, "[stack]");
    assert_non_null(line);
    while (line > text && line[-1] != '\n')
        line--;
    unsigned long lo, hi;
    assert_int_equal(sscanf(line, "%lx-%lx", &lo, &hi), 2);
    g_stack_top = hi;
    return text;
}

__attribute__((noinline)) static void caller(void)
{
    bl_test_rbx_frame();
    __asm__ volatile("" ::: "memory"); /* a call, not a tail jump */
}

static const char *name_of(bl__symbolizer *sym, uint64_t addr)
{
    struct bl__frame f;
    return bl__symbolize(sym, addr, 0, &f) == 0 && f.name ? f.name : "?";
}

static void take_samples(bl__symbolizer **sym, char **maps)
{
    size_t n;
    *maps = read_maps(&n);
    for (int i = 0; i < 2; i++) {
        g_samples[i].stack = malloc(MAX_WORDS * 8);
        assert_non_null(g_samples[i].stack);
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_trap;
    sa.sa_flags = SA_SIGINFO;
    assert_int_equal(sigaction(SIGILL, &sa, &old), 0);
    g_taken = 0;
    caller();
    assert_int_equal(sigaction(SIGILL, &old, NULL), 0);
    assert_int_equal(g_taken, 2);
    *sym = bl__symbolizer_create(*maps, n);
    assert_non_null(*sym);
}

/* Both samples unwind to the program's start, through the rbx frame and
 * into caller(). After the pop, rbx is only in the registers: with rbp
 * alone (raw files written before the sampler kept the others) the rbx
 * frame stops the walk. */
static void frames_kept_in_rbx_unwind_to_the_start(void **state)
{
    (void)state;
    bl__symbolizer *sym;
    char *maps;
    take_samples(&sym, &maps);
    for (int i = 0; i < 2; i++) {
        struct sample *s = &g_samples[i];
        assert_string_equal(name_of(sym, s->pc), "bl_test_saves_rbx");
        uint64_t callers[256];
        enum bl__unwind_end end;
        size_t n = bl__unwind_dwarf(sym, s->pc, s->sp, s->saved, 6, s->stack, s->n, NULL, 0,
                                    callers, 256, &end);
        if (end != BL__UNWIND_OUTERMOST || n < 2 || callers[0] != (uint64_t)bl_test_after_call) {
            for (size_t k = 0; k < n; k++)
                fprintf(stderr, "  sample %d frame %zu: %s\n", i, k, name_of(sym, callers[k]));
            fail_msg("sample %d (%s): expected an unwind to the start through "
                     "bl_test_rbx_frame into caller, got %zu frames, end %d",
                     i, i ? "after pop %rbx" : "rbx clobbered", n, (int)end);
        }
        assert_string_equal(name_of(sym, callers[1] - 1), "caller");
        if (i == 0)
            continue; /* there the callee's slot gives rbx, even to an old file */
        size_t n_old = bl__unwind_dwarf(sym, s->pc, s->sp, s->saved, 1, s->stack, s->n, NULL, 0,
                                        callers, 256, &end);
        assert_int_equal(end, BL__UNWIND_STOPPED);
        assert_int_equal(n_old, 1); /* bl_test_rbx_frame's return address, no more */
    }
    bl__symbolizer_destroy(sym);
    free(maps);
    for (int i = 0; i < 2; i++)
        free(g_samples[i].stack);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frames_kept_in_rbx_unwind_to_the_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
