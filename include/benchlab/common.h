/* benchlab/common.h - export macro, error codes and version, shared by every public header. */
#ifndef BENCHLAB_COMMON_H
#define BENCHLAB_COMMON_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(BENCHLAB_BUILDING)
#define BL_API __attribute__((visibility("default")))
#else
#define BL_API
#endif

#define BENCHLAB_VERSION_MAJOR 0
#define BENCHLAB_VERSION_MINOR 1
#define BENCHLAB_VERSION_PATCH 0
#define BENCHLAB_VERSION_STRING "0.1.0"

/*
 * Errors: functions return 0 on success and a negative value on failure.
 * System errors are -errno; benchlab's own codes sit below -1000.
 */
enum {
    BL_EFORMAT = -1001,  /* malformed input */
    BL_ECRASH = -1002,   /* a worker died from a signal */
    BL_ETIMEOUT = -1003, /* a worker ran past its time limit */
    BL_EEXIT = -1004,    /* a worker exited before it finished */
    BL_EPROTO = -1005,   /* a worker spoke something we do not understand */
    BL_EUSAGE = -1006,   /* bad options */
    BL_ENOTFOUND = -1007,
    BL_EINTR = -1008,  /* interrupted by the user */
    BL_EBENCH = -1009, /* the benchmark reported a failure */
    BL_EUNSUPPORTED = -1010,
    BL_ETOOLONG = -1011, /* a line longer than the format's readers take (Go format: 64 KiB) */
};

/*
 * Asymptotic complexity: the curves a benchmark's time per op is fitted to
 * as its size parameter n grows (.complexity in benchlab.h, --complexity,
 * bl_stats_fit_complexity in benchlab/stats.h).
 */
enum bl_complexity {
    BL_COMPLEXITY_NONE = 0,
    BL_COMPLEXITY_AUTO = 1, /* every curve below (the user's too, when given); the best wins */
    BL_O1 = 2,              /* constant */
    BL_OLOGN = 3,           /* log2 n */
    BL_ON = 4,              /* n */
    BL_ONLOGN = 5,          /* n log2 n */
    BL_ON2 = 6,             /* n^2 */
    BL_ON3 = 7,             /* n^3 */
    BL_OUSER = 8,           /* the benchmark's own curve (.complexity_curve) */
};

/* A static description of `err` (either -errno or a BL_E* code). */
BL_API const char *bl_strerror(int err);

/* The library's version, "MAJOR.MINOR.PATCH". */
BL_API const char *bl_version(void);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_COMMON_H */
