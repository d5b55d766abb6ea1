/* fuzz_tune.c - libFuzzer target: the tune file (--tune-file). Any input
 * loads or is refused with a message; what loads, saved and loaded again,
 * is the same table; and a benchmark name from the input (after the first
 * NUL byte, as a hostile name) set, saved and loaded reads back as set. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "fuzz_props.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void remove_dir(void)
{
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (256u << 10))
        return 0;
    fuzz_begin(data, size);
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", "/tmp/benchlab-fuzz-tune.XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
    }
    char path[128];
    snprintf(path, sizeof path, "%s/tune", dir);
    const uint8_t *nul = memchr(data, 0, size);
    size_t file_len = nul ? (size_t)(nul - data) : size;
    char *name = nul ? strndup((const char *)nul + 1, size - file_len - 1) : NULL;
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fwrite(data, 1, file_len, f);
    fclose(f);
    struct bl__tune t;
    char err[512] = "";
    int rc = bl__tune_load(&t, path, 10.0, err, sizeof err);
    FUZZ_PROP(rc == 0 || err[0], "tune-silent-error", NULL, "tune load failed without a message");
    if (rc == 0) {
        /* round trip: everything loaded, plus the hostile name */
        unsigned long long reps = 1 + (size % 1000);
        int set = name ? bl__tune_set(&t, name, reps) : 0;
        t.changed = true;
        size_t n = t.n;
        struct bl__tune_entry *want = calloc(n ? n : 1, sizeof *want);
        for (size_t i = 0; want && i < n; i++)
            want[i] = t.entry[i];
        rc = bl__tune_save(&t, err, sizeof err);
        FUZZ_PROP(rc == 0, "tune-save", NULL, "tune save failed: %s", err);
        struct bl__tune back;
        rc = bl__tune_load(&back, path, 10.0, err, sizeof err);
        FUZZ_PROP(rc == 0, "tune-reload", NULL, "a saved tune file does not load: %s", err);
        if (rc == 0 && want) {
            FUZZ_PROP(back.n == n, "tune-drop", NULL, "%zu entries saved, %zu loaded back", n,
                      back.n);
            for (size_t i = 0; i < n && i < back.n; i++)
                FUZZ_PROP(strcmp(want[i].name, back.entry[i].name) == 0 &&
                              want[i].reps == back.entry[i].reps,
                          "tune-value", NULL, "entry %zu changed in a save and load", i);
            if (name && set == 0)
                FUZZ_PROP(bl__tune_get(&back, name) == reps, "tune-name", NULL,
                          "a name set, saved and loaded lost its repetitions");
            bl__tune_fini(&back);
        }
        free(want);
        bl__tune_fini(&t);
    }
    unlink(path);
    free(name);
    return 0;
}
