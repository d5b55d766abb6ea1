/*
 * write_json.c - speedscope's file format and Chrome trace events.
 *
 * speedscope: one "sampled" profile whose samples are the tree's stacks
 * with their exclusive value as weight (https://www.speedscope.app/file-format-schema.json).
 * Chrome trace: the traced timeline (begin/end events per thread) when the
 * tracer kept one (BENCHLAB_TRACE_EVENTS); otherwise complete ("X") events
 * laid out from the tree, each node starting where its previous sibling
 * ended: the aggregated call tree as a flame chart.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "../lib/base/base.h" /* bl__json_string: base/escape.c, built in */
#include "profile_int.h"

static int speedscope_node(const bl_profile *p, FILE *out, uint32_t node, uint32_t *path,
                           size_t depth, int *first)
{
    if (node != 0) {
        path[depth++] = p->nodes[node].func;
        double self = p->nodes[node].self;
        if (self > 0) {
            fprintf(out, "%s\n[", *first ? "" : ",");
            for (size_t i = 0; i < depth; i++)
                fprintf(out, "%s%u", i ? "," : "", path[i]);
            fputc(']', out);
            *first = 0;
        }
    }
    size_t n;
    uint32_t *kids = bl__profile_children(p, node, &n, 1);
    if (!kids)
        return -ENOMEM;
    int err = 0;
    for (size_t i = 0; i < n && !err; i++)
        err = speedscope_node(p, out, kids[i], path, depth, first);
    free(kids);
    return err;
}

static void speedscope_weights(const bl_profile *p, FILE *out, uint32_t node, int *first)
{
    if (node != 0 && p->nodes[node].self > 0) {
        fprintf(out, "%s%lld", *first ? "" : ",", llround(p->nodes[node].self));
        *first = 0;
    }
    size_t n;
    uint32_t *kids = bl__profile_children(p, node, &n, 1);
    for (size_t i = 0; kids && i < n; i++)
        speedscope_weights(p, out, kids[i], first);
    free(kids);
}

/* The sum of the weights as written (rounded to whole ns): speedscope's span. */
static double speedscope_span(const bl_profile *p)
{
    double sum = 0;
    for (size_t i = 1; i < p->n_nodes; i++)
        if (p->nodes[i].self > 0)
            sum += llround(p->nodes[i].self);
    return sum;
}

static size_t tree_depth(const bl_profile *p)
{
    size_t deepest = 0;
    for (size_t i = 1; i < p->n_nodes; i++) {
        size_t d = 0;
        for (uint32_t n = (uint32_t)i; n != 0; n = p->nodes[n].parent)
            d++;
        if (d > deepest)
            deepest = d;
    }
    return deepest;
}

int bl__profile_write_speedscope(const bl_profile *p, FILE *out)
{
    uint32_t *path = malloc((tree_depth(p) + 1) * sizeof *path);
    if (!path)
        return -ENOMEM;
    fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
          "\"exporter\":\"benchlab\",\"name\":\"benchlab profile\",\"activeProfileIndex\":0,\n"
          "\"shared\":{\"frames\":[",
          out);
    for (size_t i = 0; i < p->n_funcs; i++) {
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
        bl__json_string(out, p->funcs[i].name);
        if (p->funcs[i].file) {
            fputs(",\"file\":", out);
            bl__json_string(out, p->funcs[i].file);
            fprintf(out, ",\"line\":%d", p->funcs[i].line);
        }
        fputc('}', out);
    }
    fprintf(out,
            "]},\n\"profiles\":[{\"type\":\"sampled\",\"name\":\"%s\",\"unit\":\"nanoseconds\","
            "\"startValue\":0,\"endValue\":%.0f,\n\"samples\":[",
            p->kind == BL_PROFILE_TRACED ? "traced" : "sampled", speedscope_span(p));
    int first = 1;
    int err = speedscope_node(p, out, 0, path, 0, &first);
    fputs("],\n\"weights\":[", out);
    first = 1;
    speedscope_weights(p, out, 0, &first);
    fputs("]}]}\n", out);
    free(path);
    return err;
}

static int chrome_node(const bl_profile *p, FILE *out, uint32_t node, double ts_ns, int *first)
{
    const struct bl__node *nd = &p->nodes[node];
    if (node != 0) {
        fprintf(out, "%s\n{\"name\":", *first ? "" : ",");
        bl__json_string(out, p->funcs[nd->func].name);
        fprintf(out,
                ",\"cat\":\"function\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,"
                "\"pid\":1,\"tid\":1",
                ts_ns / 1e3, nd->total / 1e3);
        fprintf(out, ",\"args\":{\"self_us\":%.3f", (nd->self > 0 ? nd->self : 0) / 1e3);
        if (p->kind == BL_PROFILE_TRACED)
            fprintf(out, ",\"calls\":%llu", (unsigned long long)nd->calls);
        fputs("}}", out);
        *first = 0;
    }
    size_t n;
    uint32_t *kids = bl__profile_children(p, node, &n, 0);
    if (!kids)
        return -ENOMEM;
    int err = 0;
    for (size_t i = 0; i < n && !err; i++) {
        err = chrome_node(p, out, kids[i], ts_ns, first);
        ts_ns += p->nodes[kids[i]].total;
    }
    free(kids);
    return err;
}

/* The traced timeline: begin and end events per thread, real time stamps. */
static void chrome_timeline(const bl_profile *p, FILE *out)
{
    for (size_t i = 0; i < p->n_events; i++) {
        const struct bl__event *e = &p->events[i];
        fputs(",\n{\"name\":", out);
        bl__json_string(out, p->funcs[e->func].name);
        fprintf(out, ",\"cat\":\"function\",\"ph\":\"%c\",\"ts\":%.3f,\"pid\":1,\"tid\":%u}",
                e->is_exit ? 'E' : 'B', e->ts_ns / 1e3, e->tid);
    }
}

int bl__profile_write_chrome(const bl_profile *p, FILE *out)
{
    if (p->n_events) {
        fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
              "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
              "\"args\":{\"name\":\"benchlab profile (timeline)\"}}",
              out);
        chrome_timeline(p, out);
        fputs("\n]}\n", out);
        return 0;
    }
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
          "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"
          "\"args\":{\"name\":\"benchlab profile\"}}",
          out);
    int first = 0;
    int err = chrome_node(p, out, 0, 0, &first);
    fputs("\n]}\n", out);
    return err;
}
