/* error.c - names for error codes, the version, and write helpers. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "benchlab/common.h"

const char *bl_strerror(int err)
{
    switch (err) {
    case 0:
        return "success";
    case BL_EFORMAT:
        return "malformed input";
    case BL_ECRASH:
        return "worker crashed";
    case BL_ETIMEOUT:
        return "worker ran past its time limit";
    case BL_EEXIT:
        return "worker exited before it finished";
    case BL_EPROTO:
        return "worker protocol error";
    case BL_EUSAGE:
        return "bad usage";
    case BL_ENOTFOUND:
        return "not found";
    case BL_EINTR:
        return "interrupted";
    case BL_EBENCH:
        return "benchmark failed";
    case BL_EUNSUPPORTED:
        return "not supported on this machine";
    case BL_ETOOLONG:
        return "a name or unit too long for the Go benchmark format (a line over 64 KiB, which "
               "benchstat cannot read): write JSON instead";
    default:
        return err < 0 && err > -4096 ? strerror(-err) : "unknown error";
    }
}

const char *bl_version(void)
{
    return BENCHLAB_VERSION_STRING;
}

int bl__write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}
