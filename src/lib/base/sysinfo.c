/*
 * sysinfo.c - facts about the machine for configuration lines and metadata.
 * Values are read once and cached; failures give "unknown", never an error.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base.h"

const char *bl__sys_goarch(void)
{
#if defined(__x86_64__)
    return "amd64";
#elif defined(__i386__)
    return "386";
#elif defined(__aarch64__)
    return "arm64";
#elif defined(__arm__)
    return "arm";
#elif defined(__riscv) && __riscv_xlen == 64
    return "riscv64";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return "ppc64le";
#elif defined(__s390x__)
    return "s390x";
#else
    return "unknown";
#endif
}

const char *bl__sys_cpu_model(void)
{
    static char model[256];
    if (model[0])
        return model;
    snprintf(model, sizeof model, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return model;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Processor", 9) == 0) {
            char *colon = strchr(line, ':');
            if (!colon)
                continue;
            colon++;
            while (*colon == ' ' || *colon == '\t')
                colon++;
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(model, sizeof model, "%s", colon);
            break;
        }
    }
    fclose(f);
    return model;
}

const char *bl__sys_hostname(void)
{
    static char host[256];
    if (!host[0] && gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "unknown");
    return host;
}

const char *bl__sys_kernel(void)
{
    static char kernel[300];
    if (!kernel[0]) {
        struct utsname u;
        if (uname(&u) == 0)
            snprintf(kernel, sizeof kernel, "%s %s", u.sysname, u.release);
        else
            snprintf(kernel, sizeof kernel, "unknown");
    }
    return kernel;
}

int bl__sys_ncpu(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int bl__sys_cpus_usable(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    return bl__sys_ncpu();
}
