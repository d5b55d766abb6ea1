/*
 * alloc.c - the allocation instrument (Caliper's allocation instrument for
 * C): B/op and allocs/op from a pass of its own.
 *
 * The counting library (src/alloc/alloc_preload.c) is embedded in
 * libbenchlab as bytes. For the allocation pass the runner writes it to a
 * memfd once and the worker is started with LD_PRELOAD=/proc/self/fd/N, so
 * a suite linked statically against libbenchlab, anywhere on disk, needs no
 * file to be found. The timing pass never loads it.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/base.h"
#include "alloc.h"
#include "benchlab/common.h"

extern const unsigned char bl__alloc_preload_blob[];
extern const size_t bl__alloc_preload_blob_size;

int bl__alloc_api_load(struct bl__alloc_api *api)
{
    /* POSIX allows converting dlsym's void * to a function pointer. */
    void *b = dlsym(RTLD_DEFAULT, "benchlab_alloc_begin");
    void *s = dlsym(RTLD_DEFAULT, "benchlab_alloc_suspend");
    void *e = dlsym(RTLD_DEFAULT, "benchlab_alloc_end");
    if (!b || !s || !e)
        return -1;
    memcpy(&api->begin, &b, sizeof b);
    memcpy(&api->suspend, &s, sizeof s);
    memcpy(&api->end, &e, sizeof e);
    return 0;
}

int bl__alloc_preload_fd(void)
{
    static int fd = -1;
    if (fd >= 0)
        return fd;
    int f = memfd_create("libbenchlab-alloc.so", MFD_CLOEXEC);
    if (f < 0)
        return -errno;
    if (bl__write_all(f, bl__alloc_preload_blob, bl__alloc_preload_blob_size) != 0) {
        int e = -errno;
        close(f);
        return e ? e : -EIO;
    }
    fd = f;
    return fd;
}

/* Read the ELF file: dynamic? and which sanitizer runtimes does it need? */
int bl__alloc_check_exe(const char *exe, char *why, size_t n)
{
    int fd = open(exe, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, n, "%s: %s", exe, strerror(errno));
        return BL_EUNSUPPORTED;
    }
    struct stat st;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(Elf64_Ehdr))
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(why, n, "%s: cannot read it as an ELF file", exe);
        return BL_EUNSUPPORTED;
    }
    const unsigned char *base = map;
    size_t size = (size_t)st.st_size;
    const Elf64_Ehdr *eh = map;
    int rc = 0;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > size) {
        snprintf(why, n, "%s is not a 64-bit ELF executable", exe);
        rc = BL_EUNSUPPORTED;
        goto out;
    }
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
    const Elf64_Phdr *dyn = NULL;
    int interp = 0;
    for (int i = 0; i < eh->e_phnum; i++) {
        interp |= ph[i].p_type == PT_INTERP;
        if (ph[i].p_type == PT_DYNAMIC)
            dyn = &ph[i];
    }
    if (!interp || !dyn) {
        snprintf(why, n,
                 "%s is statically linked: no allocator can be preloaded into it; link it "
                 "dynamically against libc to count allocations",
                 exe);
        rc = BL_EUNSUPPORTED;
        goto out;
    }
    /* DT_NEEDED names are offsets into DT_STRTAB, a virtual address: map it
     * back to a file offset through the PT_LOAD segments. */
    if (dyn->p_offset + dyn->p_filesz > size)
        goto out;
    const Elf64_Dyn *d = (const Elf64_Dyn *)(base + dyn->p_offset);
    size_t nd = dyn->p_filesz / sizeof *d;
    Elf64_Addr strtab = 0;
    for (size_t i = 0; i < nd && d[i].d_tag != DT_NULL; i++)
        if (d[i].d_tag == DT_STRTAB)
            strtab = d[i].d_un.d_ptr;
    size_t stroff = 0;
    for (int i = 0; i < eh->e_phnum && strtab; i++)
        if (ph[i].p_type == PT_LOAD && strtab >= ph[i].p_vaddr &&
            strtab < ph[i].p_vaddr + ph[i].p_filesz)
            stroff = ph[i].p_offset + (strtab - ph[i].p_vaddr);
    for (size_t i = 0; stroff && i < nd && d[i].d_tag != DT_NULL; i++) {
        if (d[i].d_tag != DT_NEEDED || stroff + d[i].d_un.d_val >= size)
            continue;
        const char *lib = (const char *)base + stroff + d[i].d_un.d_val;
        if (strstr(lib, "libasan") || strstr(lib, "libtsan") || strstr(lib, "libmsan") ||
            strstr(lib, "libhwasan")) {
            snprintf(why, n,
                     "%s is built with a sanitizer (%s), which replaces the allocator and "
                     "refuses a preload ahead of it",
                     exe, lib);
            rc = BL_EUNSUPPORTED;
            break;
        }
    }
out:
    munmap(map, size);
    return rc;
}
