/*
 * bisect_write.c - `benchlab bisect`'s result (engine/bisect.c) as text
 * for a person or a CI log, and as JSON (docs/ab.md, "Bisecting a
 * regression").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/bisect.h"

static const char *verdict_name(int v)
{
    return v == BL_BISECT_BAD ? "bad" : v == BL_BISECT_GOOD ? "good" : "skipped";
}

int bl_bisect_write_text(FILE *f, const bl_bisect_result *r)
{
    struct bl__buf safe = {0};
    if (r->first_bad[0])
        fprintf(f, "first bad commit: %s\n  %s: %.4f x GOOD [%.4f, %.4f] (BAD: %.4f x)\n",
                r->first_bad, bl__terminal_safe(&safe, r->bench ? r->bench : "?"), r->ratio, r->lo,
                r->hi, r->bad_ratio);
    else if (r->ambiguous)
        fprintf(f, "%s\n", r->ambiguous);
    else if (r->interrupted)
        fprintf(f, "interrupted: no first bad commit yet\n");
    fprintf(f, "%zu commit%s in %.12s..%.12s, %zu build%s (%zu skipped), %zu step%s\n",
            r->n_commits, r->n_commits == 1 ? "" : "s", r->good, r->bad, r->n_builds,
            r->n_builds == 1 ? "" : "s", r->n_skipped, r->n_steps, r->n_steps == 1 ? "" : "s");
    if (r->n_steps)
        fprintf(f, "\nstep  commit        verdict  NEW/GOOD  95%% CI              measured\n");
    for (size_t i = 0; i < r->n_steps; i++) {
        const bl_bisect_step *s = &r->steps[i];
        char ci[64] = "-";
        if (!isnan(s->lo))
            snprintf(ci, sizeof ci, "[%.4f, %.4f]", s->lo, s->hi);
        fprintf(f, "%4zu  %.12s  %-7s  ", i + 1, s->commit, verdict_name(s->verdict));
        if (isnan(s->ratio))
            fprintf(f, "%8s  %-18s  -\n", "-", ci);
        else
            fprintf(f, "%8.4f  %-18s  %dx%s\n", s->ratio, ci, s->measurements,
                    s->unclear ? " (unclear: the estimate decided)" : "");
        if (s->message) {
            /* a failed build: its last line */
            const char *m = s->message, *end = m + strlen(m);
            while (end > m && (end[-1] == '\n' || end[-1] == ' '))
                end--;
            const char *start = end;
            while (start > m && start[-1] != '\n')
                start--;
            struct bl__buf line = {0};
            bl__terminal_text(&line, start, (size_t)(end - start), 0);
            fprintf(f, "      build failed: %s\n", line.data ? line.data : "");
            bl__buf_fini(&line);
        }
    }
    bl__buf_fini(&safe);
    return ferror(f) ? -EIO : 0;
}

static void json_commit(FILE *f, const char *c)
{
    if (c && *c)
        bl__json_string(f, c);
    else
        fputs("null", f);
}

int bl_bisect_write_json(FILE *f, const bl_bisect_result *r)
{
    fputs("{\"commit\": ", f);
    json_commit(f, r->first_bad);
    fputs(", \"ratio\": ", f);
    bl__json_number(f, r->ratio);
    fputs(", \"lo\": ", f);
    bl__json_number(f, r->lo);
    fputs(", \"hi\": ", f);
    bl__json_number(f, r->hi);
    fputs(", \"benchmark\": ", f);
    json_commit(f, r->bench);
    fputs(", \"good\": ", f);
    json_commit(f, r->good);
    fputs(", \"bad\": ", f);
    json_commit(f, r->bad);
    fputs(", \"bad_ratio\": ", f);
    bl__json_number(f, r->bad_ratio);
    fputs(", \"boundary\": ", f);
    bl__json_number(f, r->boundary);
    fprintf(f, ", \"commits\": %zu, \"builds\": %zu, \"skipped\": %zu, \"interrupted\": %s",
            r->n_commits, r->n_builds, r->n_skipped, r->interrupted ? "true" : "false");
    fputs(", \"ambiguous\": ", f);
    json_commit(f, r->ambiguous);
    fputs(",\n \"steps\": [", f);
    for (size_t i = 0; i < r->n_steps; i++) {
        const bl_bisect_step *s = &r->steps[i];
        fputs(i ? ",\n  {\"commit\": " : "\n  {\"commit\": ", f);
        bl__json_string(f, s->commit);
        fprintf(f, ", \"verdict\": \"%s\", \"ratio\": ", verdict_name(s->verdict));
        bl__json_number(f, s->ratio);
        fputs(", \"lo\": ", f);
        bl__json_number(f, s->lo);
        fputs(", \"hi\": ", f);
        bl__json_number(f, s->hi);
        fprintf(f, ", \"measurements\": %d, \"unclear\": %s}", s->measurements,
                s->unclear ? "true" : "false");
    }
    fputs(r->n_steps ? "\n ]}\n" : "]}\n", f);
    return ferror(f) ? -EIO : 0;
}
