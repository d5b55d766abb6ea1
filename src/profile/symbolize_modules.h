/*
 * symbolize_modules.h - the ELF modules and mappings of a symbolizer, shared
 * by symbolize.c (which opens and reads them) and unwind.c (which reads
 * their code and call frame information). Not for other files: they go
 * through symbolize.h.
 */
#ifndef BENCHLAB_SYMBOLIZE_MODULES_H
#define BENCHLAB_SYMBOLIZE_MODULES_H
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>

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
    uint64_t *fde_entries; /* each FDE's first address, ascending (.eh_frame_hdr's table) */
    size_t n_fde_entries;
    int fde_entries_tried;
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

/* The selected process's mapping holding run-time address addr, or NULL. */
const struct mapping *bl__find_mapping(const bl__symbolizer *s, uint64_t addr);
/* The ELF virtual address of addr in mapping mp (through its PT_LOAD
 * segments): 0 and *vaddr, or -1 when no segment holds it. */
int bl__mapping_vaddr(const struct mapping *mp, uint64_t addr, uint64_t *vaddr);
/* Is vaddr in one of the module's PLT sections? */
int bl__in_plt(const struct module *m, uint64_t vaddr);
/* The module's call frame information (.eh_frame), read on first use; NULL if none. */
Dwarf_CFI *bl__module_cfi(struct module *m);

#endif /* BENCHLAB_SYMBOLIZE_MODULES_H */
