/*
 * program.c - what `benchlab profile` checks before it starts a program,
 * and where it finds the sampler library.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlab/profile.h"

static void scan_symbols(Elf *elf, struct bl_profile_program *prog)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
            continue;
        if (sh.sh_type == SHT_SYMTAB)
            prog->has_symtab = 1;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || sh.sh_entsize == 0)
            continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym s;
            if (!gelf_getsym(data, (int)i, &s))
                continue;
            const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
            if (!name)
                continue;
            int defined_func = GELF_ST_TYPE(s.st_info) == STT_FUNC && s.st_shndx != SHN_UNDEF;
            if (defined_func)
                prog->has_symbols = 1;
            if (strcmp(name, "bl_main") == 0)
                prog->is_suite = 1; /* BENCHLAB_MAIN() or a main of its own calls it */
            if (strcmp(name, "__cyg_profile_func_enter") == 0) {
                prog->is_traced = 1;
                if (defined_func)
                    prog->has_tracer = 1;
            }
        }
    }
}

int bl_profile_check_program(const char *path, struct bl_profile_program *prog)
{
    memset(prog, 0, sizeof *prog);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    GElf_Ehdr eh;
    if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh)) {
        prog->is_elf = eh.e_machine == EM_X86_64;
        prog->is_executable = (eh.e_type == ET_EXEC || eh.e_type == ET_DYN) && eh.e_entry != 0;
        size_t n_ph = 0;
        elf_getphdrnum(elf, &n_ph);
        for (size_t i = 0; i < n_ph; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
                prog->is_dynamic = 1;
        }
        scan_symbols(elf, prog);
        /* a shared library that the program loads may define the tracer */
        if (prog->is_traced && !prog->has_tracer && prog->is_dynamic)
            prog->has_tracer = 1;
    }
    if (elf)
        elf_end(elf);
    close(fd);
    return 0;
}

static int try_path(const char *dir, const char *rel, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s/%s/libbenchlab-sampler.so", dir, rel);
    return n > 0 && (size_t)n < cap && access(buf, R_OK) == 0;
}

int bl_profile_sampler_path(const char *exe_path, char *buf, size_t cap)
{
    const char *env = getenv("BENCHLAB_SAMPLER_LIB");
    if (env && *env) {
        if ((size_t)snprintf(buf, cap, "%s", env) >= cap)
            return BL_ENOTFOUND;
        return 0;
    }
    char exe[PATH_MAX];
    if (exe_path) {
        if (!realpath(exe_path, exe))
            return BL_ENOTFOUND;
    } else {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            return BL_ENOTFOUND;
        exe[n] = '\0';
    }
    char *slash = strrchr(exe, '/');
    if (!slash)
        return BL_ENOTFOUND;
    *slash = '\0';
    if (try_path(exe, "../" BENCHLAB_INSTALL_LIBDIR, buf, cap) || try_path(exe, "../lib", buf, cap))
        return 0;
#ifdef BENCHLAB_INSTALL_FULL_LIBDIR
    if (try_path(BENCHLAB_INSTALL_FULL_LIBDIR, ".", buf, cap))
        return 0;
#endif
    return BL_ENOTFOUND;
}
