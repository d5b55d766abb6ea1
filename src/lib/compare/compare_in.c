/*
 * compare_in.c - reading the inputs of `benchlab compare`.
 *
 * Each input's format is sniffed from its first bytes (JSON starts with
 * '{' after optional whitespace; anything else is the Go benchmark
 * format). Reading is a two-stage pipeline: a parser thread splits lines
 * and converts numbers, serialising results, configuration changes, unit
 * metadata and syntax errors into blocks; the calling thread replays the
 * blocks, in order, into the engine, whose state it alone touches. On two
 * cores this overlaps the two halves of the work; the order of everything
 * (results, messages, fatal errors) is exactly the sequential order.
 * Memory stays bounded: at most MAX_BLOCKS blocks are in flight.
 *
 * The configuration travels as its changes: the whole of it when a
 * result first needs it (an input's first result, a JSON document), then
 * one record per "key: value" line (the Go reader's on_config). A file
 * whose configuration grows before every result is then linear, not
 * quadratic, in its size.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../format/gobench.h"
#include "compare_int.h"

int bl__compare_read_json(int fd, const char *prefix, size_t prefix_len, const char *path,
                          const char *label, const bl_gobench_handler *h, char *err,
                          size_t err_size);

#define BLOCK_SIZE (256u << 10)
#define MAX_BLOCKS 16

enum { REC_RESULT = 1, REC_CONFIG, REC_CSET, REC_GEN, REC_UNIT, REC_ERROR, REC_FATAL, REC_INPUT };

struct block {
    struct block *next;
    size_t used, cap;
    char data[];
};

struct pipe {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct block *head, *tail; /* full blocks, in order */
    struct block *free_list;
    size_t n_alloc;
    int stop; /* the consumer gave up */
    /* producer side */
    struct block *cur;
    unsigned long sent_gen;
    int synced;  /* the consumer has the configuration: send its changes */
    int changed; /* changes sent since the last generation */
    int oom;
    /* the inputs */
    const char **paths, **labels;
    size_t n;
};

static struct block *block_get(struct pipe *p, size_t need)
{
    size_t cap = need > BLOCK_SIZE ? need : BLOCK_SIZE;
    pthread_mutex_lock(&p->mu);
    while (!p->stop && p->n_alloc >= MAX_BLOCKS && !p->free_list)
        pthread_cond_wait(&p->cv, &p->mu);
    struct block *b = NULL;
    if (p->free_list && p->free_list->cap >= cap) {
        b = p->free_list;
        p->free_list = b->next;
    }
    if (!b && !p->stop) {
        b = malloc(sizeof *b + cap);
        if (b) {
            b->cap = cap;
            p->n_alloc++;
        }
    }
    pthread_mutex_unlock(&p->mu);
    if (b) {
        b->next = NULL;
        b->used = 0;
    }
    return b;
}

static void block_send(struct pipe *p, struct block *b)
{
    pthread_mutex_lock(&p->mu);
    if (p->tail)
        p->tail->next = b;
    else
        p->head = b;
    p->tail = b;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Room for n bytes in the current block (8-byte aligned), or NULL. */
static char *reserve(struct pipe *p, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if (p->cur && p->cur->used + n > p->cur->cap) {
        block_send(p, p->cur);
        p->cur = NULL;
    }
    if (!p->cur) {
        p->cur = block_get(p, n);
        if (!p->cur) {
            p->oom = 1;
            return NULL;
        }
    }
    char *r = p->cur->data + p->cur->used;
    p->cur->used += n;
    return r;
}

static size_t str_size(size_t len)
{
    return sizeof(uint32_t) + len + 1;
}

static char *put_str(char *w, const char *s, size_t len)
{
    uint32_t l = (uint32_t)len;
    memcpy(w, &l, sizeof l);
    memcpy(w + sizeof l, s, len);
    w[sizeof l + len] = '\0';
    return w + sizeof l + len + 1;
}

static const char *get_str(const char **r, size_t *len)
{
    uint32_t l;
    memcpy(&l, *r, sizeof l);
    const char *s = *r + sizeof l;
    *r = s + l + 1;
    if (len)
        *len = l;
    return s;
}

struct rec_hdr {
    uint32_t type;
    uint32_t size; /* whole record, aligned */
};

static char *rec_begin(struct pipe *p, uint32_t type, size_t body)
{
    size_t n = (sizeof(struct rec_hdr) + body + 7) & ~(size_t)7;
    char *w = reserve(p, n);
    if (!w)
        return NULL;
    struct rec_hdr h = {type, (uint32_t)n};
    memcpy(w, &h, sizeof h);
    return w + sizeof h;
}

static int send_config(struct pipe *p, const bl_gobench_result *r)
{
    size_t body = sizeof(uint64_t) + sizeof(uint32_t);
    for (size_t i = 0; i < r->n_config; i++)
        body += str_size(strlen(r->config[i].key)) + str_size(strlen(r->config[i].value));
    char *w = rec_begin(p, REC_CONFIG, body);
    if (!w)
        return -ENOMEM;
    uint64_t gen = r->config_gen;
    uint32_t n = (uint32_t)r->n_config;
    memcpy(w, &gen, sizeof gen);
    w += sizeof gen;
    memcpy(w, &n, sizeof n);
    w += sizeof n;
    for (size_t i = 0; i < r->n_config; i++) {
        w = put_str(w, r->config[i].key, strlen(r->config[i].key));
        w = put_str(w, r->config[i].value, strlen(r->config[i].value));
    }
    p->sent_gen = r->config_gen;
    return 0;
}

/* A new generation explained by the changes sent since the last one. */
static int send_gen(struct pipe *p, const bl_gobench_result *r)
{
    char *w = rec_begin(p, REC_GEN, sizeof(uint64_t));
    if (!w)
        return -ENOMEM;
    uint64_t gen = r->config_gen;
    memcpy(w, &gen, sizeof gen);
    p->sent_gen = r->config_gen;
    return 0;
}

/* One "key: value" line (value NULL: the key is deleted). Before the
 * consumer has the whole configuration, nothing: the next result sends it. */
static void prod_config(void *ctx, const char *key, const char *value)
{
    struct pipe *p = ctx;
    if (!p->synced)
        return;
    size_t kl = strlen(key), vl = value ? strlen(value) : 0;
    char *w = rec_begin(p, REC_CSET, sizeof(uint32_t) + str_size(kl) + str_size(vl));
    if (!w) {
        p->synced = 0; /* p->oom is set; the next result resends it all */
        return;
    }
    uint32_t has = value != NULL;
    memcpy(w, &has, sizeof has);
    w = put_str(w + sizeof has, key, kl);
    put_str(w, value ? value : "", vl);
    p->changed = 1;
}

static int prod_result(void *ctx, const bl_gobench_result *r)
{
    struct pipe *p = ctx;
    if (__atomic_load_n(&p->stop, __ATOMIC_RELAXED))
        return -ECANCELED;
    if (p->oom)
        return -ENOMEM;
    if (r->config_gen != p->sent_gen) {
        /* the Go reader changes the generation exactly when it tells a
         * change; a reader that does not tell (JSON) sends it whole */
        if (p->synced && p->changed ? send_gen(p, r) : send_config(p, r))
            return -ENOMEM;
        p->synced = 1;
        p->changed = 0;
    }
    size_t body = sizeof(uint64_t) * 2 + sizeof(uint32_t) + str_size(r->name_len);
    for (size_t i = 0; i < r->n_values; i++)
        body += sizeof(double) + str_size(r->values[i].unit_len);
    char *w = rec_begin(p, REC_RESULT, body);
    if (!w)
        return -ENOMEM;
    uint64_t line = r->line, iters = (uint64_t)r->iters;
    uint32_t nv = (uint32_t)r->n_values;
    memcpy(w, &line, 8);
    memcpy(w + 8, &iters, 8);
    memcpy(w + 16, &nv, 4);
    w = put_str(w + 20, r->name, r->name_len);
    for (size_t i = 0; i < r->n_values; i++) {
        memcpy(w, &r->values[i].value, sizeof(double));
        w = put_str(w + sizeof(double), r->values[i].unit, r->values[i].unit_len);
    }
    return 0;
}

static int prod_unit(void *ctx, const char *unit, const char *key, const char *value,
                     const char *path, size_t line)
{
    struct pipe *p = ctx;
    (void)path;
    char *w = rec_begin(
        p, REC_UNIT, 8 + str_size(strlen(unit)) + str_size(strlen(key)) + str_size(strlen(value)));
    if (!w)
        return -ENOMEM;
    uint64_t l = line;
    memcpy(w, &l, 8);
    w = put_str(w + 8, unit, strlen(unit));
    w = put_str(w, key, strlen(key));
    put_str(w, value, strlen(value));
    return 0;
}

static void prod_error(void *ctx, const char *path, size_t line, const char *msg)
{
    struct pipe *p = ctx;
    (void)path;
    char *w = rec_begin(p, REC_ERROR, 8 + str_size(strlen(msg)));
    if (!w)
        return;
    uint64_t l = line;
    memcpy(w, &l, 8);
    put_str(w + 8, msg, strlen(msg));
}

static void prod_meta(void *ctx, const char *key, const char *value)
{
    (void)ctx;
    (void)key;
    (void)value;
}

/* A record telling the consumer that input `idx` starts (for paths). */
static int send_marker(struct pipe *p, uint32_t type, uint32_t idx, int code, const char *msg)
{
    size_t ml = msg ? strlen(msg) : 0;
    char *w = rec_begin(p, type, 8 + str_size(ml));
    if (!w)
        return -ENOMEM;
    int32_t c = code;
    memcpy(w, &idx, 4);
    memcpy(w + 4, &c, 4);
    put_str(w + 8, msg ? msg : "", ml);
    return 0;
}

static int sniff_and_read(struct pipe *p, int fd, const char *path, const char *label,
                          const bl_gobench_handler *h, char *err, size_t err_size)
{
    char head[4096];
    size_t n = 0;
    for (;;) {
        ssize_t got = read(fd, head + n, sizeof head - n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            char m[256];
            snprintf(m, sizeof m, "%s", strerror(e));
            if (m[0] >= 'A' && m[0] <= 'Z')
                m[0] = (char)(m[0] - 'A' + 'a');
            snprintf(err, err_size, "%s:0: read %s: %s", path, path, m);
            return -e;
        }
        n += (size_t)got;
        size_t i = 0;
        while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
            i++;
        if (got == 0 || i < n || n == sizeof head)
            break;
    }
    (void)p;
    size_t i = 0;
    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
        i++;
    if (i < n && head[i] == '{')
        return bl__compare_read_json(fd, head, n, path, label, h, err, err_size);
    return bl__gobench_read(fd, head, n, path, label, h, err, err_size);
}

static void *producer(void *arg)
{
    struct pipe *p = arg;
    bl_gobench_handler h = {p, prod_result, prod_unit, prod_meta, prod_error, prod_config};
    char err[1024];
    for (size_t i = 0; i < p->n && !p->oom; i++) {
        int fd = 0, rc = 0;
        int is_stdin = strcmp(p->paths[i], "-") == 0;
        err[0] = '\0';
        p->sent_gen = 0;
        p->synced = p->changed = 0;
        if (send_marker(p, REC_INPUT, (uint32_t)i, 0, NULL))
            break;
        if (!is_stdin) {
            fd = open(p->paths[i], O_RDONLY | O_CLOEXEC);
            if (fd < 0) {
                rc = -errno;
                char m[256];
                snprintf(m, sizeof m, "%s", strerror(errno));
                if (m[0] >= 'A' && m[0] <= 'Z')
                    m[0] = (char)(m[0] - 'A' + 'a');
                snprintf(err, sizeof err, "open %s: %s", p->paths[i], m);
            }
        }
        if (!rc)
            rc = sniff_and_read(p, fd, p->paths[i], p->labels[i], &h, err, sizeof err);
        if (!is_stdin && fd >= 0)
            close(fd);
        if (rc) {
            if (rc == -ECANCELED)
                break;
            if (!err[0])
                snprintf(err, sizeof err, "%s: %s", p->paths[i], bl_strerror(rc));
            send_marker(p, REC_FATAL, (uint32_t)i, rc, err);
            break;
        }
    }
    if (p->cur) {
        block_send(p, p->cur);
        p->cur = NULL;
    }
    pthread_mutex_lock(&p->mu);
    p->n = 0; /* done */
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Replay one block into the engine. Returns 0, 1 at a fatal record, or an error. */
static int replay(bl_compare *c, struct pipe *p, const struct block *b, bl_label **cfg,
                  size_t *cap_cfg, unsigned long *gen, const char **path, char *err,
                  size_t err_size, int *fatal)
{
    const bl_gobench_handler *h = bl__compare_handler(c);
    const char *r = b->data, *end = b->data + b->used;
    bl_gobench_value vals_stack[16];
    bl_gobench_value *vals = vals_stack;
    size_t cap_vals = 16;
    int rc = 0;
    while (r < end && !rc) {
        struct rec_hdr hd;
        memcpy(&hd, r, sizeof hd);
        const char *q = r + sizeof hd;
        r += hd.size;
        switch (hd.type) {
        case REC_INPUT: {
            uint32_t idx;
            memcpy(&idx, q, 4);
            *path = p->paths[idx];
            break;
        }
        case REC_CONFIG: {
            uint64_t g;
            uint32_t n;
            memcpy(&g, q, 8);
            memcpy(&n, q + 8, 4);
            q += 12;
            if (n > *cap_cfg) {
                bl_label *nc = realloc(*cfg, n * sizeof *nc);
                if (!nc)
                    return -ENOMEM;
                *cfg = nc;
                *cap_cfg = n;
            }
            for (uint32_t i = 0; i < n; i++) {
                (*cfg)[i].key = (char *)get_str(&q, NULL);
                (*cfg)[i].value = (char *)get_str(&q, NULL);
            }
            *gen = (unsigned long)g;
            rc = bl__compare_config_reset(c, *cfg, n);
            break;
        }
        case REC_CSET: {
            uint32_t has;
            memcpy(&has, q, sizeof has);
            q += sizeof has;
            const char *key = get_str(&q, NULL), *value = get_str(&q, NULL);
            rc = bl__compare_config_set(c, key, has ? value : NULL);
            break;
        }
        case REC_GEN: {
            uint64_t g;
            memcpy(&g, q, 8);
            *gen = (unsigned long)g;
            break;
        }
        case REC_RESULT: {
            bl_gobench_result res;
            uint64_t line, iters;
            uint32_t nv;
            memcpy(&line, q, 8);
            memcpy(&iters, q + 8, 8);
            memcpy(&nv, q + 16, 4);
            q += 20;
            res.name = get_str(&q, &res.name_len);
            if (nv > cap_vals) {
                bl_gobench_value *nvv = malloc(nv * sizeof *nvv);
                if (!nvv)
                    return -ENOMEM;
                if (vals != vals_stack)
                    free(vals);
                vals = nvv;
                cap_vals = nv;
            }
            for (uint32_t i = 0; i < nv; i++) {
                memcpy(&vals[i].value, q, sizeof(double));
                q += sizeof(double);
                vals[i].unit = get_str(&q, &vals[i].unit_len);
            }
            res.iters = (long long)iters;
            res.values = vals;
            res.n_values = nv;
            res.config = NULL; /* the engine follows it: bl__compare_config_* */
            res.n_config = 0;
            res.config_gen = *gen;
            res.path = *path;
            res.line = (size_t)line;
            rc = h->on_result(h->ctx, &res);
            break;
        }
        case REC_UNIT: {
            uint64_t line;
            memcpy(&line, q, 8);
            q += 8;
            const char *unit = get_str(&q, NULL), *key = get_str(&q, NULL),
                       *value = get_str(&q, NULL);
            rc = h->on_unit(h->ctx, unit, key, value, *path, (size_t)line);
            break;
        }
        case REC_ERROR: {
            uint64_t line;
            memcpy(&line, q, 8);
            q += 8;
            h->on_error(h->ctx, *path, (size_t)line, get_str(&q, NULL));
            break;
        }
        case REC_FATAL: {
            int32_t code;
            memcpy(&code, q + 4, 4);
            q += 8;
            snprintf(err, err_size, "%s", get_str(&q, NULL));
            *fatal = code ? code : BL_EFORMAT;
            if (vals != vals_stack)
                free(vals);
            return 1;
        }
        }
    }
    if (vals != vals_stack)
        free(vals);
    return rc;
}

/* Whether the regular file at path is Google Benchmark JSON: a JSON
 * object whose first key is not benchlab's "schema" ("context", as Google
 * Benchmark writes it). Pipes and devices are not read (their bytes are
 * the reader's), nor is standard input. */
static bool is_gbench_json(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char head[512];
    ssize_t got = read(fd, head, sizeof head - 1);
    close(fd);
    if (got <= 0)
        return false;
    head[got] = '\0';
    const char *q = head + strspn(head, " \t\r\n");
    if (*q != '{')
        return false;
    q += 1 + strspn(q + 1, " \t\r\n");
    return *q == '"' && strncmp(q, "\"schema\"", 8) != 0;
}

/*
 * Google Benchmark JSON carries none of the file configuration that Go's
 * and benchlab's outputs have (goos, goarch, pkg, cpu): with one among
 * the inputs, those keys are left out of .config (as -ignore does), so
 * that its rows share the tables of benchlab's output of the same suite
 * instead of being set apart by keys it cannot have (docs/compare.md).
 */
static int ignore_config_of_gbench(bl_compare *c, const char **paths, size_t n)
{
    static const char *const keys[] = {"goos", "goarch", "pkg", "cpu"};
    for (size_t i = 0; i < n; i++)
        if (is_gbench_json(paths[i])) {
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                if (bl__compare_exclude_config(c, keys[k]))
                    return -ENOMEM;
            break;
        }
    return 0;
}

int bl__compare_read_all(bl_compare *c, const char **paths, const char **labels, size_t n,
                         char *err, size_t err_size)
{
    if (ignore_config_of_gbench(c, paths, n))
        return -ENOMEM;
    struct pipe p;
    memset(&p, 0, sizeof p);
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    p.paths = paths;
    p.labels = labels;
    p.n = n;
    pthread_t th;
    if (pthread_create(&th, NULL, producer, &p)) {
        pthread_mutex_destroy(&p.mu);
        pthread_cond_destroy(&p.cv);
        return -EAGAIN;
    }
    bl_label *cfg = NULL;
    size_t cap_cfg = 0;
    unsigned long gen = 0;
    const char *path = n ? paths[0] : "-";
    int rc = 0, fatal = 0;
    for (;;) {
        pthread_mutex_lock(&p.mu);
        while (!p.head && p.n)
            pthread_cond_wait(&p.cv, &p.mu);
        struct block *b = p.head;
        if (b) {
            p.head = b->next;
            if (!p.head)
                p.tail = NULL;
        }
        pthread_mutex_unlock(&p.mu);
        if (!b)
            break;
        int r = replay(c, &p, b, &cfg, &cap_cfg, &gen, &path, err, err_size, &fatal);
        pthread_mutex_lock(&p.mu);
        b->next = p.free_list;
        p.free_list = b;
        if (r)
            p.stop = 1;
        pthread_cond_broadcast(&p.cv);
        pthread_mutex_unlock(&p.mu);
        if (r) {
            rc = r == 1 ? fatal : r;
            break;
        }
    }
    pthread_join(th, NULL);
    if (!rc && p.oom)
        rc = -ENOMEM;
    while (p.head) {
        struct block *b = p.head;
        p.head = b->next;
        free(b);
    }
    while (p.free_list) {
        struct block *b = p.free_list;
        p.free_list = b->next;
        free(b);
    }
    free(p.cur);
    free(cfg);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.cv);
    return rc;
}
