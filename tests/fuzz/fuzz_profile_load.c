/* fuzz_profile_load.c - libFuzzer target: the raw profile reader
 * (src/profile/load.c). Any bytes as a raw profile either load, and then
 * every profile writer runs on what loaded, or are refused with an error
 * code; nothing crashes, leaks or reads out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlab/profile.h"
#include "fuzz_props.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void remove_dir(void)
{
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    fuzz_begin(data, size);
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", "/tmp/benchlab-fuzz-prof.XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
    }
    char path[128];
    snprintf(path, sizeof path, "%s/raw", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    bl_profile *p = NULL;
    struct bl_profile_info info;
    int rc = bl_profile_load(path, &p, &info);
    FUZZ_PROP(rc != 0 || p != NULL, "profile-null", NULL, "load returned 0 and no profile");
    FUZZ_PROP(rc == 0 || rc == BL_ENOTFOUND || p == NULL, "profile-error-with-profile", NULL,
              "load failed (%d) and returned a profile", rc);
    /* BL_ENOTFOUND (no samples) still returns the profile, as documented */
    if (p) {
        FILE *out = rc == 0 ? fopen("/dev/null", "w") : NULL;
        if (out) {
            for (int fmt = 0; fmt <= (int)BL_PROFILE_TEXT; fmt++)
                bl_profile_write(p, (enum bl_profile_format)fmt, out);
            bl_profile_write_summary(p, 10, out);
            fclose(out);
        }
        bl_profile_destroy(p);
    }
    unlink(path);
    return 0;
}
