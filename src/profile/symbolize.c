/*
 * symbolize.c - addresses of a finished process to function names and source lines.
 *
 * Input is the /proc/PID/maps text the sampler or tracer saved at exit.
 * Each executable mapping names an ELF file; an address becomes a file
 * offset (address - start + offset) and then the ELF virtual address of the
 * PT_LOAD segment holding that offset, which handles PIE executables and
 * shared libraries wherever they were loaded. Functions come from .symtab
 * (static functions too) and .dynsym; source lines from DWARF via libdw
 * when the file has debug info.
 *
 * The unwinding that reads the modules' code and call frame information is
 * unwind.c's.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize.h"
#include "symbolize_modules.h"

static int by_addr(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    /* among aliases, prefer a sized symbol, then the shorter (public) name */
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return (int)strlen(x->name) - (int)strlen(y->name);
}

static int has_symtab(Elf *elf)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
            return 1;
    }
    return 0;
}

/* The dynamic symbol each GOT slot of the PLT relocations is for: `got` -> name. */
static const char *got_slot_name(Elf *elf, uint64_t got)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || sh.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        Elf_Scn *symscn = elf_getscn(elf, sh.sh_link);
        GElf_Shdr symsh;
        Elf_Data *syms = symscn ? elf_getdata(symscn, NULL) : NULL;
        if (!data || !syms || !gelf_getshdr(symscn, &symsh))
            continue;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Rela r;
            GElf_Sym sym;
            if (!gelf_getrela(data, (int)i, &r) || r.r_offset != got)
                continue;
            if (GELF_R_SYM(r.r_info) == 0 || !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
                return NULL;
            return elf_strptr(elf, symsh.sh_link, sym.st_name);
        }
    }
    return NULL;
}

/*
 * PLT stubs as "symbol@plt", as objdump names them: each stub of .plt,
 * .plt.sec and .plt.got jumps through a GOT slot (jmp *disp32(%rip),
 * perhaps after endbr64 or with a bnd prefix), and the relocation of that
 * slot names the symbol. Without this they took the name of the nearest
 * symbol before them, usually _init.
 */
static void add_plt_symbols(struct module *m, size_t *cap)
{
    size_t shstrndx = 0, total = 0, n_new = 0;
    elf_getshdrstrndx(m->elf, &shstrndx);
    struct stub {
        uint64_t addr, size;
        const char *name;
    } *stubs = NULL;
    size_t cap_stubs = 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(m->elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *sname =
            gelf_getshdr(scn, &sh) ? elf_strptr(m->elf, shstrndx, sh.sh_name) : NULL;
        if (!sname || strncmp(sname, ".plt", 4) != 0 || sh.sh_type != SHT_PROGBITS)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || !data->d_buf || data->d_size < sh.sh_size)
            continue;
        uint64_t step = sh.sh_entsize == 8 || sh.sh_entsize == 16 ? sh.sh_entsize : 16;
        const unsigned char *code = data->d_buf;
        for (uint64_t at = 0; at + step <= sh.sh_size; at += step) {
            for (uint64_t k = 0; k + 6 <= step; k++) {
                if (code[at + k] != 0xff || code[at + k + 1] != 0x25)
                    continue;
                int32_t disp;
                memcpy(&disp, code + at + k + 2, 4);
                uint64_t got = sh.sh_addr + at + k + 6 + (uint64_t)(int64_t)disp;
                const char *name = got_slot_name(m->elf, got);
                if (!name || !*name)
                    break;
                if (n_new == cap_stubs) {
                    cap_stubs = cap_stubs ? cap_stubs * 2 : 64;
                    struct stub *more = realloc(stubs, cap_stubs * sizeof *stubs);
                    if (!more) {
                        free(stubs);
                        return;
                    }
                    stubs = more;
                }
                stubs[n_new++] = (struct stub){sh.sh_addr + at, step, name};
                total += strlen(name) + 5;
                break;
            }
        }
    }
    m->plt_names = n_new ? malloc(total) : NULL;
    char *at = m->plt_names;
    for (size_t i = 0; at && i < n_new; i++) {
        if (m->n_syms == *cap) {
            *cap = *cap ? *cap * 2 : 256;
            struct sym *syms = realloc(m->syms, *cap * sizeof *syms);
            if (!syms)
                break;
            m->syms = syms;
        }
        size_t len = strlen(stubs[i].name);
        memcpy(at, stubs[i].name, len);
        memcpy(at + len, "@plt", 5);
        m->syms[m->n_syms++] = (struct sym){stubs[i].addr, stubs[i].size, at};
        at += len + 5;
    }
    free(stubs);
}

/* Functions from `elf`'s .symtab, else its .dynsym, and the main file's PLT sections. */
static void load_symbols(struct module *m, Elf *elf)
{
    size_t cap = 0;
    Elf_Scn *scn = NULL;
    int have_symtab = has_symtab(elf);
    size_t shstrndx = 0;
    elf_getshdrstrndx(m->elf, &shstrndx);
    while ((scn = elf_nextscn(m->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *sname = elf_strptr(m->elf, shstrndx, sh.sh_name);
        if (sname && strncmp(sname, ".plt", 4) == 0 && m->n_plt < 4) {
            m->plt_lo[m->n_plt] = sh.sh_addr;
            m->plt_hi[m->n_plt++] = sh.sh_addr + sh.sh_size;
        }
    }
    scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        /* .dynsym only adds what .symtab lacks when both exist; keep both, dedupe by sort */
        if (sh.sh_type != SHT_SYMTAB && !(sh.sh_type == SHT_DYNSYM))
            continue;
        if (sh.sh_type == SHT_DYNSYM && have_symtab)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || sh.sh_entsize == 0)
            continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym s;
            if (!gelf_getsym(data, (int)i, &s))
                continue;
            int type = GELF_ST_TYPE(s.st_info);
            if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF ||
                s.st_value == 0)
                continue;
            const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
            if (!name || !*name)
                continue;
            if (m->n_syms == cap) {
                cap = cap ? cap * 2 : 256;
                struct sym *syms = realloc(m->syms, cap * sizeof *syms);
                if (!syms)
                    return;
                m->syms = syms;
            }
            m->syms[m->n_syms++] = (struct sym){s.st_value, s.st_size, name};
        }
    }
    add_plt_symbols(m, &cap);
    if (m->n_syms)
        qsort(m->syms, m->n_syms, sizeof *m->syms, by_addr);
}

/* CRC-32 (IEEE, as .gnu_debuglink's) of a whole file; 0 and -1 on a read error. */
static int file_crc32(int fd, uint32_t *out)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    unsigned char buf[65536];
    uint32_t crc = 0xffffffffu;
    off_t at = 0;
    for (;;) {
        ssize_t n = pread(fd, buf, sizeof buf, at);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        for (ssize_t i = 0; i < n; i++)
            crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
        at += n;
    }
    *out = crc ^ 0xffffffffu;
    return 0;
}

/*
 * Is the file at `path` the debug file of m: same build id when both have
 * one, else the CRC .gnu_debuglink names (crc_wanted, when check_crc)?
 * On success it becomes m's debug file.
 */
static int try_debug_file(struct module *m, const char *path, const void *id, ssize_t n_id,
                          int check_crc, uint32_t crc_wanted)
{
    if (strcmp(path, m->path) == 0)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    Elf *elf = NULL;
    int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
             (elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) != NULL && elf_kind(elf) == ELF_K_ELF;
    if (ok) {
        const void *dbg_id = NULL;
        ssize_t n_dbg = dwelf_elf_gnu_build_id(elf, &dbg_id);
        uint32_t crc;
        if (n_id > 0 && n_dbg > 0)
            ok = n_id == n_dbg && memcmp(id, dbg_id, (size_t)n_id) == 0;
        else if (check_crc)
            ok = file_crc32(fd, &crc) == 0 && crc == crc_wanted;
        else
            ok = 0;
    }
    if (!ok) {
        if (elf)
            elf_end(elf);
        close(fd);
        return 0;
    }
    m->dbg_fd = fd;
    m->dbg_elf = elf;
    m->dbg_path = strdup(path);
    return 1;
}

/*
 * Separate debug info, as gdb looks for it: by build id under each debug
 * directory (.build-id/ab/cdef....debug: Debian's -dbgsym packages and
 * libc6-dbg), then by .gnu_debuglink's name beside the file, in its
 * .debug/ folder and under each debug directory plus the file's folder.
 * Debug directories: $BENCHLAB_DEBUG_DIRS (colon-separated), else /usr/lib/debug.
 */
static void open_debug_file(struct module *m)
{
    m->dbg_fd = -1;
    const void *id = NULL;
    ssize_t n_id = dwelf_elf_gnu_build_id(m->elf, &id);
    GElf_Word crc = 0;
    const char *link = dwelf_elf_gnu_debuglink(m->elf, &crc);
    if (n_id <= 0 && !link)
        return;
    if (has_symtab(m->elf) && !link && n_id > 0) {
        /* symbols present; only DWARF could be elsewhere: look when it is not here */
        Elf_Scn *scn = NULL;
        size_t shstrndx = 0;
        elf_getshdrstrndx(m->elf, &shstrndx);
        while ((scn = elf_nextscn(m->elf, scn)) != NULL) {
            GElf_Shdr sh;
            const char *name =
                gelf_getshdr(scn, &sh) ? elf_strptr(m->elf, shstrndx, sh.sh_name) : NULL;
            if (name && strcmp(name, ".debug_info") == 0)
                return;
        }
    }
    const char *dirs = getenv("BENCHLAB_DEBUG_DIRS");
    if (!dirs || !*dirs)
        dirs = "/usr/lib/debug";
    char path[4096], dir[4096];
    const char *slash = strrchr(m->path, '/');
    int dir_len = slash ? (int)(slash - m->path) : 0;
    if (dir_len >= (int)sizeof dir)
        return;
    memcpy(dir, m->path, (size_t)dir_len);
    dir[dir_len] = '\0';
    for (int pass = 0; pass < 2; pass++) {
        for (const char *d = dirs; *d;) {
            size_t len = strcspn(d, ":");
            if (pass == 0 && n_id > 1) {
                int at = snprintf(path, sizeof path, "%.*s/.build-id/%02x/", (int)len, d,
                                  ((const unsigned char *)id)[0]);
                for (ssize_t i = 1; i < n_id && at > 0 && (size_t)at + 3 < sizeof path; i++)
                    at += snprintf(path + at, sizeof path - (size_t)at, "%02x",
                                   ((const unsigned char *)id)[i]);
                if (at > 0 && (size_t)at + 7 < sizeof path) {
                    memcpy(path + at, ".debug", 7);
                    if (try_debug_file(m, path, id, n_id, 0, 0))
                        return;
                }
            }
            if (pass == 1 && link) {
                int n = snprintf(path, sizeof path, "%.*s%s/%s", (int)len, d, dir, link);
                if (n > 0 && (size_t)n < sizeof path && try_debug_file(m, path, id, n_id, 1, crc))
                    return;
            }
            d += len + (d[len] == ':');
        }
        if (pass == 0 && link) {
            int n = snprintf(path, sizeof path, "%s/%s", dir, link);
            if (n > 0 && (size_t)n < sizeof path && try_debug_file(m, path, id, n_id, 1, crc))
                return;
            n = snprintf(path, sizeof path, "%s/.debug/%s", dir, link);
            if (n > 0 && (size_t)n < sizeof path && try_debug_file(m, path, id, n_id, 1, crc))
                return;
        }
    }
}

static struct module *open_module(const char *path)
{
    struct module *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->fd = -1;
    m->dbg_fd = -1;
    m->path = strdup(path);
    if (!m->path)
        goto fail;
    /* The path comes from a file: never block on a FIFO or read a device. */
    m->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (m->fd >= 0 && (fstat(m->fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(m->fd);
        m->fd = -1;
    }
    if (m->fd < 0)
        return m; /* gone since, or not a file: addresses stay unknown */
    m->elf = elf_begin(m->fd, ELF_C_READ_MMAP, NULL);
    if (!m->elf || elf_kind(m->elf) != ELF_K_ELF)
        return m;
    size_t n_ph = 0;
    if (elf_getphdrnum(m->elf, &n_ph) == 0 && n_ph > 0) {
        m->loads = calloc(n_ph, sizeof *m->loads);
        for (size_t i = 0; m->loads && i < n_ph; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(m->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
                m->loads[m->n_loads++] = ph;
        }
    }
    open_debug_file(m);
    /* the debug file's .symtab has the static functions a stripped file lost */
    load_symbols(m, m->dbg_elf && has_symtab(m->dbg_elf) ? m->dbg_elf : m->elf);
    return m;
fail:
    free(m);
    return NULL;
}

static void close_module(struct module *m)
{
    if (!m)
        return;
    if (m->cfi)
        dwarf_cfi_end(m->cfi);
    if (m->dw)
        dwarf_end(m->dw);
    if (m->elf)
        elf_end(m->elf);
    if (m->fd >= 0)
        close(m->fd);
    if (m->dbg_elf)
        elf_end(m->dbg_elf);
    if (m->dbg_fd >= 0)
        close(m->dbg_fd);
    free(m->dbg_path);
    free(m->fde_entries);
    free(m->plt_names);
    free(m->loads);
    free(m->syms);
    free(m->path);
    free(m);
}

static struct module *find_module(bl__symbolizer *s, const char *path)
{
    for (size_t i = 0; i < s->n_mods; i++)
        if (strcmp(s->mods[i]->path, path) == 0)
            return s->mods[i];
    struct module **mods = realloc(s->mods, (s->n_mods + 1) * sizeof *mods);
    if (!mods)
        return NULL;
    s->mods = mods;
    struct module *m = open_module(path);
    if (m)
        s->mods[s->n_mods++] = m;
    return m;
}

int bl__symbolizer_add_process(bl__symbolizer *s, uint32_t pid, const char *maps, size_t n)
{
    struct process *procs = realloc(s->procs, (s->n_procs + 1) * sizeof *procs);
    if (!procs)
        return -ENOMEM;
    s->procs = procs;
    struct process *pr = &s->procs[s->n_procs++];
    *pr = (struct process){pid, NULL, 0};
    size_t cap = 0;
    const char *end = maps + n;
    for (const char *line = maps; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            eol = end;
        char buf[4096];
        size_t len = (size_t)(eol - line) < sizeof buf - 1 ? (size_t)(eol - line) : sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = '\0';
        line = eol + 1;
        unsigned long long start, stop, offset;
        char perms[8];
        int path_at = 0;
        if (sscanf(buf, "%llx-%llx %7s %llx %*s %*s %n", &start, &stop, perms, &offset, &path_at) <
                4 ||
            !strchr(perms, 'x'))
            continue;
        char *path = path_at > 0 ? buf + path_at : buf + len;
        char *deleted = strstr(path, " (deleted)");
        if (deleted)
            *deleted = '\0';
        if (pr->n_maps == cap) {
            cap = cap ? cap * 2 : 64;
            struct mapping *maps2 = realloc(pr->maps, cap * sizeof *maps2);
            if (!maps2)
                return -ENOMEM;
            pr->maps = maps2;
        }
        struct mapping *mp = &pr->maps[pr->n_maps];
        *mp = (struct mapping){start, stop, offset, NULL, strdup(*path ? path : "[anon]")};
        if (path[0] == '/')
            mp->mod = find_module(s, path);
        pr->n_maps++;
    }
    if (s->n_procs == 1)
        bl__symbolizer_select(s, pid);
    return 0;
}

int bl__symbolizer_select(bl__symbolizer *s, uint32_t pid)
{
    for (size_t i = 0; i < s->n_procs; i++)
        if (s->procs[i].pid == pid) {
            s->maps = s->procs[i].maps;
            s->n_maps = s->procs[i].n_maps;
            return 0;
        }
    s->maps = NULL;
    s->n_maps = 0;
    return BL_ENOTFOUND;
}

bl__symbolizer *bl__symbolizer_create(const char *maps, size_t n)
{
    elf_version(EV_CURRENT);
    bl__symbolizer *s = calloc(1, sizeof *s);
    if (s && maps && bl__symbolizer_add_process(s, 0, maps, n) != 0) {
        bl__symbolizer_destroy(s);
        return NULL;
    }
    return s;
}

void bl__symbolizer_destroy(bl__symbolizer *s)
{
    if (!s)
        return;
    for (size_t p = 0; p < s->n_procs; p++) {
        for (size_t i = 0; i < s->procs[p].n_maps; i++)
            free(s->procs[p].maps[i].name);
        free(s->procs[p].maps);
    }
    for (size_t i = 0; i < s->n_mods; i++)
        close_module(s->mods[i]);
    free(s->procs);
    free(s->mods);
    free(s);
}

const struct mapping *bl__find_mapping(const bl__symbolizer *s, uint64_t addr)
{
    for (size_t i = 0; i < s->n_maps; i++)
        if (addr >= s->maps[i].start && addr < s->maps[i].end)
            return &s->maps[i];
    return NULL;
}

int bl__mapping_vaddr(const struct mapping *mp, uint64_t addr, uint64_t *vaddr)
{
    uint64_t off = addr - mp->start + mp->offset;
    for (size_t i = 0; mp->mod && i < mp->mod->n_loads; i++) {
        const GElf_Phdr *ph = &mp->mod->loads[i];
        if (off >= ph->p_offset && off < ph->p_offset + ph->p_filesz) {
            *vaddr = off - ph->p_offset + ph->p_vaddr;
            return 0;
        }
    }
    return -1;
}

int bl__in_plt(const struct module *m, uint64_t vaddr)
{
    for (size_t i = 0; i < m->n_plt; i++)
        if (vaddr >= m->plt_lo[i] && vaddr < m->plt_hi[i])
            return 1;
    return 0;
}

static const struct sym *find_sym(const struct module *m, uint64_t vaddr)
{
    size_t lo = 0, hi = m->n_syms;
    while (lo < hi) { /* first symbol above vaddr */
        size_t mid = (lo + hi) / 2;
        if (m->syms[mid].addr <= vaddr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const struct sym *sy = &m->syms[lo - 1];
    /* aliases sort sized-first; walk back to the first at this address */
    while (sy > m->syms && sy[-1].addr == sy->addr)
        sy--;
    if (sy->size && vaddr >= sy->addr + sy->size)
        return NULL;
    if (!sy->size && bl__in_plt(m, vaddr) && !bl__in_plt(m, sy->addr))
        return NULL; /* _init, sizeless, does not reach into the PLT */
    return sy;
}

static void source_line(struct module *m, uint64_t vaddr, struct bl__frame *out)
{
    if (!m->dw_tried) {
        m->dw_tried = 1;
        m->dw = dwarf_begin_elf(m->dbg_elf ? m->dbg_elf : m->elf, DWARF_C_READ, NULL);
        if (!m->dw && m->dbg_elf)
            m->dw = dwarf_begin_elf(m->elf, DWARF_C_READ, NULL);
    }
    if (!m->dw)
        return;
    Dwarf_Die cu;
    if (!dwarf_addrdie(m->dw, vaddr, &cu))
        return;
    Dwarf_Line *line = dwarf_getsrc_die(&cu, vaddr);
    if (!line)
        return;
    int lineno = 0;
    dwarf_lineno(line, &lineno);
    out->file = dwarf_linesrc(line, NULL, NULL);
    out->line = lineno;
}

Dwarf_CFI *bl__module_cfi(struct module *m)
{
    if (!m->cfi_tried) {
        m->cfi_tried = 1;
        m->cfi = dwarf_getcfi_elf(m->elf);
    }
    return m->cfi;
}

/* A value of the pointer encoding `enc` at p (DW_EH_PE_*: 4- and 8-byte forms, no
 * relative ones); 0, or -1 for a form we do not read or one past end. */
static int read_encoded(const unsigned char *p, const unsigned char *end, unsigned enc,
                        uint64_t *out, size_t *len)
{
    int32_t s4;
    uint32_t u4;
    switch (enc & 0x0f) {
    case DW_EH_PE_udata4:
    case DW_EH_PE_sdata4:
        if (end - p < 4)
            return -1;
        memcpy(&u4, p, 4);
        memcpy(&s4, p, 4);
        *out = (enc & 0x0f) == DW_EH_PE_udata4 ? (uint64_t)u4 : (uint64_t)(int64_t)s4;
        *len = 4;
        return 0;
    case DW_EH_PE_absptr:
    case DW_EH_PE_udata8:
    case DW_EH_PE_sdata8:
        if (end - p < 8)
            return -1;
        memcpy(out, p, 8);
        *len = 8;
        return 0;
    default:
        return -1;
    }
}

/*
 * The functions' entries, from .eh_frame_hdr's binary-search table (the
 * PT_GNU_EH_FRAME segment, there in stripped files too): one {first address,
 * FDE} pair per FDE, sorted, each entry relative to the header (the
 * DW_EH_PE_datarel | sdata4 form every Linux linker writes; another form
 * leaves the table empty). Loaded on first use.
 */
static void load_fde_entries(struct module *m)
{
    m->fde_entries_tried = 1;
    size_t n_ph = 0;
    if (elf_getphdrnum(m->elf, &n_ph) != 0)
        return;
    for (size_t i = 0; i < n_ph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(m->elf, (int)i, &ph) || ph.p_type != PT_GNU_EH_FRAME)
            continue;
        Elf_Data *d = elf_getdata_rawchunk(m->elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_BYTE);
        if (!d || d->d_size < 4)
            return;
        const unsigned char *p = d->d_buf, *end = p + d->d_size;
        unsigned ptr_enc = p[1], count_enc = p[2], table_enc = p[3];
        uint64_t ignored, n_fdes;
        size_t len_ptr, len_count;
        if (p[0] != 1 || table_enc != (DW_EH_PE_datarel | DW_EH_PE_sdata4) ||
            ptr_enc == DW_EH_PE_omit || count_enc == DW_EH_PE_omit ||
            read_encoded(p + 4, end, ptr_enc, &ignored, &len_ptr) != 0 ||
            read_encoded(p + 4 + len_ptr, end, count_enc, &n_fdes, &len_count) != 0)
            return;
        const unsigned char *table = p + 4 + len_ptr + len_count;
        if (n_fdes == 0 || n_fdes > (uint64_t)(end - table) / 8)
            return;
        m->fde_entries = malloc(n_fdes * sizeof *m->fde_entries);
        if (!m->fde_entries)
            return;
        for (uint64_t k = 0; k < n_fdes; k++) {
            int32_t rel;
            memcpy(&rel, table + 8 * k, 4);
            m->fde_entries[k] = ph.p_vaddr + (uint64_t)(int64_t)rel;
        }
        m->n_fde_entries = n_fdes;
        return;
    }
}

/* The first address of the FDE holding vaddr (its function's entry): 0, or -1 when unknown. */
static int fde_entry(struct module *m, uint64_t vaddr, uint64_t *entry)
{
    if (!m->fde_entries_tried)
        load_fde_entries(m);
    size_t lo = 0, hi = m->n_fde_entries; /* the last entry <= vaddr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->fde_entries[mid] <= vaddr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    *entry = m->fde_entries[lo - 1];
    return 0;
}

int bl__symbolize(bl__symbolizer *s, uint64_t addr, int want_line, struct bl__frame *out)
{
    memset(out, 0, sizeof *out);
    const struct mapping *mp = bl__find_mapping(s, addr);
    if (!mp) {
        out->module = "[unknown]";
        return BL_ENOTFOUND;
    }
    const char *slash = strrchr(mp->name, '/');
    out->module = slash ? slash + 1 : mp->name;
    out->module_path = mp->name;
    uint64_t vaddr;
    if (!mp->mod || !mp->mod->elf || bl__mapping_vaddr(mp, addr, &vaddr) != 0)
        return BL_ENOTFOUND;
    out->vaddr = vaddr;
    out->has_vaddr = 1;
    const struct sym *sy = find_sym(mp->mod, vaddr);
    if (!sy) {
        if (bl__in_plt(mp->mod, vaddr)) {
            out->name = "[plt]";
            return 0;
        }
        /* no symbol: the function's entry from its CFI (each FDE covers one
         * function), so that one function's addresses share one name,
         * MODULE+0xENTRY, which addr2line resolves later. An FDE must cover
         * vaddr; its first address is the nearest table entry below it (FDEs
         * do not overlap). dwarf_frame_info's range is only the CFI row's
         * (from the last push or pop on), the fallback without a table. */
        Dwarf_CFI *cfi = bl__module_cfi(mp->mod);
        Dwarf_Frame *frame = NULL;
        Dwarf_Addr lo, hi;
        if (cfi && dwarf_cfi_addrframe(cfi, vaddr, &frame) == 0) {
            uint64_t entry;
            if (fde_entry(mp->mod, vaddr, &entry) == 0)
                lo = entry;
            else if (dwarf_frame_info(frame, &lo, &hi, NULL) < 0)
                lo = vaddr + 1;
            if (lo <= vaddr) {
                out->vaddr = lo;
                out->start = addr - (vaddr - lo);
            }
            free(frame);
        }
        return BL_ENOTFOUND;
    }
    out->name = sy->name;
    out->start = addr - (vaddr - sy->addr);
    if (want_line)
        source_line(mp->mod, sy->addr, out);
    return 0;
}
