/*
 * write_notes.c - what benchstat leaves unsaid, as "benchlab compare:
 * note: ..." lines for stderr: tables that are apart only because one
 * .config key differs, with the -ignore flag that would compare them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* 1 when the sorted arrays a[0..na) and b[0..nb) share a value. */
static int sorted_meet(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (a[i] == b[j])
            return 1;
        if (a[i] < b[j])
            i++;
        else
            j++;
    }
    return 0;
}

/*
 * The one .config key in which tables a and b differ, or NULL when they
 * differ in none, in several, or in anything that is not a key of the
 * .config group (a field named in -table: ignoring it is not the fix).
 */
static const struct field *only_config_difference(const bl_compare *c, const struct table *a,
                                                  const struct table *b)
{
    const struct proj *p = c->tablep;
    const struct field *diff = NULL;
    size_t pos = 0;
    for (const struct field *f; (f = bl__key_diff(p, a->key, b->key, &pos)); pos++) {
        if (f == p->unit_field)
            continue;
        if (f->sub < 0 || diff)
            return NULL;
        diff = f;
    }
    return diff;
}

/* Keys, values and labels come from input files: for stderr, a terminal,
 * they are written in the terminal form (\x1b), never raw. */
static void put_text(FILE *out, const char *s)
{
    struct bl__buf safe = {0};
    fputs(bl__terminal_safe(&safe, s), out);
    bl__buf_fini(&safe);
}

static void put_quoted(FILE *out, const bl_compare *c, uint32_t v)
{
    if (v) {
        fputc('"', out);
        put_text(out, c->str.s[v]);
        fputc('"', out);
    } else {
        fputs("none", out);
    }
}

static void put_columns(FILE *out, const bl_compare *c, const struct table *t, struct bl__buf *b)
{
    for (size_t k = 0; k < t->n_cols; k++) {
        bl__key_label(c, c->colp, t->cols[k], b);
        fputs(k ? ", " : "", out);
        put_text(out, b->data);
    }
}

/* Tables beyond this many are not searched for pairs (the search is
 * quadratic; a note is a courtesy, not worth minutes on huge inputs). */
#define NOTE_MAX_TABLES 4096

int bl_compare_write_notes(bl_compare *c, FILE *out)
{
    if (!c->finished || c->n_tables < 2 || c->n_tables > NOTE_MAX_TABLES)
        return 0;
    size_t nt = c->n_tables;
    /* per table, its rows and columns sorted, to test for overlap */
    uint32_t **rows = calloc(nt, sizeof *rows), **cols = calloc(nt, sizeof *cols);
    struct said {
        const struct field *f;
        uint32_t va, vb;
    } *said = NULL;
    size_t n_said = 0, cap_said = 0;
    struct bl__buf b = {0};
    int rc = rows && cols ? 0 : -ENOMEM;
    for (size_t i = 0; i < nt && !rc; i++) {
        const struct table *t = &c->tables[i];
        rows[i] = malloc((t->n_rows ? t->n_rows : 1) * sizeof **rows);
        cols[i] = malloc((t->n_cols ? t->n_cols : 1) * sizeof **cols);
        if (!rows[i] || !cols[i]) {
            rc = -ENOMEM;
            break;
        }
        memcpy(rows[i], t->rows, t->n_rows * sizeof **rows);
        memcpy(cols[i], t->cols, t->n_cols * sizeof **cols);
        qsort(rows[i], t->n_rows, sizeof **rows, cmp_u32);
        qsort(cols[i], t->n_cols, sizeof **cols, cmp_u32);
    }
    for (size_t i = 0; i < nt && !rc; i++) {
        const struct table *ta = &c->tables[i];
        for (size_t j = i + 1; j < nt && !rc; j++) {
            const struct table *tb = &c->tables[j];
            /* the same unit, the same benchmarks, but no input in common:
             * one key keeps apart what would otherwise be compared */
            if (ta->unit != tb->unit || sorted_meet(cols[i], ta->n_cols, cols[j], tb->n_cols) ||
                !sorted_meet(rows[i], ta->n_rows, rows[j], tb->n_rows))
                continue;
            const struct field *f = only_config_difference(c, ta, tb);
            if (!f)
                continue;
            uint32_t va = bl__key_get(c->tablep, ta->key, f);
            uint32_t vb = bl__key_get(c->tablep, tb->key, f);
            int dup = 0;
            for (size_t k = 0; k < n_said && !dup; k++)
                dup = said[k].f == f && said[k].va == va && said[k].vb == vb;
            if (dup)
                continue;
            if (bl__grow((void **)&said, &cap_said, n_said + 1, sizeof *said)) {
                rc = -ENOMEM;
                break;
            }
            said[n_said++] = (struct said){f, va, vb};
            fputs("benchlab compare: note: ", out);
            put_columns(out, c, ta, &b);
            fputs(" and ", out);
            put_columns(out, c, tb, &b);
            fputs(" differ only in ", out);
            put_text(out, f->name);
            fputs(" (", out);
            put_quoted(out, c, va);
            fputs(" and ", out);
            put_quoted(out, c, vb);
            fputs("), so they are in separate tables and not compared; -ignore ", out);
            put_text(out, f->name);
            fputs(" compares them\n", out);
        }
    }
    for (size_t i = 0; i < nt; i++) {
        if (rows)
            free(rows[i]);
        if (cols)
            free(cols[i]);
    }
    free(rows);
    free(cols);
    free(said);
    bl__buf_fini(&b);
    if (!rc && ferror(out))
        rc = -EIO;
    return rc;
}
