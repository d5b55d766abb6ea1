/* fuzz_results_read.c - libFuzzer target: results files read back into a
 * bl_results (benchlab JSON, Google Benchmark JSON, the Go format), and the
 * HTML report written from whatever was read. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benchlab/format.h"
#include "benchlab/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (64u << 10))
        return 0;
    int fd = memfd_create("fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return 0;
    }
    bl_results *r = NULL;
    char err[512];
    if (bl_results_read_fd(fd, "fuzz", &r, NULL, err, sizeof err) == 0) {
        FILE *out = fopen("/dev/null", "w");
        bl_report_run runs[2] = {{"a", r}, {"b", r}};
        if (out) {
            bl_report_options o;
            bl_report_options_init(&o);
            o.generated = "fuzz";
            bl_report_write(out, runs, 2, &o);
            fclose(out);
        }
        bl_results_destroy(r);
    }
    close(fd);
    return 0;
}
