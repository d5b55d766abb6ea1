/* fuzz_store.c - libFuzzer target: importing a results file into the
 * store (what `benchlab merge --save` does) and loading it back. Any input
 * is read as a results file (benchlab JSON, Google Benchmark JSON, the Go
 * format); what reads is saved into an SQLite store and loaded again: the
 * same benchmarks in the same order, names byte for byte when they are
 * valid UTF-8 (the store makes text valid UTF-8, docs/store.md), the same
 * launches with the same batches and time per op. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benchlab/format.h"
#include "benchlab/results.h"
#include "benchlab/store.h"
#include "fuzz_props.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bl_store *store;

static bool same_num(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b || fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

static char dir[64];

/* leave nothing behind in /dev/shm or /tmp */
static void remove_store(void)
{
    bl_store_close(store);
    const char *suffix[] = {"", "-wal", "-shm", "-journal"};
    char path[128];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/results.db%s", dir, suffix[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void open_store(void)
{
    snprintf(dir, sizeof dir, "%s",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm/benchlab-fuzz-store.XXXXXX"
                                           : "/tmp/benchlab-fuzz-store.XXXXXX");
    if (!mkdtemp(dir))
        abort();
    char spec[128], err[512];
    snprintf(spec, sizeof spec, "sqlite:%s/results.db", dir);
    if (bl_store_open(spec, BL_STORE_CREATE, &store, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz_store: %s\n", err);
        abort();
    }
    atexit(remove_store);
}

static bool names_valid_utf8(const bl_results *r)
{
    for (size_t i = 0; i < r->n_benches; i++)
        if (!fuzz_valid_utf8(r->benches[i].name, strlen(r->benches[i].name)))
            return false;
    return true;
}

static size_t launches_of(const bl_results *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_benches; i++)
        n += r->benches[i].n_launches;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (64u << 10))
        return 0;
    fuzz_begin(data, size);
    if (!store)
        open_store();
    int fd = memfd_create("fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return 0;
    bl_results *r = NULL;
    char err[512];
    if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0 ||
        bl_results_read_fd(fd, "fuzz", &r, NULL, err, sizeof err) != 0) {
        close(fd);
        return 0;
    }
    close(fd);
    bl_store_save_options o;
    bl_store_save_options_init(&o);
    o.git_dir = "";
    int64_t id = 0;
    int rc = bl_store_save(store, r, &o, &id, err, sizeof err);
    FUZZ_PROP(rc == 0, "store-save", NULL, "results that read do not save: %s", err);
    bl_results *back = NULL;
    if (rc == 0) {
        rc = bl_store_load(store, id, &back, err, sizeof err);
        FUZZ_PROP(rc == 0, "store-load", NULL, "a saved run does not load: %s", err);
    }
    if (back && !names_valid_utf8(r)) {
        /* a name's bytes that are not UTF-8 are stored as '?'
         * (docs/store.md): two names that differ only there, or one and a
         * name spelled with '?', meet in one benchmark; every launch is
         * still there, under a name that is UTF-8 */
        FUZZ_PROP(launches_of(back) == launches_of(r), "store-drop", NULL,
                  "%zu launches saved, %zu loaded", launches_of(r), launches_of(back));
        FUZZ_PROP(names_valid_utf8(back), "store-name", NULL, "a name loads as invalid UTF-8");
    } else if (back) {
        FUZZ_PROP(back->n_benches == r->n_benches, "store-drop", NULL,
                  "%zu benchmarks saved, %zu loaded", r->n_benches, back->n_benches);
        for (size_t i = 0; i < r->n_benches && i < back->n_benches; i++) {
            const bl_bench_result *a = &r->benches[i], *b = &back->benches[i];
            if (fuzz_valid_utf8(a->name, strlen(a->name)))
                FUZZ_PROP(strcmp(a->name, b->name) == 0, "store-name", NULL,
                          "benchmark %zu's name changed in the store", i);
            else
                FUZZ_PROP(fuzz_valid_utf8(b->name, strlen(b->name)), "store-name", NULL,
                          "benchmark %zu's name loads as invalid UTF-8", i);
            FUZZ_PROP(a->n_launches == b->n_launches, "store-drop", NULL,
                      "benchmark %zu: %zu launches saved, %zu loaded", i, a->n_launches,
                      b->n_launches);
            for (size_t k = 0; k < a->n_launches && k < b->n_launches; k++)
                FUZZ_PROP(a->launches[k].n_samples == b->launches[k].n_samples &&
                              same_num(a->launches[k].ns_per_op, b->launches[k].ns_per_op),
                          "store-value", NULL,
                          "benchmark %zu launch %zu: %zu batches, %.17g ns/op saved; %zu, "
                          "%.17g loaded",
                          i, k, a->launches[k].n_samples, a->launches[k].ns_per_op,
                          b->launches[k].n_samples, b->launches[k].ns_per_op);
        }
    }
    if (back)
        bl_results_destroy(back);
    bl_results_destroy(r);
    return 0;
}
