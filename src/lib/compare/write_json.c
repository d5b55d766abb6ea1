/*
 * write_json.c - the comparison tables as JSON (`compare -format json`,
 * schema "benchlab-compare/2"; docs/json-schema.md): per table the
 * configuration keys that changed since the previous table (all of them
 * in the first: linear output however often the configuration changes),
 * its unit and columns, per row its cells (n, center, interval, warnings and the
 * comparison with the base column), and the geomeans.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

struct json_field {
    FILE *f;
    int any;
};

static void json_field(void *ctx, const char *name, const char *value)
{
    struct json_field *jf = ctx;
    if (jf->any)
        fputc(',', jf->f);
    bl__json_string(jf->f, name);
    fputc(':', jf->f);
    bl__json_string(jf->f, value);
    jf->any = 1;
}

int bl_compare_write_json(bl_compare *c, FILE *f)
{
    struct bl__buf b = {0};
    fputs("{\"schema\":\"benchlab-compare/2\",", f);
    fputs("\"alpha\":", f);
    bl__json_number(f, c->opts.alpha);
    fputs(",\"confidence\":", f);
    bl__json_number(f, c->opts.confidence);
    fputs(",\"tables\":[", f);
    for (size_t ti = 0; ti < c->n_tables; ti++) {
        const struct table *t = &c->tables[ti];
        fputs(ti ? ",\n{" : "\n{", f);
        fputs("\"config_changes\":{", f);
        struct json_field jf = {f, 0};
        bl__table_fields(c, ti, json_field, &jf);
        fputs("},\"unit\":", f);
        bl__json_string(f, c->str.s[t->unit]);
        fputs(",\"assume\":", f);
        bl__json_string(f, t->exact ? "exact" : "nothing");
        fputs(",\"columns\":[", f);
        for (size_t k = 0; k < t->n_cols; k++) {
            bl__key_label(c, c->colp, t->cols[k], &b);
            if (k)
                fputc(',', f);
            bl__json_string(f, b.data);
        }
        fputs("],\"rows\":[", f);
        for (size_t r = 0; r < t->n_rows; r++) {
            bl__key_label(c, c->rowp, t->rows[r], &b);
            fputs(r ? ",\n{" : "\n{", f);
            fputs("\"name\":", f);
            bl__json_string(f, b.data);
            fputs(",\"cells\":[", f);
            for (size_t k = 0; k < t->n_cols; k++) {
                long ci = bl__cell_find(c, t->key, t->rows[r], t->cols[k]);
                if (k)
                    fputc(',', f);
                if (ci < 0) {
                    fputs("null", f);
                    continue;
                }
                const struct cell *cl = &c->cells[ci];
                fputs("{\"n\":", f);
                fprintf(f, "%zu", (size_t)cl->n);
                fputs(",\"center\":", f);
                bl__json_number(f, cl->center);
                fputs(",\"lo\":", f);
                bl__json_number(f, cl->lo);
                fputs(",\"hi\":", f);
                bl__json_number(f, cl->hi);
                fputs(",\"warnings\":", f);
                bl__json_strings(f, cl->warn, cl->n_warn);
                if (k > 0 && cl->base >= 0) {
                    double old = c->cells[cl->base].center;
                    fputs(",\"vs_base\":{\"p\":", f);
                    bl__json_number(f, cl->p);
                    fputs(",\"significant\":", f);
                    fputs(cl->p <= cl->alpha ? "true" : "false", f);
                    fputs(",\"ratio\":", f);
                    bl__json_number(f, old == cl->center ? 1 : old == 0 ? NAN : cl->center / old);
                    fprintf(f, ",\"n_base\":%zu,\"n\":%zu,\"warnings\":", cl->n1, cl->n2);
                    bl__json_strings(f, cl->cwarn, cl->n_cwarn);
                    fputc('}', f);
                }
                fputc('}', f);
            }
            fputs("]}", f);
        }
        fputs("],\"geomean\":[", f);
        for (size_t k = 0; k < t->n_cols; k++) {
            const struct colsum *s = &t->sum[k];
            if (k)
                fputc(',', f);
            fputs("{\"value\":", f);
            bl__json_number(f, s->has_summary ? s->summary : NAN);
            fputs(",\"ratio\":", f);
            bl__json_number(f, s->has_ratio ? s->ratio : NAN);
            fputs(",\"warnings\":", f);
            bl__json_strings(f, s->warn, s->n_warn);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
    bl__buf_fini(&b);
    return ferror(f) ? -EIO : 0;
}
