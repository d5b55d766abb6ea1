/*
 * preload.c - what the allocation and profile passes share: can a library
 * be preloaded into the suite at all, and the memfd that carries a library
 * embedded in libbenchlab as bytes (so that a suite linked anywhere, even
 * statically against libbenchlab, needs no file on disk).
 *
 * The ELF check reads the headers by hand: libbenchlab depends on libc
 * only, and three program headers and the dynamic section are all we need.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/base.h"
#include "preload.h"

int bl__preload_memfd(const char *name, const unsigned char *data, size_t n, int *cache)
{
    if (*cache >= 0)
        return *cache;
    int f = memfd_create(name, MFD_CLOEXEC);
    if (f < 0)
        return -errno;
    if (bl__write_all(f, data, n) != 0) {
        int e = -errno;
        close(f);
        return e ? e : -EIO;
    }
    *cache = f;
    return f;
}

/* The sanitizer runtime among the DT_NEEDED entries, or NULL. */
static const char *needed_sanitizer(const unsigned char *base, size_t size, const Elf64_Ehdr *eh,
                                    const Elf64_Phdr *dyn)
{
    if (dyn->p_offset + dyn->p_filesz > size)
        return NULL;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
    const Elf64_Dyn *d = (const Elf64_Dyn *)(base + dyn->p_offset);
    size_t nd = dyn->p_filesz / sizeof *d;
    Elf64_Addr strtab = 0;
    for (size_t i = 0; i < nd && d[i].d_tag != DT_NULL; i++)
        if (d[i].d_tag == DT_STRTAB)
            strtab = d[i].d_un.d_ptr;
    /* DT_NEEDED names are offsets into DT_STRTAB, a virtual address: map it
     * back to a file offset through the PT_LOAD segments. */
    size_t stroff = 0;
    for (int i = 0; i < eh->e_phnum && strtab; i++)
        if (ph[i].p_type == PT_LOAD && strtab >= ph[i].p_vaddr &&
            strtab < ph[i].p_vaddr + ph[i].p_filesz)
            stroff = ph[i].p_offset + (strtab - ph[i].p_vaddr);
    for (size_t i = 0; stroff && i < nd && d[i].d_tag != DT_NULL; i++) {
        if (d[i].d_tag != DT_NEEDED || stroff + d[i].d_un.d_val >= size)
            continue;
        const char *lib = (const char *)base + stroff + d[i].d_un.d_val;
        if (!memchr(lib, '\0', size - (stroff + d[i].d_un.d_val)))
            return NULL;
        if (strstr(lib, "libasan") || strstr(lib, "libtsan") || strstr(lib, "libmsan") ||
            strstr(lib, "libhwasan"))
            return lib;
    }
    return NULL;
}

enum bl__preload_verdict bl__preload_check(const char *exe, char *lib, size_t lib_size)
{
    if (lib_size)
        lib[0] = '\0';
    int fd = open(exe, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(lib, lib_size, "%s", strerror(errno));
        return BL__PRELOAD_UNREADABLE;
    }
    struct stat st;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(Elf64_Ehdr))
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return BL__PRELOAD_NOT_ELF;
    const unsigned char *base = map;
    size_t size = (size_t)st.st_size;
    const Elf64_Ehdr *eh = map;
    enum bl__preload_verdict v = BL__PRELOAD_OK;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > size) {
        v = BL__PRELOAD_NOT_ELF;
    } else {
        const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
        const Elf64_Phdr *dyn = NULL;
        int interp = 0;
        for (int i = 0; i < eh->e_phnum; i++) {
            interp |= ph[i].p_type == PT_INTERP;
            if (ph[i].p_type == PT_DYNAMIC)
                dyn = &ph[i];
        }
        const char *san = NULL;
        if (!interp || !dyn)
            v = BL__PRELOAD_STATIC;
        else if ((san = needed_sanitizer(base, size, eh, dyn)) != NULL)
            v = BL__PRELOAD_SANITIZER;
        if (san)
            snprintf(lib, lib_size, "%s", san);
    }
    munmap(map, size);
    return v;
}
