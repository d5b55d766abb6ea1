/*
 * load.c - a raw profile (src/sampler/raw_format.h) into the call-tree model.
 *
 * Reads every chunk, then symbolizes with the maps the process saved at
 * exit: sampled stacks get the leaf fix-up and lose the sampler's own
 * frames; traced trees get the tracer's calibrated per-call cost taken out
 * (a node's window holds the part of its own hooks after the first time
 * stamp, and every call below it adds the full cost of its two hooks).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../sampler/raw_format.h"
#include "profile_int.h"
#include "symbolize.h"

struct raw {
    unsigned char *data;
    size_t size;
    char meta[4096];
};

static int read_file(const char *path, struct raw *raw)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -errno;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            unsigned char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    int err = ferror(f) ? -EIO : 0;
    fclose(f);
    if (!buf)
        return -ENOMEM;
    if (err) {
        free(buf);
        return err;
    }
    raw->data = buf;
    raw->size = n;
    return 0;
}

static uint64_t meta_u64(const char *meta, const char *key)
{
    size_t klen = strlen(key);
    for (const char *p = meta; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, key, klen) == 0 && p[klen] == '=')
            return strtoull(p + klen + 1, NULL, 10);
    return 0;
}

static void meta_str(const char *meta, const char *key, char *out, size_t cap)
{
    size_t klen = strlen(key);
    out[0] = '\0';
    for (const char *p = meta; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
            size_t n = strcspn(p + klen + 1, "\n");
            if (n >= cap)
                n = cap - 1;
            memcpy(out, p + klen + 1, n);
            out[n] = '\0';
            return;
        }
}

/* Our own libraries' frames are not the program's. */
static int is_own_module(const char *module)
{
    if (module && strncmp(module, "memfd:", 6) == 0) /* run --profile's embedded sampler */
        module += 6;
    return module && (strncmp(module, "libbenchlab-sampler", 19) == 0 ||
                      strncmp(module, "libbenchlab-trace", 17) == 0);
}

struct namer {
    bl_profile *p;
    bl__symbolizer *sym;
    unsigned char *tried; /* per function: source line looked up */
    size_t n_tried;
    uint64_t unknown;
    uint64_t *words; /* one sample's words */
    size_t cap_words;
    uint64_t stack_bytes; /* the stack copy's limit, 0 when unknown */
    int own_start;        /* this stack went through the sampler's thread start */
};

/*
 * C++ names, demangled by libstdc++'s __cxa_demangle when the library is on
 * the machine (loaded on first use; we do not link it). Returns a string the
 * caller frees, or NULL to keep the mangled name.
 */
typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

static char *demangle(const char *name)
{
    static demangle_fn fn;
    static int tried;
    if (strncmp(name, "_Z", 2) != 0)
        return NULL;
    if (!tried) {
        tried = 1;
        void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        void *sym = lib ? dlsym(lib, "__cxa_demangle") : NULL;
        memcpy(&fn, &sym, sizeof fn); /* ISO C has no object-to-function cast */
    }
    int status = -1;
    char *out = fn ? fn(name, NULL, NULL, &status) : NULL;
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* Function index for an address (a return address when is_ret), or BL__NO_NODE to skip it. */
static uint32_t name_frame(struct namer *nm, uint64_t addr, int is_ret)
{
    struct bl__frame f;
    uint64_t lookup = is_ret && addr > 0 ? addr - 1 : addr;
    int err = bl__symbolize(nm->sym, lookup, 0, &f);
    if (is_own_module(f.module)) {
        if (is_ret && f.name && strcmp(f.name, "start_thread") == 0)
            nm->own_start = 1; /* a thread started through our pthread_create */
        return BL__NO_NODE;
    }
    char buf[512];
    const char *name = f.name;
    if (err || !name) {
        nm->unknown++;
        if (f.module && f.module[0] == '[')
            snprintf(buf, sizeof buf, "%s", f.module); /* [vdso], [unknown] */
        else if (f.has_vaddr) /* to resolve later: addr2line -f -e MODULE 0xOFFSET */
            snprintf(buf, sizeof buf, "%s+0x%llx", f.module, (unsigned long long)f.vaddr);
        else
            snprintf(buf, sizeof buf, "[%s]", f.module ? f.module : "unknown");
        name = buf;
    }
    char *readable = err || !f.name ? NULL : demangle(name);
    uint32_t func = bl__profile_func(nm->p, readable ? readable : name);
    free(readable);
    if (func == BL__NO_NODE || err || !f.name)
        return func;
    if (func >= nm->n_tried) {
        size_t n = (func + 1) * 2;
        unsigned char *t = realloc(nm->tried, n);
        if (!t)
            return func;
        memset(t + nm->n_tried, 0, n - nm->n_tried);
        nm->tried = t;
        nm->n_tried = n;
    }
    if (!nm->tried[func]) {
        nm->tried[func] = 1;
        struct bl__frame g;
        if (bl__symbolize(nm->sym, f.start, 1, &g) == 0 && g.file)
            bl__profile_func_set_source(nm->p, func, g.file, g.line);
    }
    return func;
}

/* The functions a thread starts in: a stack that reaches one is whole. */
static int is_thread_start(const char *name)
{
    static const char *const starts[] = {"_start",
                                         "__libc_start_main",
                                         "__libc_start_call_main",
                                         "start_thread",
                                         "clone",
                                         "clone3",
                                         "__clone",
                                         "__clone3",
                                         "__clone_internal",
                                         "_dl_start_user",
                                         "_dl_start"};
    for (size_t i = 0; name && i < sizeof starts / sizeof *starts; i++)
        if (strcmp(name, starts[i]) == 0)
            return 1;
    return 0;
}

/* The frame-pointer chain is only as good as its links: each frame the
 * walk went through must keep its frame in rbp, or what the walk read as
 * the next frame was whatever that code kept in rbp. `start` is the code
 * address the chain starts from; chain[i] - 1 is each caller's call site.
 * Returns how many leading links hold. */
static size_t trusted_links(struct namer *nm, uint64_t start, const uint64_t *chain, size_t n)
{
    if (n == 0 || !start || !bl__frame_pointer_at(nm->sym, start))
        return 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (!bl__frame_pointer_at(nm->sym, chain[i] - 1))
            return i + 1;
    return n;
}

static int add_samples(struct namer *nm, const unsigned char *at, size_t n, double period_ns,
                       struct bl_profile_info *info)
{
    const unsigned char *end = at + n;
    enum { MAX_DEPTH = 1024, MAX_CALLERS = 512 };
    uint32_t funcs[MAX_DEPTH];
    uint64_t callers[MAX_CALLERS];
    uint32_t incomplete = BL__NO_NODE;
    while (at + sizeof(struct bl_raw_sample) <= end) {
        struct bl_raw_sample rec;
        memcpy(&rec, at, sizeof rec);
        at += sizeof rec;
        if (rec.n_words < 3 || (size_t)(end - at) < (size_t)rec.n_words * 8u)
            return BL_EFORMAT;
        if (rec.n_words > nm->cap_words) {
            uint64_t *w = realloc(nm->words, rec.n_words * sizeof *w);
            if (!w)
                return -ENOMEM;
            nm->words = w;
            nm->cap_words = rec.n_words;
        }
        uint64_t *w = nm->words;
        memcpy(w, at, (size_t)rec.n_words * 8);
        at += (size_t)rec.n_words * 8;
        /* w: pc, sp, n_scan, scanned stack words, then the chain's return addresses */
        uint64_t n_scan = w[2];
        if (n_scan > rec.n_words - 3)
            return BL_EFORMAT;
        const uint64_t *scan = &w[3], *chain = &w[3 + n_scan];
        size_t n_chain = rec.n_words - 3 - n_scan;
        size_t depth = 0;
        uint32_t f = name_frame(nm, w[0], 0);
        if (f != BL__NO_NODE)
            funcs[depth++] = f;
        int scan_only = (rec.weight & BL_RAW_SCAN_ONLY) != 0;
        int dwarf = (rec.weight & BL_RAW_DWARF) != 0;
        int all_saved = (rec.weight & BL_RAW_SAVED_REGS) != 0;
        rec.weight &= BL_RAW_WEIGHT_MASK;
        size_t n_callers, n_fix = 0;
        int whole = 0;
        if (dwarf) {
            enum bl__unwind_end why;
            /* rbp, or (newer files) rbp and the other callee-saved registers */
            size_t n_saved = all_saved ? BL_RAW_N_SAVED : 1;
            n_saved = n_saved < n_chain ? n_saved : n_chain;
            size_t n_pairs = (n_chain - n_saved) / 2;
            n_callers = bl__unwind_dwarf(nm->sym, w[0], w[1], chain, n_saved, scan, n_scan,
                                         chain + n_saved, n_pairs, callers, MAX_CALLERS, &why);
            n_chain = 0; /* rbp and the pairs are the unwinder's */
            whole = why == BL__UNWIND_OUTERMOST;
            if (why == BL__UNWIND_COPY_END && nm->stack_bytes && n_scan * 8 >= nm->stack_bytes)
                info->stacks_cut++;
        } else if (scan_only) {
            n_callers = bl__unwind_by_scan(nm->sym, w[0], scan, n_scan, callers, MAX_CALLERS);
        } else {
            n_callers = n_fix =
                bl__fixup_frames(nm->sym, w[0], scan, n_scan, n_chain ? chain[0] : 0, callers, 8);
            /* the chain starts in the frame of the last return address the
             * fix-up found, or else in the sampled function's */
            uint64_t start = n_fix > 0 ? callers[n_fix - 1] - 1 : w[0];
            n_chain = trusted_links(nm, start, chain, n_chain);
        }
        for (size_t i = 0; i < n_callers && depth < MAX_DEPTH; i++) {
            f = name_frame(nm, callers[i], 1);
            if (f != BL__NO_NODE)
                funcs[depth++] = f;
        }
        for (size_t i = 0; i < n_chain && depth < MAX_DEPTH; i++) {
            f = name_frame(nm, chain[i], 1);
            if (f != BL__NO_NODE)
                funcs[depth++] = f;
        }
        /* whole: the outermost frame we could name is where threads start,
         * or main (what calls it is libc's, often without symbols) */
        for (size_t i = depth; i-- > 0 && !whole;) {
            const char *name = nm->p->funcs[funcs[i]].name;
            if (name[0] == '[' || strstr(name, "+0x"))
                continue; /* unnamed: look further in */
            whole = is_thread_start(name) || strcmp(name, "main") == 0;
            break;
        }
        whole = whole || nm->own_start;
        nm->own_start = 0;
        info->stacks += rec.weight;
        if (!whole) {
            /* never shown as if its outermost frame were a thread's start:
             * what we could not unwind stays visibly apart */
            info->stacks_incomplete += rec.weight;
            if (incomplete == BL__NO_NODE)
                incomplete = bl__profile_func(nm->p, BL_PROFILE_INCOMPLETE);
            if (incomplete != BL__NO_NODE && depth < MAX_DEPTH)
                funcs[depth++] = incomplete;
        }
        /* funcs is innermost first; the tree goes from the root */
        uint32_t node = 0;
        for (size_t i = depth; i-- > 0;) {
            node = bl__profile_child(nm->p, node, funcs[i]);
            if (node == BL__NO_NODE)
                return -ENOMEM;
        }
        double value = period_ns * rec.weight;
        for (uint32_t x = node; x != 0; x = nm->p->nodes[x].parent)
            nm->p->nodes[x].total += value;
        nm->p->nodes[0].total += value;
        nm->p->nodes[node].self += value;
    }
    return 0;
}

/*
 * One thread's timeline. The log may stop mid-call (it keeps the first N
 * events) or miss exits (longjmp): calls left open are closed at the last
 * time stamp, so every thread's enters and exits pair up.
 */
static int add_events(struct namer *nm, uint32_t tid, const unsigned char *at, size_t n,
                      double ns_per_tick, uint64_t tsc0)
{
    size_t count = n / 16;
    uint32_t *open = malloc((count ? count : 1) * sizeof *open);
    if (!open)
        return -ENOMEM;
    size_t depth = 0;
    double last = 0;
    uint64_t cached_fn = 0;
    uint32_t cached_func = BL__NO_NODE;
    int err = 0;
    for (size_t i = 0; i < count && !err; i++) {
        uint64_t rec[2];
        memcpy(rec, at + i * 16, 16);
        int is_exit = (rec[0] >> 63) != 0;
        uint64_t ts = rec[0] & ~(1ull << 63);
        if (rec[1] != cached_fn || cached_func == BL__NO_NODE) {
            cached_fn = rec[1];
            cached_func = name_frame(nm, rec[1], 0);
        }
        uint32_t func = cached_func;
        if (func == BL__NO_NODE)
            continue;
        last = ts > tsc0 ? (double)(ts - tsc0) * ns_per_tick : 0;
        if (is_exit) {
            if (depth == 0)
                continue; /* its enter came before the log */
            func = open[--depth];
        } else {
            open[depth++] = func;
        }
        err = bl__profile_add_event(nm->p, last, func, tid, is_exit);
    }
    while (!err && depth > 0)
        err = bl__profile_add_event(nm->p, last, open[--depth], tid, 1);
    free(open);
    return err;
}

/*
 * Traced times are elapsed times: a thread that waits for a CPU has the wait
 * in whatever call was open, and waits fall on calls in proportion to their
 * measured time, the tracer's own cost included. Expected measured time of
 * a call is then inflation x (true time + tracer cost), where inflation =
 * (run + wait) / run of its thread: subtracting inflation x the calibrated
 * cost leaves inflation x true time, so shares come out right. Without it,
 * a tiny function called millions of times collects the waits that fall on
 * the tracer's cost (5% instead of 1.5% at a load of 13 on 2 CPUs).
 */
static int add_trace(struct namer *nm, const unsigned char *at, size_t n, double ns_per_tick,
                     double cost_in, double cost_call, double inflation)
{
    size_t count = n / sizeof(struct bl_raw_trace_node);
    uint32_t *map = calloc(count ? count : 1, sizeof *map);
    if (!map)
        return -ENOMEM;
    int err = 0;
    for (size_t i = 0; i < count && !err; i++) {
        struct bl_raw_trace_node rn;
        memcpy(&rn, at + i * sizeof rn, sizeof rn);
        if (i == 0) {
            map[0] = 0;
            continue;
        }
        if (rn.parent >= i) {
            err = BL_EFORMAT;
            break;
        }
        uint32_t parent = map[rn.parent];
        uint32_t func = name_frame(nm, rn.fn, 0);
        if (func == BL__NO_NODE) { /* our own functions: their time stays with the caller */
            map[i] = parent;
            continue;
        }
        map[i] = bl__profile_child(nm->p, parent, func);
        if (map[i] == BL__NO_NODE) {
            err = -ENOMEM;
            break;
        }
        double ticks = (double)rn.ticks -
                       inflation * (cost_in * (double)rn.calls + cost_call * (double)rn.sub_calls);
        if (ticks < 0)
            ticks = 0;
        bl__profile_node_add(nm->p, map[i], ticks * ns_per_tick, rn.calls);
    }
    free(map);
    return err;
}

/* All the calls of one thread's traced tree (node 0, the root, is not a call). */
static uint64_t trace_calls(const unsigned char *at, size_t n)
{
    uint64_t calls = 0;
    for (size_t i = 1; i < n / sizeof(struct bl_raw_trace_node); i++) {
        struct bl_raw_trace_node rn;
        memcpy(&rn, at + i * sizeof rn, sizeof rn);
        calls += rn.calls;
    }
    return calls;
}

/* What the first pass over a raw file's chunks found. */
enum { MAX_SCHED = 4096 };
struct chunk_scan {
    size_t n_maps_chunks;
    struct {
        uint64_t samples, ticks, dropped, threads, user_ns;
    } sum; /* over the processes' meta chunks */
    int traced;
    size_t n_sched, n_event_tids;
    double run_sum, wait_sum; /* the traced threads' run and wait times */
};
/* Per traced thread, the inflation of its ticks by the time it waited for
 * a CPU; the threads with a timeline. Thread-local, not on the stack: 80 kB. */
static _Thread_local struct {
    uint32_t tid;
    double inflation;
} sched[MAX_SCHED];
static _Thread_local uint32_t event_tids[MAX_SCHED];

/*
 * Pass 1: the meta chunks (the run's into raw->meta, the counts summed),
 * the maps, traces, timelines and scheduling chunks counted, and the
 * framing checked. 0, or BL_ENOTFOUND (an empty file) or BL_EFORMAT (no
 * chunk, or a damaged one).
 */
static int scan_chunks(struct raw *raw, struct chunk_scan *sc, struct bl_profile_info *info)
{
    size_t meta_len = 0;
    int root_seen = 0, n_chunks = 0, damaged = 0;
    for (size_t at = 0; at + sizeof(struct bl_raw_header) <= raw->size;) {
        struct bl_raw_header h;
        memcpy(&h, raw->data + at, sizeof h);
        /* Each chunk is one write(): a process killed while writing leaves
         * a header whose payload runs past the end (a torn last chunk: keep
         * what came before), never a whole header that is not one. That is
         * a damaged file (or not a raw profile), not a short run. */
        if (h.magic != BL_RAW_MAGIC) {
            damaged = 1;
            break;
        }
        if (h.n_bytes > raw->size - at - sizeof h)
            break;
        const char *payload = (const char *)raw->data + at + sizeof h;
        if (h.type == BL_RAW_MAPS) {
            sc->n_maps_chunks++;
        } else if (h.type == BL_RAW_META) {
            /* one per process; the first process's (root=1, else the first
             * written) is the run's, counts are summed over all */
            char one[4096];
            size_t len = h.n_bytes < sizeof one ? h.n_bytes : sizeof one - 1;
            memcpy(one, payload, len);
            one[len] = '\0';
            int root = strstr(one, "\nroot=1\n") != NULL;
            if (meta_len == 0 || (root && !root_seen)) {
                memcpy(raw->meta, one, len + 1);
                meta_len = len ? len : 1;
                root_seen = root;
            }
            sc->sum.samples += meta_u64(one, "samples");
            sc->sum.ticks += meta_u64(one, "ticks");
            sc->sum.dropped += meta_u64(one, "dropped");
            sc->sum.threads += meta_u64(one, "threads");
            sc->sum.user_ns += meta_u64(one, "user_ns");
            info->processes++;
        } else if (h.type == BL_RAW_TRACE) {
            sc->traced = 1;
        } else if (h.type == BL_RAW_EVENTS && sc->n_event_tids < MAX_SCHED) {
            event_tids[sc->n_event_tids++] = h.tid;
            info->events_kept += h.n_bytes / 16;
        } else if (h.type == BL_RAW_SCHED && h.n_bytes >= 16 && sc->n_sched < MAX_SCHED) {
            uint64_t v[2];
            memcpy(v, payload, sizeof v);
            sched[sc->n_sched].tid = h.tid;
            sched[sc->n_sched].inflation = v[0] > 0 ? (double)(v[0] + v[1]) / (double)v[0] : 1.0;
            sc->run_sum += (double)v[0];
            sc->wait_sum += (double)v[1];
            sc->n_sched++;
        }
        n_chunks++;
        at += sizeof h + h.n_bytes;
    }
    if (n_chunks == 0 || damaged)
        return raw->size == 0 ? BL_ENOTFOUND : BL_EFORMAT;
    return 0;
}

/* The tracer's clock and costs, from the run's meta chunk. */
struct trace_clock {
    double ns_per_tick, cost_in, cost_call;
};

/* The run's facts into *info, from the run's meta chunk and pass 1's sums. */
static void read_info(const struct raw *raw, struct chunk_scan *sc, struct bl_profile_info *info,
                      struct trace_clock *tc)
{
    char mode[16];
    meta_str(raw->meta, "mode", mode, sizeof mode);
    sc->traced = sc->traced || strcmp(mode, "trace") == 0;
    info->kind = sc->traced ? BL_PROFILE_TRACED : BL_PROFILE_SAMPLED;
    meta_str(raw->meta, "clock", info->clock, sizeof info->clock);
    meta_str(raw->meta, "source", info->source, sizeof info->source);
    info->period_ns = meta_u64(raw->meta, "period_ns");
    int many = info->processes > 1;
    info->samples = many ? sc->sum.samples : meta_u64(raw->meta, "samples");
    info->dropped = many ? sc->sum.dropped : meta_u64(raw->meta, "dropped");
    info->threads = many ? sc->sum.threads : meta_u64(raw->meta, "threads");
    info->elapsed_ns = meta_u64(raw->meta, "elapsed_ns");
    info->user_ns = many ? sc->sum.user_ns : meta_u64(raw->meta, "user_ns");
    info->crash_signal = (int)meta_u64(raw->meta, "crash_signal");
    info->perf_errno = (int)meta_u64(raw->meta, "perf_errno");
    double tsc_hz = (double)meta_u64(raw->meta, "tsc_hz");
    tc->cost_in = (double)meta_u64(raw->meta, "cost_in_mticks") / 1000.0;
    tc->cost_call = (double)meta_u64(raw->meta, "cost_call_mticks") / 1000.0;
    tc->ns_per_tick = tsc_hz > 0 ? 1e9 / tsc_hz : 1.0;
    info->trace_cost_ns = tc->cost_call * tc->ns_per_tick;
    double run_wait = sc->run_sum + sc->wait_sum;
    info->wait_share = run_wait > 0 ? sc->wait_sum / run_wait : 0;
    /* Signals handled, paused ones included (run --profile records only the
     * measured batches), against the user time: the rate the kernel delivered. */
    uint64_t ticks = many ? sc->sum.ticks : meta_u64(raw->meta, "ticks");
    if (!sc->traced && info->user_ns && info->period_ns && strcmp(info->clock, "cpu") == 0)
        info->delivered = (double)(ticks ? ticks : info->samples) /
                          ((double)info->user_ns / (double)info->period_ns);
    meta_str(raw->meta, "unwind", info->unwind, sizeof info->unwind);
    info->stack_bytes = meta_u64(raw->meta, "stack_bytes");
}

/* Each process's maps into a new symbolizer; a file of one process (pid 0
 * in old files) has one. NULL when memory runs out. */
static bl__symbolizer *symbolizer_of(const struct raw *raw, size_t n_maps_chunks)
{
    bl__symbolizer *sym = bl__symbolizer_create(NULL, 0);
    for (size_t at = 0; sym && at + sizeof(struct bl_raw_header) <= raw->size;) {
        struct bl_raw_header h;
        memcpy(&h, raw->data + at, sizeof h);
        if (h.magic != BL_RAW_MAGIC || h.n_bytes > raw->size - at - sizeof h)
            break;
        if (h.type == BL_RAW_MAPS &&
            bl__symbolizer_add_process(sym, n_maps_chunks > 1 ? h.pid : 0,
                                       (const char *)raw->data + at + sizeof h, h.n_bytes) != 0) {
            bl__symbolizer_destroy(sym);
            sym = NULL;
        }
        at += sizeof h + h.n_bytes;
    }
    return sym;
}

/* Pass 2: the samples, traces and timelines into the profile. 0, or the
 * first error; *n_seen counts the sample and trace chunks. */
static int add_chunks(struct namer *nm, const struct raw *raw, const struct chunk_scan *sc,
                      const struct trace_clock *tc, struct bl_profile_info *info, uint64_t *n_seen)
{
    int err = 0;
    for (size_t at = 0; !err && at + sizeof(struct bl_raw_header) <= raw->size;) {
        struct bl_raw_header h;
        memcpy(&h, raw->data + at, sizeof h);
        if (h.magic != BL_RAW_MAGIC || h.n_bytes > raw->size - at - sizeof h)
            break;
        const unsigned char *payload = raw->data + at + sizeof h;
        if (sc->n_maps_chunks > 1 &&
            (h.type == BL_RAW_SAMPLES || h.type == BL_RAW_TRACE || h.type == BL_RAW_EVENTS))
            bl__symbolizer_select(nm->sym, h.pid);
        if (h.type == BL_RAW_SAMPLES) {
            err = add_samples(nm, payload, h.n_bytes, info->period_ns ? info->period_ns : 1, info);
            (*n_seen)++;
        } else if (h.type == BL_RAW_TRACE) {
            double inflation = 1.0;
            for (size_t i = 0; i < sc->n_sched; i++)
                if (sched[i].tid == h.tid)
                    inflation = sched[i].inflation;
            err = add_trace(nm, payload, h.n_bytes, tc->ns_per_tick, tc->cost_in, tc->cost_call,
                            inflation);
            for (size_t i = 0; i < sc->n_event_tids; i++)
                if (event_tids[i] == h.tid)
                    info->events_total += 2 * trace_calls(payload, h.n_bytes);
            (*n_seen)++;
        } else if (h.type == BL_RAW_EVENTS) {
            err = add_events(nm, h.tid, payload, h.n_bytes, tc->ns_per_tick,
                             meta_u64(raw->meta, "tsc0"));
        }
        at += sizeof h + h.n_bytes;
    }
    return err;
}

int bl_profile_load(const char *raw_path, bl_profile **out, struct bl_profile_info *info)
{
    struct bl_profile_info local;
    if (!info)
        info = &local;
    memset(info, 0, sizeof *info);
    *out = NULL;
    struct raw raw = {0};
    int err = read_file(raw_path, &raw);
    if (err)
        return err;
    struct chunk_scan sc;
    memset(&sc, 0, sizeof sc);
    err = scan_chunks(&raw, &sc, info);
    if (err) {
        free(raw.data);
        return err;
    }
    struct trace_clock tc;
    read_info(&raw, &sc, info, &tc);

    bl_profile *p = bl_profile_create(info->kind);
    struct namer nm = {p, NULL, NULL, 0, 0, NULL, 0, 0, 0};
    nm.stack_bytes = info->stack_bytes;
    if (p)
        nm.sym = symbolizer_of(&raw, sc.n_maps_chunks);
    info->maps_missing =
        info->processes > sc.n_maps_chunks ? info->processes - sc.n_maps_chunks : 0;
    if (!p || !nm.sym) {
        bl__symbolizer_destroy(nm.sym);
        bl_profile_destroy(p);
        free(raw.data);
        return -ENOMEM;
    }
    if (!sc.traced && info->period_ns)
        p->unit_ns = (double)info->period_ns;
    uint64_t samples_seen = 0;
    err = add_chunks(&nm, &raw, &sc, &tc, info, &samples_seen);
    if (sc.traced)
        bl__profile_settle(p);
    info->unknown_frames = nm.unknown;
    free(nm.tried);
    free(nm.words);
    bl__symbolizer_destroy(nm.sym);
    free(raw.data);
    if (err) {
        bl_profile_destroy(p);
        return err;
    }
    *out = p;
    return samples_seen == 0 || p->nodes[0].total <= 0 ? BL_ENOTFOUND : 0;
}
