/*
 * buildinfo.c - how a suite was built, read from its executable: the
 * compiler and flags saved with a run (meta "compiler", "cflags").
 *
 * The flags come from DW_AT_producer of a compilation unit with debug
 * information ("GNU C17 12.2.0 -mtune=generic -march=x86-64 -g
 * -O2"): GCC records its command line there by default under -g
 * (-grecord-gcc-switches), clang with -grecord-command-line (without it,
 * clang's producer names the compiler only). The unit is
 * the one that holds `main` (.symtab and .debug_aranges), else the first.
 * Without debug information, the compiler comes from the .comment section
 * ("GCC: (Debian 12.2.0-14) 12.2.0") and the flags are unknown: left out
 * rather than guessed.
 *
 * Written here (a few ELF and DWARF headers) rather than with libdw, which
 * libbenchlab must not link.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/base.h"
#include "engine.h"

/* The few DWARF numbers read here (DWARF 5, section 7). */
enum {
    DW_UT_compile = 0x01,
    DW_TAG_compile_unit = 0x11,
    DW_AT_producer = 0x25,
    DW_FORM_string = 0x08,
    DW_FORM_strp = 0x0e,
    DW_FORM_line_strp = 0x1f,
    DW_FORM_implicit_const = 0x21,
    DW_FORM_strx = 0x1a,
    DW_FORM_strx1 = 0x25,
    DW_FORM_strx4 = 0x28,
    DW_AT_str_offsets_base = 0x72,
    DW_FORM_sec_offset = 0x17,
};

struct section {
    const unsigned char *p;
    size_t n;
};

struct elf {
    struct section info, abbrev, str, line_str, str_offsets, comment, aranges, symtab, strtab;
};

static int find_sections(const unsigned char *base, size_t size, struct elf *e)
{
    if (size < sizeof(Elf64_Ehdr) || memcmp(base, ELFMAG, SELFMAG) != 0 ||
        base[EI_CLASS] != ELFCLASS64)
        return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)base;
    if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size ||
        eh->e_shstrndx >= eh->e_shnum)
        return -1;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(const void *)(base + eh->e_shoff);
    const Elf64_Shdr *names = &sh[eh->e_shstrndx];
    if (names->sh_offset + names->sh_size > size)
        return -1;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_name >= names->sh_size || sh[i].sh_type == SHT_NOBITS ||
            sh[i].sh_offset + sh[i].sh_size > size || (sh[i].sh_flags & SHF_COMPRESSED))
            continue; /* compressed debug sections are not read */
        const char *name = (const char *)base + names->sh_offset + sh[i].sh_name;
        struct section s = {base + sh[i].sh_offset, sh[i].sh_size};
        if (strcmp(name, ".debug_info") == 0)
            e->info = s;
        else if (strcmp(name, ".debug_abbrev") == 0)
            e->abbrev = s;
        else if (strcmp(name, ".debug_str") == 0)
            e->str = s;
        else if (strcmp(name, ".debug_line_str") == 0)
            e->line_str = s;
        else if (strcmp(name, ".debug_str_offsets") == 0)
            e->str_offsets = s;
        else if (strcmp(name, ".debug_aranges") == 0)
            e->aranges = s;
        else if (strcmp(name, ".comment") == 0)
            e->comment = s;
        else if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < eh->e_shnum &&
                 sh[sh[i].sh_link].sh_offset + sh[sh[i].sh_link].sh_size <= size) {
            e->symtab = s;
            e->strtab =
                (struct section){base + sh[sh[i].sh_link].sh_offset, sh[sh[i].sh_link].sh_size};
        }
    }
    return 0;
}

static uint64_t uleb(const unsigned char **p, const unsigned char *end)
{
    uint64_t v = 0;
    for (int shift = 0; *p < end && shift < 64; shift += 7) {
        unsigned char b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    return v;
}

static uint32_t u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* A NUL-terminated string at off in s, or NULL. */
static const char *str_at(const struct section *s, uint64_t off)
{
    if (!s->p || off >= s->n || !memchr(s->p + off, 0, s->n - off))
        return NULL;
    return (const char *)s->p + off;
}

/* The address of `main` in .symtab; 0 when there is none. */
static uint64_t main_address(const struct elf *e)
{
    const Elf64_Sym *sym = (const Elf64_Sym *)(const void *)e->symtab.p;
    for (size_t i = 0; sym && i < e->symtab.n / sizeof *sym; i++) {
        const char *name = str_at(&e->strtab, sym[i].st_name);
        if (name && ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC && strcmp(name, "main") == 0)
            return sym[i].st_value;
    }
    return 0;
}

/* The .debug_info offset of the unit whose ranges in .debug_aranges hold
 * `addr`; -1 when none does (no aranges: clang does not write them). */
static int64_t unit_at(const struct section *ar, uint64_t addr)
{
    const unsigned char *p = ar->p, *end = ar->p + ar->n;
    while (p && p + 16 <= end) {
        uint32_t len = u32(p);
        if (len >= 0xfffffff0u || len > (size_t)(end - p) - 4)
            return -1;
        const unsigned char *next = p + 4 + len;
        uint32_t unit = u32(p + 6);
        if (p[10] != 8) /* 8-byte addresses only */
            return -1;
        const unsigned char *t = p + 16; /* header padded to twice the address size */
        for (; t + 16 <= next; t += 16) {
            uint64_t start, size;
            memcpy(&start, t, 8);
            memcpy(&size, t + 8, 8);
            if (!start && !size)
                break;
            if (addr >= start && addr - start < size)
                return unit;
        }
        p = next;
    }
    return -1;
}

/* The size of an attribute value of `form` at p, for the forms a
 * compilation unit's DIE holds (DWARF 5, 7.5.6); -1 for any other, where
 * the walk stops. */
static long form_size(uint64_t form, const unsigned char *p, const unsigned char *end)
{
    static const signed char fixed[0x2d] = {
        [0x01] = 8, [0x05] = 2, [0x06] = 4, [0x07] = 8,  [0x0b] = 1, [0x0c] = 1, [0x0e] = 4,
        [0x13] = 4, [0x17] = 4, [0x19] = 0, [0x1e] = 16, [0x1f] = 4, [0x21] = 0, [0x25] = 1,
        [0x26] = 2, [0x27] = 3, [0x28] = 4, [0x29] = 1,  [0x2a] = 2, [0x2b] = 3, [0x2c] = 4,
    };
    const unsigned char *q = p;
    switch (form) {
    case DW_FORM_string: {
        const unsigned char *z = memchr(p, 0, (size_t)(end - p));
        return z ? z - p + 1 : -1;
    }
    case 0x0d: /* sdata */
    case 0x0f: /* udata */
    case 0x1a: /* strx */
    case 0x1b: /* addrx */
    case 0x22: /* loclistx */
    case 0x23: /* rnglistx */
        uleb(&q, end);
        return q - p;
    default:
        if (form < sizeof fixed && (fixed[form] || form == 0x19 || form == 0x21))
            return fixed[form];
        return -1;
    }
}

/* Little-endian unsigned of n bytes (1 to 4). */
static uint64_t le(const unsigned char *p, long n)
{
    uint64_t v = 0;
    for (long i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* DW_AT_producer of the compilation unit at offset `unit` of .debug_info,
 * in any of the string forms GCC and clang write (clang: an index into
 * .debug_str_offsets, whose base, DW_AT_str_offsets_base, comes later in
 * the same DIE); NULL when it has none. */
static const char *producer_at(const struct elf *e, uint64_t unit)
{
    const struct section *info = &e->info, *abbrev = &e->abbrev;
    if (!info->p || !abbrev->p || unit + 11 > info->n)
        return NULL;
    const unsigned char *p = info->p + unit, *end = info->p + info->n;
    if (u32(p) >= 0xfffffff0u)
        return NULL; /* 64-bit DWARF: not read */
    uint16_t version;
    memcpy(&version, p + 4, 2);
    uint64_t abbrev_off;
    if (version == 5) {
        if (p[6] != DW_UT_compile)
            return NULL;
        abbrev_off = u32(p + 8);
        p += 12;
    } else if (version >= 2 && version <= 4) {
        abbrev_off = u32(p + 6);
        p += 11;
    } else {
        return NULL;
    }
    uint64_t code = uleb(&p, end);
    /* find the abbreviation `code` */
    const unsigned char *a = abbrev->p + abbrev_off, *aend = abbrev->p + abbrev->n;
    if (abbrev_off >= abbrev->n)
        return NULL;
    while (a < aend) {
        uint64_t c = uleb(&a, aend);
        if (c == 0)
            return NULL;
        uint64_t tag = uleb(&a, aend);
        a++; /* children */
        if (c == code) {
            if (tag != DW_TAG_compile_unit)
                return NULL;
            /* walk the DIE's attributes: the producer, and the base of
             * the string offsets an indexed producer needs */
            int64_t index = -1;
            uint64_t base = 8; /* the first unit's, after its header */
            for (;;) {
                uint64_t attr = uleb(&a, aend), form = uleb(&a, aend);
                if (form == DW_FORM_implicit_const)
                    uleb(&a, aend);
                if ((attr == 0 && form == 0) || a >= aend)
                    break;
                long n = form_size(form, p, end);
                if (n < 0 || p + n > end)
                    break;
                if (attr == DW_AT_producer) {
                    if (form == DW_FORM_strp && n == 4)
                        return str_at(&e->str, u32(p));
                    if (form == DW_FORM_line_strp && n == 4)
                        return str_at(&e->line_str, u32(p));
                    if (form == DW_FORM_string)
                        return (const char *)p;
                    if (form == DW_FORM_strx) {
                        const unsigned char *q = p;
                        index = (int64_t)uleb(&q, end);
                    } else if (form >= DW_FORM_strx1 && form <= DW_FORM_strx4) {
                        index = (int64_t)le(p, n);
                    } else {
                        return NULL;
                    }
                }
                if (attr == DW_AT_str_offsets_base && form == DW_FORM_sec_offset)
                    base = u32(p);
                p += n;
            }
            const struct section *so = &e->str_offsets;
            if (index < 0 || !so->p || base + 4 * (uint64_t)index + 4 > so->n)
                return NULL;
            return str_at(&e->str, u32(so->p + base + 4 * (uint64_t)index));
        }
        for (;;) { /* skip this abbreviation's attribute specs */
            uint64_t attr = uleb(&a, aend), form = uleb(&a, aend);
            if (form == DW_FORM_implicit_const)
                uleb(&a, aend);
            if ((attr == 0 && form == 0) || a >= aend)
                break;
        }
    }
    return NULL;
}

/* The compiler string of .comment ("GCC: (Debian 12.2.0-14) 12.2.0"):
 * the first, unless another compiler's follows: the C runtime's start
 * files are gcc's whatever built the program, so a clang build's
 * .comment is "GCC: ..." (from crt1.o) and then "clang version ...". */
static void comment_compiler(const struct section *c, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t off = 0; c->p && off < c->n;) {
        const char *s = str_at(c, off);
        if (!s)
            break;
        if (*s && strncmp(s, "Linker", 6) != 0) {
            if (!out[0] || strncmp(s, "GCC:", 4) != 0)
                snprintf(out, size, "%s", s);
            if (strncmp(s, "GCC:", 4) != 0)
                return;
        }
        off += strlen(s) + 1;
    }
}

void bl__build_info(const char *exe, char *compiler, size_t csize, char *flags, size_t fsize)
{
    compiler[0] = flags[0] = '\0';
    int fd = open(exe, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    void *m = MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_size > 0)
        m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return;
    struct elf e;
    memset(&e, 0, sizeof e);
    if (find_sections(m, (size_t)st.st_size, &e) == 0) {
        /* the unit that defines main: the program's own code, not a
         * library's (a sanitizer's start-up objects come first in the
         * link); without aranges, the first unit */
        uint64_t main_at = main_address(&e);
        int64_t unit = main_at ? unit_at(&e.aranges, main_at) : -1;
        const char *prod = producer_at(&e, unit >= 0 ? (uint64_t)unit : 0);
        if (prod) {
            /* "GNU C17 12.2.0 -mtune=generic -O2" -> compiler, flags */
            const char *dash = strstr(prod, " -");
            size_t n = dash ? (size_t)(dash - prod) : strlen(prod);
            /* clang's recorded command line starts with its own path */
            const char *sp = memrchr(prod, ' ', n);
            if (dash && sp && sp[1] == '/')
                n = (size_t)(sp - prod);
            snprintf(compiler, csize, "%.*s", (int)n, prod);
            if (dash)
                snprintf(flags, fsize, "%s", dash + 1);
        } else {
            comment_compiler(&e.comment, compiler, csize);
        }
    }
    munmap(m, (size_t)st.st_size);
}
