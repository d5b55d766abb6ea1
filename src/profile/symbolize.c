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
 * Also the leaf fix-up: a frame-pointer walk from a function that has not
 * (or no longer) set up its frame skips that function's caller, whose return
 * address is then the word at the top of the stack. We decide offline, from
 * the function's code bytes, whether that is the case.
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

struct sym {
    uint64_t addr, size;
    const char *name; /* in the ELF's string table: valid while the module is open */
};

struct module {
    char *path;
    int fd;
    Elf *elf;
    int dbg_fd;     /* the separate debug file (.gnu_debuglink, .build-id), or -1 */
    Elf *dbg_elf;   /* its ELF, or NULL: symbols and DWARF come from it when present */
    char *dbg_path; /* its path, for the report */
    Dwarf *dw;
    int dw_tried;
    Dwarf_CFI *cfi; /* from .eh_frame (dwarf_getcfi_elf): ours to dwarf_cfi_end() */
    int cfi_tried;
    GElf_Phdr *loads;
    size_t n_loads;
    struct sym *syms;
    size_t n_syms;
    uint64_t plt_lo[4], plt_hi[4];
    size_t n_plt;
    char *plt_names; /* the "symbol@plt" names of the PLT's stubs, one block */
};

struct mapping {
    uint64_t start, end, offset;
    struct module *mod; /* NULL: no file ([vdso], anonymous JIT code) */
    char *name;
};

/* One process's executable mappings. */
struct process {
    uint32_t pid;
    struct mapping *maps;
    size_t n_maps;
};

/* Modules are shared by the processes (a suite's workers map the same files). */
struct bl__symbolizer {
    struct process *procs;
    size_t n_procs;
    struct mapping *maps; /* the selected process's */
    size_t n_maps;
    struct module **mods;
    size_t n_mods;
};

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

static const struct mapping *find_mapping(const bl__symbolizer *s, uint64_t addr)
{
    for (size_t i = 0; i < s->n_maps; i++)
        if (addr >= s->maps[i].start && addr < s->maps[i].end)
            return &s->maps[i];
    return NULL;
}

static int to_vaddr(const struct mapping *mp, uint64_t addr, uint64_t *vaddr)
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

static int in_plt(const struct module *m, uint64_t vaddr)
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
    if (!sy->size && in_plt(m, vaddr) && !in_plt(m, sy->addr))
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

static Dwarf_CFI *module_cfi(struct module *m);

int bl__symbolize(bl__symbolizer *s, uint64_t addr, int want_line, struct bl__frame *out)
{
    memset(out, 0, sizeof *out);
    const struct mapping *mp = find_mapping(s, addr);
    if (!mp) {
        out->module = "[unknown]";
        return BL_ENOTFOUND;
    }
    const char *slash = strrchr(mp->name, '/');
    out->module = slash ? slash + 1 : mp->name;
    out->module_path = mp->name;
    uint64_t vaddr;
    if (!mp->mod || !mp->mod->elf || to_vaddr(mp, addr, &vaddr) != 0)
        return BL_ENOTFOUND;
    out->vaddr = vaddr;
    out->has_vaddr = 1;
    const struct sym *sy = find_sym(mp->mod, vaddr);
    if (!sy) {
        if (in_plt(mp->mod, vaddr)) {
            out->name = "[plt]";
            return 0;
        }
        /* no symbol: the function's extent from its CFI (each FDE covers one
         * function), so that one function's addresses share one name,
         * MODULE+0xENTRY, which addr2line resolves later */
        Dwarf_CFI *cfi = module_cfi(mp->mod);
        Dwarf_Frame *frame = NULL;
        Dwarf_Addr lo, hi;
        if (cfi && dwarf_cfi_addrframe(cfi, vaddr, &frame) == 0) {
            if (dwarf_frame_info(frame, &lo, &hi, NULL) >= 0 && lo <= vaddr) {
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

static int read_code(const bl__symbolizer *s, uint64_t addr, unsigned char *buf, size_t n)
{
    const struct mapping *mp = find_mapping(s, addr);
    if (!mp || !mp->mod || mp->mod->fd < 0 || addr + n > mp->end)
        return -1;
    off_t off = (off_t)(addr - mp->start + mp->offset);
    return pread(mp->mod->fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

/* Is `ret` a return address: just after a call to `callee_start` (or to a PLT stub, or indirect)?
 */
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
        const struct mapping *mp = find_mapping(s, target);
        uint64_t vaddr;
        return mp && mp->mod && to_vaddr(mp, target, &vaddr) == 0 && in_plt(mp->mod, vaddr);
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

enum { REG_RBP = 6, REG_RSP = 7, REG_RA = 16 };

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

static Dwarf_CFI *module_cfi(struct module *m)
{
    if (!m->cfi_tried) {
        m->cfi_tried = 1;
        m->cfi = dwarf_getcfi_elf(m->elf);
    }
    return m->cfi;
}

int bl__frame_pointer_at(bl__symbolizer *s, uint64_t addr)
{
    const struct mapping *mp = find_mapping(s, addr);
    uint64_t vaddr;
    if (!mp || !mp->mod || !mp->mod->elf || to_vaddr(mp, addr, &vaddr) != 0)
        return 0;
    Dwarf_CFI *cfi = module_cfi(mp->mod);
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

size_t bl__unwind_dwarf(bl__symbolizer *s, uint64_t pc, uint64_t sp, uint64_t rbp,
                        const uint64_t *stack, size_t n_stack, const uint64_t *chain,
                        size_t n_chain, uint64_t *callers, size_t max, enum bl__unwind_end *end)
{
    struct stack_copy st = {sp, stack, n_stack};
    struct unwind_regs r = {{0}, 0};
    r.val[REG_RA] = pc;
    r.val[REG_RSP] = sp;
    r.val[REG_RBP] = rbp;
    r.known = 1u << REG_RA | 1u << REG_RSP | 1u << REG_RBP;
    size_t n = 0;
    *end = BL__UNWIND_STOPPED;
    for (int first = 1; n < max; first = 0) {
        uint64_t ip = r.val[REG_RA];
        /* a return address points after the call: look up the call itself */
        uint64_t lookup = first ? ip : ip - 1;
        const struct mapping *mp = find_mapping(s, lookup);
        uint64_t vaddr;
        if (!mp || !mp->mod || !mp->mod->elf || to_vaddr(mp, lookup, &vaddr) != 0)
            break;
        struct module *m = mp->mod;
        module_cfi(m);
        Dwarf_Frame *frame = NULL;
        uint64_t cfa = 0, ra = 0, new_rbp = 0;
        int ok = 0, rbp_state = -1, outermost = 0;
        if (m->cfi && dwarf_cfi_addrframe(m->cfi, vaddr, &frame) == 0) {
            Dwarf_Op *ops = NULL;
            size_t n_ops = 0;
            int is_value;
            ok = dwarf_frame_cfa(frame, &ops, &n_ops) == 0 &&
                 eval_ops(ops, n_ops, &r, 0, &is_value, &cfa) == 0;
            int ra_state = ok ? caller_reg(frame, REG_RA, &r, cfa, &st, &ra) : -1;
            outermost = ra_state == 1;
            ok = ok && ra_state == 0;
            rbp_state = ok ? caller_reg(frame, REG_RBP, &r, cfa, &st, &new_rbp) : -1;
            free(frame);
        } else if (in_plt(m, vaddr)) {
            /* a PLT stub without CFI: only a jump, the return address on top */
            cfa = r.val[REG_RSP] + 8;
            ok = read_stack(&st, r.val[REG_RSP], &ra) == 0;
            rbp_state = (r.known >> REG_RBP) & 1 ? 0 : -1;
            new_rbp = r.val[REG_RBP];
        } else {
            /* no call frame information here: the frame pointer, where the code keeps one */
            int rbp_known = 0;
            ok = fp_step(s, &r, &st, &cfa, &ra, &new_rbp, &rbp_known) == 0;
            rbp_state = ok && rbp_known ? 0 : -1;
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
        if (!ok || cfa <= r.val[REG_RSP] || !find_mapping(s, ra - 1))
            break;
        callers[n++] = ra;
        r.val[REG_RA] = ra;
        r.val[REG_RSP] = cfa;
        if (rbp_state == 0) {
            r.val[REG_RBP] = new_rbp;
            r.known |= 1u << REG_RBP;
        } else {
            r.known &= ~(1u << REG_RBP);
        }
    }
    return n;
}
