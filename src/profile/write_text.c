/*
 * write_text.c - the text views of a profile: flat profile, call tree,
 * folded stacks, CSV and the summary; and the format dispatch.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/base/base.h" /* bl__csv_field, bl__terminal_safe: base/escape.c, buf.c, built in */
#include "profile_int.h"

static double pct(const bl_profile *p, double v)
{
    double total = p->nodes[0].total;
    return total > 0 ? 100.0 * v / total : 0.0;
}

static double clamp0(double v)
{
    return v > 0 ? v : 0;
}

static void put_ms(FILE *out, double ns)
{
    fprintf(out, "%10.3fms", ns / 1e6);
}

static int write_flat(const bl_profile *p, FILE *out, size_t limit)
{
    struct bl_profile_function *fs;
    size_t n = bl_profile_flat(p, &fs);
    if (!fs && p->n_funcs)
        return -ENOMEM;
    int traced = p->kind == BL_PROFILE_TRACED;
    struct bl__buf safe = {0};
    fprintf(out, "%8s %12s %8s %12s %12s  %s\n", "total%", "total", "self%", "self",
            traced ? "calls" : "", "function");
    for (size_t i = 0; i < n && i < limit; i++) {
        fprintf(out, "%7.2f%% ", pct(p, fs[i].total_ns));
        put_ms(out, fs[i].total_ns);
        fprintf(out, " %7.2f%% ", pct(p, fs[i].self_ns));
        put_ms(out, fs[i].self_ns);
        if (traced)
            fprintf(out, " %12llu", (unsigned long long)fs[i].calls);
        else
            fprintf(out, " %12s", "");
        /* names and files from a binary's symbols and debug information,
         * which anyone may have written: shown, not obeyed, on a terminal */
        fprintf(out, "  %s", bl__terminal_safe(&safe, fs[i].name));
        if (fs[i].file)
            fprintf(out, "  (%s:%d)", bl__terminal_safe(&safe, fs[i].file), fs[i].line);
        fputc('\n', out);
    }
    bl__buf_fini(&safe);
    free(fs);
    return 0;
}

/* Children of `node`, sorted with `cmp`; caller frees. */
static uint32_t *sorted_children(const bl_profile *p, uint32_t node, size_t *n,
                                 int (*cmp)(const void *, const void *))
{
    size_t count = 0;
    for (uint32_t c = p->nodes[node].first_child; c != BL__NO_NODE; c = p->nodes[c].next_sibling)
        count++;
    *n = count;
    uint32_t *kids = malloc((count ? count : 1) * sizeof *kids);
    if (!kids)
        return NULL;
    count = 0;
    for (uint32_t c = p->nodes[node].first_child; c != BL__NO_NODE; c = p->nodes[c].next_sibling)
        kids[count++] = c;
    if (cmp)
        qsort(kids, count, sizeof *kids, cmp);
    return kids;
}

/* qsort has no context argument: the profile being written, one writer at a time per thread. */
static _Thread_local const bl_profile *sort_profile;

static int by_total_desc(const void *a, const void *b)
{
    const struct bl__node *x = &sort_profile->nodes[*(const uint32_t *)a];
    const struct bl__node *y = &sort_profile->nodes[*(const uint32_t *)b];
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return strcmp(sort_profile->funcs[x->func].name, sort_profile->funcs[y->func].name);
}

static int by_name(const void *a, const void *b)
{
    const struct bl__node *x = &sort_profile->nodes[*(const uint32_t *)a];
    const struct bl__node *y = &sort_profile->nodes[*(const uint32_t *)b];
    return strcmp(sort_profile->funcs[x->func].name, sort_profile->funcs[y->func].name);
}

uint32_t *bl__profile_children(const bl_profile *p, uint32_t node, size_t *n, int by_name_order)
{
    sort_profile = p;
    return sorted_children(p, node, n, by_name_order ? by_name : by_total_desc);
}

static int write_tree_node(const bl_profile *p, FILE *out, uint32_t node, int depth)
{
    const struct bl__node *nd = &p->nodes[node];
    if (node != 0) {
        if (pct(p, nd->total) < 0.1)
            return 0;
        fprintf(out, "%7.2f%% %7.2f%% ", pct(p, nd->total), pct(p, clamp0(nd->self)));
        if (p->kind == BL_PROFILE_TRACED)
            fprintf(out, "%12llu ", (unsigned long long)nd->calls);
        struct bl__buf safe = {0};
        fprintf(out, "%*s%s\n", 2 * (depth - 1), "",
                bl__terminal_safe(&safe, p->funcs[nd->func].name));
        bl__buf_fini(&safe);
    }
    size_t n;
    uint32_t *kids = bl__profile_children(p, node, &n, 0);
    if (!kids)
        return -ENOMEM;
    int err = 0;
    for (size_t i = 0; i < n && !err; i++)
        err = write_tree_node(p, out, kids[i], depth + 1);
    free(kids);
    return err;
}

static int write_tree(const bl_profile *p, FILE *out)
{
    fprintf(out, "%8s %8s %s%s\n", "total%", "self%",
            p->kind == BL_PROFILE_TRACED ? "       calls " : "", "function (inclusive, exclusive)");
    return write_tree_node(p, out, 0, 0);
}

struct path {
    uint32_t *nodes;
    size_t depth, cap;
};

static int write_folded_node(const bl_profile *p, FILE *out, uint32_t node, struct path *path)
{
    const struct bl__node *nd = &p->nodes[node];
    if (node != 0) {
        if (path->depth == path->cap) {
            size_t cap = path->cap ? path->cap * 2 : 64;
            uint32_t *nodes = realloc(path->nodes, cap * sizeof *nodes);
            if (!nodes)
                return -ENOMEM;
            path->nodes = nodes;
            path->cap = cap;
        }
        path->nodes[path->depth++] = node;
        long long value = llround(clamp0(nd->self) / p->unit_ns);
        if (value > 0) {
            for (size_t i = 0; i < path->depth; i++)
                fprintf(out, "%s%s", i ? ";" : "", p->funcs[p->nodes[path->nodes[i]].func].name);
            fprintf(out, " %lld\n", value);
        }
    }
    size_t n;
    uint32_t *kids = bl__profile_children(p, node, &n, 1);
    if (!kids)
        return -ENOMEM;
    int err = 0;
    for (size_t i = 0; i < n && !err; i++)
        err = write_folded_node(p, out, kids[i], path);
    free(kids);
    if (node != 0)
        path->depth--;
    return err;
}

static int write_csv(const bl_profile *p, FILE *out)
{
    struct bl_profile_function *fs;
    size_t n = bl_profile_flat(p, &fs);
    if (!fs && p->n_funcs)
        return -ENOMEM;
    fputs("function,calls,self,total\n", out);
    for (size_t i = 0; i < n; i++) {
        bl__csv_field(out, fs[i].name);
        fprintf(out, ",%llu,%.0f,%.0f\n", (unsigned long long)fs[i].calls, fs[i].self_ns,
                fs[i].total_ns);
    }
    free(fs);
    return 0;
}

int bl_profile_write_summary(const bl_profile *p, size_t n_top, FILE *out)
{
    int err = write_flat(p, out, n_top);
    return err ? err : ferror(out) ? -EIO : 0;
}

int bl_profile_write(const bl_profile *p, enum bl_profile_format format, FILE *out)
{
    int err;
    struct path path = {0};
    switch (format) {
    case BL_PROFILE_FLAT:
        err = write_flat(p, out, SIZE_MAX);
        break;
    case BL_PROFILE_TREE:
        err = write_tree(p, out);
        break;
    case BL_PROFILE_TEXT:
        err = write_flat(p, out, SIZE_MAX);
        if (!err && fputc('\n', out) == EOF)
            err = -EIO;
        if (!err)
            err = write_tree(p, out);
        break;
    case BL_PROFILE_FOLDED:
        err = write_folded_node(p, out, 0, &path);
        free(path.nodes);
        break;
    case BL_PROFILE_CSV:
        err = write_csv(p, out);
        break;
    case BL_PROFILE_SVG:
        err = bl__profile_write_svg(p, out);
        break;
    case BL_PROFILE_PPROF:
        err = bl__profile_write_pprof(p, out);
        break;
    case BL_PROFILE_SPEEDSCOPE:
        err = bl__profile_write_speedscope(p, out);
        break;
    case BL_PROFILE_CHROME:
        err = bl__profile_write_chrome(p, out);
        break;
    default:
        return BL_EUSAGE;
    }
    if (!err && fflush(out) != 0)
        err = -errno;
    return err ? err : ferror(out) ? -EIO : 0;
}

static const struct {
    const char *name;
    const char *ext;
    enum bl_profile_format format;
} formats[] = {
    {"text", ".txt", BL_PROFILE_TEXT},
    {"flat", ".flat", BL_PROFILE_FLAT},
    {"tree", ".tree", BL_PROFILE_TREE},
    {"folded", ".folded", BL_PROFILE_FOLDED},
    {"csv", ".csv", BL_PROFILE_CSV},
    {"svg", ".svg", BL_PROFILE_SVG},
    {"pprof", ".pb", BL_PROFILE_PPROF},
    {"speedscope", ".speedscope.json", BL_PROFILE_SPEEDSCOPE},
    {"chrome", ".trace.json", BL_PROFILE_CHROME},
};

int bl_profile_format_parse(const char *name, enum bl_profile_format *format)
{
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (strcmp(name, formats[i].name) == 0) {
            *format = formats[i].format;
            return 0;
        }
    return BL_EUSAGE;
}

enum bl_profile_format bl_profile_format_for_path(const char *path)
{
    size_t len = strlen(path);
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        size_t elen = strlen(formats[i].ext);
        if (len >= elen && strcmp(path + len - elen, formats[i].ext) == 0)
            return formats[i].format;
    }
    if (len >= 8 && strcmp(path + len - 8, ".pprof") == 0)
        return BL_PROFILE_PPROF;
    return BL_PROFILE_FLAT;
}
