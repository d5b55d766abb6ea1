/*
 * unwind.c - the call chains of samples, from the modules symbolize.c opened.
 *
 * The leaf fix-up: a frame-pointer walk from a function that has not (or no
 * longer) set up its frame skips that function's caller, whose return
 * address is then the word at the top of the stack. We decide offline, from
 * the function's code bytes, whether that is the case; samples without a
 * chain (off-CPU) are unwound by that scan alone. And the unwinding of a
 * copied stack (sampling with --unwind dwarf): frame by frame with the
 * module's call frame information (.eh_frame, through libdw), else by the
 * frame pointer, then along the chain the sampler walked above the copy.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize.h"
#include "symbolize_modules.h"

static int read_code(const bl__symbolizer *s, uint64_t addr, unsigned char *buf, size_t n)
{
    const struct mapping *mp = bl__find_mapping(s, addr);
    if (!mp || !mp->mod || mp->mod->fd < 0 || addr + n > mp->end)
        return -1;
    off_t off = (off_t)(addr - mp->start + mp->offset);
    return pread(mp->mod->fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

/*
 * Can a call into the PLT stub at `target` (in mapping plt_map) reach
 * callee_start? A stub named S@plt jumps to whatever symbol S resolves
 * to, so only to a callee of that name; a stub without a symbol (an
 * IRELATIVE slot: glibc's strlen and friends) to code of its own module.
 * Without this, a stale return address left by libc's getenv calling
 * its strlen through such a stub passed for main's caller.
 */
static int plt_reaches(bl__symbolizer *s, const struct mapping *plt_map, uint64_t target,
                       uint64_t callee_start)
{
    struct bl__frame stub, callee;
    if (bl__symbolize(s, callee_start, 0, &callee) != 0)
        return 1; /* nothing to hold the stub against */
    if (bl__symbolize(s, target, 0, &stub) == 0 && stub.name) {
        size_t n = strlen(stub.name);
        if (n > 4 && strcmp(stub.name + n - 4, "@plt") == 0)
            return callee.name && strlen(callee.name) == n - 4 &&
                   strncmp(callee.name, stub.name, n - 4) == 0;
    }
    const struct mapping *cm = bl__find_mapping(s, callee_start);
    return cm && cm->mod == plt_map->mod;
}

/* Is `ret` a return address: just after a call to `callee_start` (or to a PLT stub that can
 * reach it, or indirect)? */
static int follows_call(bl__symbolizer *s, uint64_t ret, uint64_t callee_start)
{
    unsigned char b[7];
    if (ret < 7 || read_code(s, ret - 7, b, 7) != 0)
        return 0;
    if (b[2] == 0xe8) { /* call rel32 */
        int32_t rel;
        memcpy(&rel, b + 3, 4);
        uint64_t target = ret + (uint64_t)(int64_t)rel;
        if (target == callee_start || callee_start == 0)
            return 1;
        const struct mapping *mp = bl__find_mapping(s, target);
        uint64_t vaddr;
        if (!mp || !mp->mod || bl__mapping_vaddr(mp, target, &vaddr) != 0 ||
            !bl__in_plt(mp->mod, vaddr))
            return 0;
        return plt_reaches(s, mp, target, callee_start);
    }
    /* call *disp32(%rip) (ff 15), call *%reg (ff d0+r), call *(%reg) forms */
    if (b[1] == 0xff && b[2] == 0x15)
        return 1;
    if (b[5] == 0xff && (b[6] & 0xf8) == 0xd0)
        return 1;
    if (b[4] == 0xff && ((b[5] >> 3) & 7) == 2)
        return 1;
    return 0;
}

/*
 * Does the function starting at `start` set up a frame pointer? We look for
 * push %rbp and, a few bytes on, mov %rsp,%rbp: gcc may schedule another
 * instruction between them, or shrink-wrap the prologue after an early exit
 * test. *push_at and *body_at bracket the code where rbp is not yet ours.
 */
static int frame_prologue(bl__symbolizer *s, uint64_t start, uint64_t *push_at, uint64_t *body_at)
{
    unsigned char b[64];
    if (!start || read_code(s, start, b, sizeof b) != 0)
        return 0;
    for (size_t i = 0; i < 32; i++) {
        if (b[i] != 0x55)
            continue;
        for (size_t j = i + 1; j < i + 24 && j + 3 <= sizeof b; j++)
            if (b[j] == 0x48 && b[j + 1] == 0x89 && b[j + 2] == 0xe5) {
                *push_at = start + i;
                *body_at = start + j + 3;
                return 1;
            }
    }
    return 0;
}

/*
 * Return addresses are the words that follow a call to the function we are
 * in (checked on the call instruction when it is direct). With stop_at_fp we
 * stop at the first return into code that keeps a frame pointer: the
 * frame-pointer chain goes on from its frame.
 */
static size_t scan_frames(bl__symbolizer *s, uint64_t callee, const uint64_t *scan, size_t n_scan,
                          size_t from, int stop_at_fp, uint64_t first_ret, uint64_t *callers,
                          size_t max)
{
    size_t n = 0;
    uint64_t push_at, body_at;
    for (size_t i = from; i < n_scan && n < max; i++) {
        uint64_t w = scan[i];
        if (first_ret && w == first_ret)
            break;
        if (w < 4096 || !follows_call(s, w, callee))
            continue;
        callers[n++] = w;
        struct bl__frame g;
        if (bl__symbolize(s, w - 1, 0, &g) != 0 || !g.start)
            break;
        if (stop_at_fp && frame_prologue(s, g.start, &push_at, &body_at))
            break;
        callee = g.start;
    }
    return n;
}

size_t bl__fixup_frames(bl__symbolizer *s, uint64_t pc, const uint64_t *scan, size_t n_scan,
                        uint64_t first_ret, uint64_t *callers, size_t max)
{
    struct bl__frame f;
    if (bl__symbolize(s, pc, 0, &f) != 0)
        f.start = 0;
    uint64_t push_at, body_at;
    size_t from = 0;
    if (frame_prologue(s, f.start, &push_at, &body_at)) {
        unsigned char op = 0;
        /* Before the frame is set up or at the final ret, the scan below
         * finds the return address (a saved rbp never follows a call). */
        if (pc >= body_at && !(read_code(s, pc, &op, 1) == 0 && op == 0xc3))
            return 0; /* inside the body: the frame-pointer chain is complete */
    }
    return scan_frames(s, f.start, scan, n_scan, from, 1, first_ret, callers, max);
}

size_t bl__unwind_by_scan(bl__symbolizer *s, uint64_t pc, const uint64_t *scan, size_t n_scan,
                          uint64_t *callers, size_t max)
{
    struct bl__frame f;
    if (bl__symbolize(s, pc, 0, &f) != 0)
        f.start = 0;
    return scan_frames(s, f.start, scan, n_scan, 0, 0, 0, callers, max);
}

/* ---- DWARF unwinding of a stack copy (sampling with --unwind dwarf) ---- */

enum { REG_RBX = 3, REG_RBP = 6, REG_RSP = 7, REG_RA = 16 };

/* The callee-saved registers (DWARF numbers), in the order the sampler keeps
 * them: a caller's value of each is the callee's CFI rule, or its own */
static const int saved_regs[] = {REG_RBP, REG_RBX, 12, 13, 14, 15};
enum { N_SAVED = sizeof saved_regs / sizeof saved_regs[0] };

struct unwind_regs {
    uint64_t val[17];
    unsigned known; /* bit per register */
};

struct stack_copy {
    uint64_t base; /* address of words[0] */
    const uint64_t *words;
    size_t n;
};

static int read_stack(const struct stack_copy *st, uint64_t addr, uint64_t *out)
{
    if (addr < st->base || addr % 8 || (addr - st->base) / 8 >= st->n)
        return -1;
    *out = st->words[(addr - st->base) / 8];
    return 0;
}

/* Evaluate a CFI expression (the forms gcc and clang emit). Returns 0 and *out. */
static int eval_ops(const Dwarf_Op *ops, size_t n, const struct unwind_regs *r, uint64_t cfa,
                    int *is_value, uint64_t *out)
{
    uint64_t stack[8];
    size_t sp = 0;
    *is_value = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned atom = ops[i].atom;
        if ((atom >= DW_OP_breg0 && atom <= DW_OP_breg16) || atom == DW_OP_bregx) {
            /* libdw gives the CFA rule "reg + offset" as DW_OP_bregx reg, offset */
            uint64_t reg = atom == DW_OP_bregx ? ops[i].number : atom - DW_OP_breg0;
            uint64_t off = atom == DW_OP_bregx ? ops[i].number2 : ops[i].number;
            if (reg > 16 || !(r->known & (1u << reg)) || sp == 8)
                return -1;
            stack[sp++] = r->val[reg] + off;
        } else if (atom == DW_OP_call_frame_cfa) {
            if (sp == 8)
                return -1;
            stack[sp++] = cfa;
        } else if (atom == DW_OP_plus_uconst) {
            if (sp < 1)
                return -1;
            stack[sp - 1] += ops[i].number;
        } else if (atom == DW_OP_consts || atom == DW_OP_constu ||
                   (atom >= DW_OP_lit0 && atom <= DW_OP_lit31)) {
            if (sp == 8)
                return -1;
            stack[sp++] =
                atom >= DW_OP_lit0 && atom <= DW_OP_lit31 ? atom - DW_OP_lit0 : ops[i].number;
        } else if (atom == DW_OP_plus || atom == DW_OP_minus) {
            if (sp < 2)
                return -1;
            sp--;
            stack[sp - 1] =
                atom == DW_OP_plus ? stack[sp - 1] + stack[sp] : stack[sp - 1] - stack[sp];
        } else if (atom == DW_OP_and || atom == DW_OP_or || atom == DW_OP_shl ||
                   atom == DW_OP_shr || atom == DW_OP_mul || atom == DW_OP_ge || atom == DW_OP_gt ||
                   atom == DW_OP_le || atom == DW_OP_lt || atom == DW_OP_eq || atom == DW_OP_ne) {
            /* binary operators: the PLT's CFA is rsp + 8 + ((rip & 15) >= 11) << 3 */
            if (sp < 2)
                return -1;
            sp--;
            uint64_t a = stack[sp - 1], b = stack[sp];
            int64_t sa = (int64_t)a, sb = (int64_t)b;
            uint64_t v = atom == DW_OP_and   ? a & b
                         : atom == DW_OP_or  ? a | b
                         : atom == DW_OP_shl ? (b < 64 ? a << b : 0)
                         : atom == DW_OP_shr ? (b < 64 ? a >> b : 0)
                         : atom == DW_OP_mul ? a * b
                         : atom == DW_OP_ge  ? sa >= sb
                         : atom == DW_OP_gt  ? sa > sb
                         : atom == DW_OP_le  ? sa <= sb
                         : atom == DW_OP_lt  ? sa < sb
                         : atom == DW_OP_eq  ? a == b
                                             : a != b;
            stack[sp - 1] = v;
        } else if (atom == DW_OP_stack_value) {
            *is_value = 1;
        } else {
            return -1; /* DW_OP_deref and friends: signal frames */
        }
    }
    if (sp != 1)
        return -1;
    *out = stack[0];
    return 0;
}

/* A register's value in the caller: 0 on success, 1 when undefined, -1 when unknown. */
static int caller_reg(Dwarf_Frame *frame, int reg, const struct unwind_regs *r, uint64_t cfa,
                      const struct stack_copy *st, uint64_t *out)
{
    Dwarf_Op mem[3], *ops = NULL;
    size_t n = 0;
    if (dwarf_frame_register(frame, reg, mem, &ops, &n) != 0)
        return -1;
    if (n == 0) {
        /* the return address undefined (libdw reports DW_CFA_undefined rip
         * of _start and clone3 as "same value"): the outermost frame. A
         * callee-saved register that the CFI does not mention (libdw
         * without the ABI's initial rules says undefined) keeps its value */
        if (reg == REG_RA)
            return 1;
        if (!(r->known & (1u << reg)))
            return -1;
        *out = r->val[reg]; /* same value */
        return 0;
    }
    int is_value;
    uint64_t v;
    if (eval_ops(ops, n, r, cfa, &is_value, &v) != 0)
        return -1;
    if (is_value) {
        *out = v;
        return 0;
    }
    if (v < r->val[REG_RSP] && reg != REG_RA && (r->known & (1u << reg))) {
        /* a save slot below the stack pointer was popped already: gcc's
         * epilogues move the CFA but do not say that the pops restored
         * the registers, so the register holds the caller's value */
        *out = r->val[reg];
        return 0;
    }
    return read_stack(st, v, out);
}

/*
 * One step by the frame pointer, for code without call frame information
 * that keeps one (JIT code, hand-written assembly). Before the frame is set
 * up the return address is at sp (before push %rbp) or sp + 8 (after it).
 */
static int fp_step(bl__symbolizer *s, struct unwind_regs *r, const struct stack_copy *st,
                   uint64_t *cfa, uint64_t *ra, uint64_t *rbp, int *rbp_known)
{
    struct bl__frame f;
    uint64_t ip = r->val[REG_RA], push_at, body_at;
    if (bl__symbolize(s, ip, 0, &f) != 0 || !frame_prologue(s, f.start, &push_at, &body_at))
        return -1;
    uint64_t sp = r->val[REG_RSP];
    *rbp_known = 1;
    *rbp = r->val[REG_RBP];
    if (ip <= push_at) {
        *cfa = sp + 8;
        *rbp_known = (r->known >> REG_RBP) & 1;
    } else if (ip < body_at) {
        *cfa = sp + 16;
        if (read_stack(st, sp, rbp) != 0)
            return -1;
    } else {
        if (!(r->known & (1u << REG_RBP)))
            return -1;
        *cfa = r->val[REG_RBP] + 16;
        if (read_stack(st, r->val[REG_RBP], rbp) != 0)
            return -1;
    }
    return read_stack(st, *cfa - 8, ra);
}

/* Does the function at `ip` keep its frame in rbp at ip (its frame set up)? */
static int frame_is_set_up(bl__symbolizer *s, uint64_t ip)
{
    struct bl__frame f;
    uint64_t push_at, body_at;
    unsigned char op = 0;
    return bl__symbolize(s, ip, 0, &f) == 0 && frame_prologue(s, f.start, &push_at, &body_at) &&
           ip >= body_at && !(read_code(s, ip, &op, 1) == 0 && op == 0xc3);
}

int bl__frame_pointer_at(bl__symbolizer *s, uint64_t addr)
{
    const struct mapping *mp = bl__find_mapping(s, addr);
    uint64_t vaddr;
    if (!mp || !mp->mod || !mp->mod->elf || bl__mapping_vaddr(mp, addr, &vaddr) != 0)
        return 0;
    Dwarf_CFI *cfi = bl__module_cfi(mp->mod);
    Dwarf_Frame *frame = NULL;
    if (cfi && dwarf_cfi_addrframe(cfi, vaddr, &frame) == 0) {
        /* the code's own word: the frame is at rbp when the CFA is rbp + 16 */
        Dwarf_Op *ops = NULL;
        size_t n_ops = 0;
        int fp =
            dwarf_frame_cfa(frame, &ops, &n_ops) == 0 && n_ops == 1 &&
            ((ops[0].atom == DW_OP_bregx && ops[0].number == REG_RBP && ops[0].number2 == 16) ||
             (ops[0].atom == DW_OP_breg0 + REG_RBP && ops[0].number == 16));
        free(frame);
        return fp;
    }
    return frame_is_set_up(s, addr); /* no CFI: the prologue's bytes */
}

size_t bl__unwind_dwarf(bl__symbolizer *s, uint64_t pc, uint64_t sp, const uint64_t *saved,
                        size_t n_saved, const uint64_t *stack, size_t n_stack,
                        const uint64_t *chain, size_t n_chain, uint64_t *callers, size_t max,
                        enum bl__unwind_end *end)
{
    struct stack_copy st = {sp, stack, n_stack};
    struct unwind_regs r = {{0}, 0};
    r.val[REG_RA] = pc;
    r.val[REG_RSP] = sp;
    r.known = 1u << REG_RA | 1u << REG_RSP;
    for (size_t i = 0; i < n_saved && i < N_SAVED; i++) {
        r.val[saved_regs[i]] = saved[i];
        r.known |= 1u << saved_regs[i];
    }
    size_t n = 0;
    *end = BL__UNWIND_STOPPED;
    for (int first = 1; n < max; first = 0) {
        uint64_t ip = r.val[REG_RA];
        /* a return address points after the call: look up the call itself */
        uint64_t lookup = first ? ip : ip - 1;
        const struct mapping *mp = bl__find_mapping(s, lookup);
        uint64_t vaddr;
        if (!mp || !mp->mod || !mp->mod->elf || bl__mapping_vaddr(mp, lookup, &vaddr) != 0)
            break;
        struct module *m = mp->mod;
        bl__module_cfi(m);
        Dwarf_Frame *frame = NULL;
        uint64_t cfa = 0, ra = 0;
        /* the caller's callee-saved registers, each found or not */
        struct unwind_regs next = {{0}, 0};
        int ok = 0, outermost = 0;
        if (m->cfi && dwarf_cfi_addrframe(m->cfi, vaddr, &frame) == 0) {
            Dwarf_Op *ops = NULL;
            size_t n_ops = 0;
            int is_value;
            ok = dwarf_frame_cfa(frame, &ops, &n_ops) == 0 &&
                 eval_ops(ops, n_ops, &r, 0, &is_value, &cfa) == 0;
            int ra_state = ok ? caller_reg(frame, REG_RA, &r, cfa, &st, &ra) : -1;
            outermost = ra_state == 1;
            ok = ok && ra_state == 0;
            for (int i = 0; ok && i < N_SAVED; i++) {
                int reg = saved_regs[i];
                if (caller_reg(frame, reg, &r, cfa, &st, &next.val[reg]) == 0)
                    next.known |= 1u << reg;
            }
            free(frame);
        } else if (bl__in_plt(m, vaddr)) {
            /* a PLT stub without CFI: only a jump, the return address on top */
            cfa = r.val[REG_RSP] + 8;
            ok = read_stack(&st, r.val[REG_RSP], &ra) == 0;
            next = r;
        } else {
            /* no call frame information here: the frame pointer, where the
             * code keeps one; where it saved the others is not known */
            int rbp_known = 0;
            ok = fp_step(s, &r, &st, &cfa, &ra, &next.val[REG_RBP], &rbp_known) == 0;
            next.known = ok && rbp_known ? 1u << REG_RBP : 0;
        }
        if (outermost) {
            *end = BL__UNWIND_OUTERMOST; /* _start, clone3: the return address is undefined */
            break;
        }
        if (!ok && cfa >= sp + 8 * n_stack && n_stack > 0) {
            /* ran past the copy: go on along the frame-pointer chain the
             * sampler walked, if this frame is one of its links */
            size_t i = 0;
            if ((r.known & (1u << REG_RBP)) && bl__frame_pointer_at(s, first ? ip : ip - 1))
                while (i < n_chain && chain[2 * i] != r.val[REG_RBP])
                    i++;
            else
                i = n_chain;
            if (i == n_chain) {
                *end = BL__UNWIND_COPY_END;
                break;
            }
            for (; i < n_chain && n < max; i++)
                callers[n++] = chain[2 * i + 1];
            *end = BL__UNWIND_CHAIN;
            break;
        }
        if (ok && ra == 0) {
            *end = BL__UNWIND_OUTERMOST; /* a thread's stack ends in zeros (clone3's child) */
            break;
        }
        /* ra == ip is a recursion; a frame that does not move up the stack ends the walk */
        if (!ok || cfa <= r.val[REG_RSP] || !bl__find_mapping(s, ra - 1))
            break;
        callers[n++] = ra;
        next.val[REG_RA] = ra;
        next.val[REG_RSP] = cfa;
        next.known |= 1u << REG_RA | 1u << REG_RSP;
        r = next;
    }
    return n;
}
