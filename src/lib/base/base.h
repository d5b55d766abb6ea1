/*
 * base.h - internals any module may use: growable buffers, the clock,
 * process helpers and system facts. Nothing here is public API.
 */
#ifndef BENCHLAB_BASE_BASE_H
#define BENCHLAB_BASE_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A growable byte string, always NUL-terminated when data is not NULL. */
struct bl__buf {
    char *data;
    size_t len;
    size_t cap;
};

int bl__buf_reserve(struct bl__buf *b, size_t extra);
int bl__buf_append(struct bl__buf *b, const void *p, size_t n);
int bl__buf_puts(struct bl__buf *b, const char *s);
int bl__buf_printf(struct bl__buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int bl__buf_vprintf(struct bl__buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Append everything fd holds up to its end. 0, -errno when reading fails,
 * -EFBIG when it holds `limit` bytes or more, or -ENOMEM; what was read
 * stays in b either way. */
int bl__buf_read_fd(struct bl__buf *b, int fd, size_t limit);
void bl__buf_fini(struct bl__buf *b);

/*
 * BL__CHECK(cond): an invariant the code's comments state (never a check
 * of input, which gets an error). When cond is false, the condition and
 * its place go to stderr and the process aborts, in debug builds (no
 * NDEBUG) and sanitizer builds (BENCHLAB_SANITIZE defines
 * BENCHLAB_CHECKS); in release builds it is nothing and cond is not
 * evaluated, so cond must have no side effect.
 */
#if !defined(NDEBUG) || defined(BENCHLAB_CHECKS)
#define BL__CHECK(cond) ((cond) ? (void)0 : bl__check_failed(#cond, __FILE__, __LINE__))
#else
#define BL__CHECK(cond) ((void)sizeof(!(cond)))
#endif
_Noreturn void bl__check_failed(const char *cond, const char *file, int line);

/* strdup that returns NULL for NULL. */
char *bl__strdup(const char *s);
/* Grow *arr (element size `elem`) so that it holds at least `need` elements. 0 or -ENOMEM. */
int bl__grow(void **arr, size_t *cap, size_t need, size_t elem);

/* FNV-1a, 64 bits, of p[0..n), from h (BL__FNV1A_BASIS to start; a running
 * hash to go on): the code base's one byte-string hash. Values kept beyond a
 * process depend on it staying exactly this (bl_shard_of's shards, a
 * machine's fingerprint in the store). */
#define BL__FNV1A_BASIS 14695981039346656037ull
static inline uint64_t bl__fnv1a(uint64_t h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ull;
    return h;
}

/* A hash index over the strings of an array the caller owns (strindex.c):
 * positions, found by string in O(1) expected time. key_of(arr, pos) gives
 * the string at a position. Zero-initialise; free with bl__strindex_fini.
 * A slot is 8 bytes (32 bits of hash, 32 of position), so that the table
 * of a million strings (2M slots) is 16 MiB, not 32: positions are below
 * UINT32_MAX (an add beyond that fails as out of memory). */
struct bl__strindex_slot {
    uint32_t hash;
    uint32_t pos1; /* position + 1; 0: empty */
};
struct bl__strindex {
    struct bl__strindex_slot *slots;
    size_t n_slots, n;
};
typedef const char *(*bl__strindex_key)(const void *arr, size_t pos);
/* The position of key[0..len), or -1. */
long bl__strindex_find(const struct bl__strindex *x, const char *key, size_t len,
                       bl__strindex_key key_of, const void *arr);
/* Index key (not copied: only its hash is kept) at pos. 0 or -ENOMEM. */
int bl__strindex_add(struct bl__strindex *x, const char *key, size_t pos);
/* The same for key[0..len), which may hold NULs (a pair "a\0b" as one key:
 * key_of then returns the pair with its NUL). */
int bl__strindex_add_n(struct bl__strindex *x, const char *key, size_t len, size_t pos);
/* Forget key at pos; say that key at `from` is now at `to`. */
void bl__strindex_remove(struct bl__strindex *x, const char *key, size_t pos);
void bl__strindex_move(struct bl__strindex *x, const char *key, size_t from, size_t to);
void bl__strindex_fini(struct bl__strindex *x);
/* The position of key[0..len) where eq(arr, pos, key, len) says which
 * position holds it (for keys the caller does not keep whole, such as a
 * pair "a\0b" kept as two strings), or -1. */
typedef int (*bl__strindex_eq)(const void *arr, size_t pos, const char *key, size_t len);
long bl__strindex_find_eq(const struct bl__strindex *x, const char *key, size_t len,
                          bl__strindex_eq eq, const void *arr);
/* "a\0b", a key of two parts for an index (unit metadata by unit and key),
 * in buf when it fits in cap bytes, else in a new string the caller frees
 * (the result != buf); its length without the final NUL in *len. NULL: no
 * memory. */
char *bl__strindex_pair(const char *a, const char *b, char *buf, size_t cap, size_t *len);

/* A u64 -> u64 hash map (umap.c), for keys that are ids or hashes; key
 * UINT64_MAX is reserved. Zero-initialise; free with bl__umap_fini. */
struct bl__umap {
    uint64_t *keys, *vals;
    size_t n, n_slots;
};
/* 1 and *v set if k is in the map, else 0. */
int bl__umap_get(const struct bl__umap *m, uint64_t k, uint64_t *v);
/* Set k to v. 0 or -ENOMEM. */
int bl__umap_put(struct bl__umap *m, uint64_t k, uint64_t v);
void bl__umap_fini(struct bl__umap *m);
/* A bijective mix of the bits of x (the map's slot hash). */
uint64_t bl__mix64(uint64_t x);

/*
 * An arena (arena.c): many small allocations that die together, such as
 * the nodes and strings of a parsed JSON document, taken from big blocks
 * and freed at once by bl__arena_fini (no free of one allocation). A
 * tree of millions of nodes then costs a few hundred mallocs, not
 * millions, and leaves no small chunks for glibc to consolidate later.
 *
 * Built with BENCHLAB_ARENA_PER_ALLOC=1 (sanitizer and fuzz builds set it,
 * and any AddressSanitizer build has it on by default), every allocation
 * is its own malloc, so that ASan and Valgrind see each one's bounds; the
 * field per_alloc says which way an arena works. Zero-initialise, or
 * bl__arena_init for the build's default.
 */
struct bl__arena_block;
struct bl__arena {
    struct bl__arena_block *head; /* the block being filled first, then the others */
    char *next, *end;             /* the free space of head */
    size_t block_size;            /* of the next block: doubles up to 1 MiB */
    int per_alloc;                /* 1: one malloc per allocation */
};
void bl__arena_init(struct bl__arena *a);
/* size bytes aligned to align (a power of two, at most
 * _Alignof(max_align_t)), uninitialised; NULL when out of memory. Valid
 * until bl__arena_fini. size 0 gives a valid pointer. */
void *bl__arena_alloc(struct bl__arena *a, size_t size, size_t align);
/* Free every allocation; the arena is empty and usable again. */
void bl__arena_fini(struct bl__arena *a);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t bl__now_ns(void);
/* The calling thread's CPU time in nanoseconds. */
uint64_t bl__thread_cpu_ns(void);
/* The CPU time of every thread of the process, in nanoseconds (a system
 * call that sums the threads: microseconds, not nanoseconds, a read). */
uint64_t bl__process_cpu_ns(void);

/* System facts for configuration lines; each returns a static or cached string. */
const char *bl__sys_goarch(void);
const char *bl__sys_cpu_model(void);
const char *bl__sys_hostname(void);
const char *bl__sys_kernel(void);
int bl__sys_ncpu(void);
/* The CPUs the calling thread may run on (its affinity mask: a worker
 * pinned by --cpu has those), or the online CPUs when that is unknown. */
int bl__sys_cpus_usable(void);

/* A small, fast PRNG (xoshiro256**), for jitter and shuffling. */
struct bl__rng {
    uint64_t s[4];
};
void bl__rng_seed(struct bl__rng *r, uint64_t seed);
uint64_t bl__rng_next(struct bl__rng *r);
/* Uniform in [0, 1). */
double bl__rng_unit(struct bl__rng *r);

/*
 * A barrier for the threads of a multi-threaded benchmark (barrier.c). The
 * last thread to arrive runs `serial(ctx)` before any thread leaves, so the
 * batch that just ended can be judged and the next one planned while every
 * other thread waits. Waiters spin briefly, then sleep on a futex.
 */
struct bl__barrier {
    _Atomic unsigned arrived;
    _Atomic unsigned gen;      /* the futex word: bumped once per round */
    _Atomic unsigned sleepers; /* waiters that may sleep on gen */
    unsigned n;
    uint64_t spin_ns; /* how long a waiter spins before it sleeps */
};
void bl__barrier_init(struct bl__barrier *b, unsigned n);
void bl__barrier_wait(struct bl__barrier *b, void (*serial)(void *ctx), void *ctx);

/* "Did you mean" (suggest.c). The closest of `names` (n of them, or up to
 * a NULL) to `word` by edit distance, or NULL when none is close enough to
 * suggest; a prefix of a name counts as close. */
const char *bl__closest(const char *word, const char *const *names, size_t n);
/* Edit distance (Damerau: a swap of neighbours counts one); SIZE_MAX for
 * words over 64 bytes. */
size_t bl__edit_distance(const char *a, const char *b);
/* Edit distance from `pattern` to the substring of `text` it is closest
 * to (0 when text contains it); SIZE_MAX for very long inputs. */
size_t bl__substring_distance(const char *pattern, const char *text);
/*
 * What bl_output_open() would write for `path`: the file its symbolic links
 * lead to (caller frees), or NULL for stdout, a descriptor alias such as
 * /dev/stdout, or a path that cannot be resolved (the writer reports it).
 */
char *bl__output_target(const char *path);
/* The directory of `path`: "DIR" of "DIR/NAME", "." of "NAME", "/" of
 * "/NAME". Caller frees; NULL when memory runs out. */
char *bl__path_dir(const char *path);
struct bl_output;
/* Whether `out` makes or replaces a regular file when closed (written to a
 * temporary file first), rather than writing to stdout or in place to a
 * device, FIFO or terminal: 1 or 0. */
int bl__output_replaces(const struct bl_output *out);

/*
 * The output primitives of every writer (escape.c; docs/formats.md,
 * "Hostile bytes"). Strings may hold any byte; NULL is written as "".
 */
/* Length of the valid UTF-8 sequence at p (NUL-terminated), 1..4, or 0. */
size_t bl__utf8_len(const unsigned char *p);
/* A JSON string, quoted; controls as \n or \u00XX, invalid UTF-8 as U+FFFD. */
void bl__json_string(FILE *f, const char *s);
/* A JSON array of the n strings v[i], each as bl__json_string: ["a","b"]. */
void bl__json_strings(FILE *f, const char *const *v, size_t n);
/* The shortest form that reads back to the same double; whole numbers below
 * 1e15 without exponent; NaN and infinities as null. */
void bl__json_number(FILE *f, double x);
/* A metric's value in benchlab JSON: bl__json_number, but an infinity (a
 * kInvert counter of 0) as the string "inf" or "-inf", which the readers
 * take back (bl__json_metric); NaN (unknown) stays null. */
void bl__json_metric_number(FILE *f, double x);
/* The fewest significant digits (1 to 17) with which x, rounded, reads back
 * as x (17 for NaN and infinities): %.*g of that, or %.*e of one less. */
int bl__shortest_digits(double x);
/* The shortest %g form of x that strtod reads back to x. */
void bl__shortest_double(char *out, size_t size, double x);
/* One CSV field: quoted as Go's encoding/csv quotes (benchstat's bytes), and
 * a cell a spreadsheet would run as a formula (= + - @ tab CR first, and not
 * a number such as -3.5 or +4.2%) written as text: "'=1+1" (OWASP). Control
 * characters but tab and newline, C1 controls and bytes that are not UTF-8
 * are written in their terminal form (\x1b, \u009b, \xff; bl__terminal_text). */
void bl__csv_field(FILE *f, const char *s);
/* The same field always quoted, as Google Benchmark's CSV writes its
 * strings ("name", "label"). */
void bl__csv_field_quoted(FILE *f, const char *s);
/* Markdown table text: markup and HTML characters backslash-escaped, line
 * breaks as spaces, other controls as \xNN. */
void bl__markdown_text(FILE *f, const char *s);
/* Markdown code span for a table cell (exec's tables, as hyperfine's): the
 * fence longer than any backtick run in s, '|' as \|, line breaks as
 * spaces, controls as \xNN; HTML inside a code span is shown as text.
 * Appends to b; 0 or -ENOMEM. */
int bl__markdown_code(struct bl__buf *b, const char *s);
/* Append s[0..n) to b for a terminal: control characters (ESC, C1, DEL) and
 * bytes that are not UTF-8 as \xNN (C1 as \u00NN); newlines and tabs kept
 * when keep_lines. */
void bl__terminal_text(struct bl__buf *b, const char *s, size_t n, int keep_lines);
/* s made safe for a terminal in b (reused; keep_lines 0); returns b's text. */
const char *bl__terminal_safe(struct bl__buf *b, const char *s);
/* A benchmark's name as people are shown it (the summary table's rows, its
 * notes, the live messages): without benchlab's "Benchmark" prefix, so a
 * Google Benchmark suite's BenchmarkBM_x is BM_x. The Go format's lines keep
 * the prefix (Go names). Never NULL for a non-NULL name. */
const char *bl__shown_name(const char *name);
/* The same, terminal-safe in b, and with its job after it: "Work [gcc]"
 * (job NULL: the name alone). */
const char *bl__shown_bench(struct bl__buf *b, const char *name, const char *job);

/* Length of a whitespace rune at p (Go's unicode.IsSpace), or 0; p < end. */
size_t bl__space_len(const unsigned char *p, const unsigned char *end);
/* One field of a Go-format line (a name, a unit), appended to b: whitespace
 * runes (U+00A0 too) and control characters become '_', so the field stays
 * one field; and text to the end of a line (a configuration value, a
 * comment), whose control characters become spaces, so the line stays one
 * line. 0 or -ENOMEM. */
int bl__gobench_field_buf(struct bl__buf *b, const char *s);
int bl__gobench_text_buf(struct bl__buf *b, const char *s);
/* Write the Go-format line b holds, and its newline. Over 64 KiB (benchstat's
 * line limit): with `cut`, cut at a UTF-8 boundary and marked " [cut]" (text
 * nobody reads back as a measurement: configuration, comments); else
 * BL_ETOOLONG and nothing written. 0, BL_ETOOLONG or -ENOMEM. */
int bl__gobench_put_line(FILE *f, struct bl__buf *b, int cut);

/* Write all of p, retrying on EINTR and short writes. 0 or -errno. */
int bl__write_all(int fd, const void *p, size_t n);

#endif /* BENCHLAB_BASE_BASE_H */
