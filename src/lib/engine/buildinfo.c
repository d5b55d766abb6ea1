/*
 * buildinfo.c - how a suite was built, read from its executable: the
 * compiler and flags saved with a run (meta "compiler", "cflags") and the
 * machine fingerprint (meta "fingerprint").
 *
 * The flags come from DW_AT_producer of the first compilation unit with
 * debug information ("GNU C17 12.2.0 -mtune=generic -march=x86-64 -g
 * -O2"): GCC records its command line there by default under -g
 * (-grecord-gcc-switches), clang with -grecord-command-line. Without debug
 * information, the compiler comes from the .comment section ("GCC:
 * (Debian 12.2.0-14) 12.2.0") and the flags are unknown, which the
 * metadata says rather than guess. Only the first unit is read: the link
 * puts the program's own objects before the libraries'.
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
};

struct section {
    const unsigned char *p;
    size_t n;
};

static int find_sections(const unsigned char *base, size_t size, struct section *info,
                         struct section *abbrev, struct section *str, struct section *line_str,
                         struct section *comment)
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
            sh[i].sh_offset + sh[i].sh_size > size)
            continue;
        const char *name = (const char *)base + names->sh_offset + sh[i].sh_name;
        struct section s = {base + sh[i].sh_offset, sh[i].sh_size};
        if (sh[i].sh_flags & SHF_COMPRESSED)
            continue; /* compressed debug sections: not read */
        if (strcmp(name, ".debug_info") == 0)
            *info = s;
        else if (strcmp(name, ".debug_abbrev") == 0)
            *abbrev = s;
        else if (strcmp(name, ".debug_str") == 0)
            *str = s;
        else if (strcmp(name, ".debug_line_str") == 0)
            *line_str = s;
        else if (strcmp(name, ".comment") == 0)
            *comment = s;
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

/* DW_AT_producer of the first compilation unit, when it is the unit's
 * first attribute (as GCC and clang write it); NULL otherwise. */
static const char *first_producer(const struct section *info, const struct section *abbrev,
                                  const struct section *str, const struct section *line_str)
{
    if (!info->p || !abbrev->p || info->n < 11)
        return NULL;
    const unsigned char *p = info->p, *end = info->p + info->n;
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
            uint64_t attr = uleb(&a, aend), form = uleb(&a, aend);
            if (attr != DW_AT_producer)
                return NULL;
            if (form == DW_FORM_strp && p + 4 <= end)
                return str_at(str, u32(p));
            if (form == DW_FORM_line_strp && p + 4 <= end)
                return str_at(line_str, u32(p));
            if (form == DW_FORM_string && memchr(p, 0, (size_t)(end - p)))
                return (const char *)p;
            return NULL;
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

/* The first compiler string of .comment ("GCC: (Debian 12.2.0-14) 12.2.0"). */
static void comment_compiler(const struct section *c, char *out, size_t size)
{
    for (size_t off = 0; c->p && off < c->n;) {
        const char *s = str_at(c, off);
        if (!s)
            break;
        if (*s && strncmp(s, "Linker", 6) != 0) {
            snprintf(out, size, "%s", s);
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
    struct section info = {0}, abbrev = {0}, str = {0}, line_str = {0}, comment = {0};
    if (find_sections(m, (size_t)st.st_size, &info, &abbrev, &str, &line_str, &comment) == 0) {
        const char *prod = first_producer(&info, &abbrev, &str, &line_str);
        if (prod) {
            /* "GNU C17 12.2.0 -mtune=generic -O2" -> compiler, flags */
            const char *dash = strstr(prod, " -");
            size_t n = dash ? (size_t)(dash - prod) : strlen(prod);
            snprintf(compiler, csize, "%.*s", (int)n, prod);
            if (dash)
                snprintf(flags, fsize, "%s", dash + 1);
        } else {
            comment_compiler(&comment, compiler, csize);
        }
    }
    munmap(m, (size_t)st.st_size);
}
