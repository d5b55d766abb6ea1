/*
 * tune.c - the tune file (--tune-file): the repetitions per batch each
 * benchmark settled on, cached per machine, as BenchmarkTools' tune step.
 *
 * The runner loads the file before a run, hands each known benchmark's
 * repetitions to its workers (which then skip the pilot), takes the
 * repetitions of benchmarks it did not know from their first launch, and
 * writes the file back at the end, whole or not at all. The cache is only
 * valid on the machine and version that made it: a file whose fingerprint
 * (CPU model, host, benchlab version, batch target) differs is ignored with
 * a note, and rewritten.
 *
 *   benchlab-tune 1
 *   # comment lines
 *   cpu: Intel(R) Xeon(R) Processor
 *   host: vm
 *   benchlab-version: 0.1.0
 *   batch-ms: 1
 *   BenchmarkSort/size=100<TAB>2514
 *
 * A file that does not start with "benchlab-tune 1" is refused (it might be
 * anything the user pointed at by mistake: we never overwrite it), and so
 * is a malformed line, named by file and line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/base.h"
#include "benchlab/common.h"
#include "benchlab/output.h"
#include "engine.h"

#define MAX_REPS 1000000000000ull

static const char *const keys[BL__TUNE_NKEYS] = {"cpu", "host", "benchlab-version", "batch-ms"};

static void fingerprint(char fp[BL__TUNE_NKEYS][256], double batch_ms)
{
    snprintf(fp[0], 256, "%s", bl__sys_cpu_model());
    snprintf(fp[1], 256, "%s", bl__sys_hostname());
    snprintf(fp[2], 256, "%s", BENCHLAB_VERSION_STRING);
    snprintf(fp[3], 256, "%g", batch_ms);
}

static void drop_entries(struct bl__tune *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->entry[i].name);
    t->n = 0;
}

void bl__tune_fini(struct bl__tune *t)
{
    drop_entries(t);
    free(t->entry);
    free(t->note);
    memset(t, 0, sizeof *t);
}

static int add(struct bl__tune *t, const char *name, unsigned long long reps)
{
    for (size_t i = 0; i < t->n; i++) {
        if (strcmp(t->entry[i].name, name) == 0) {
            t->entry[i].reps = reps;
            return 0;
        }
    }
    if (bl__grow((void **)&t->entry, &t->cap, t->n + 1, sizeof *t->entry))
        return -ENOMEM;
    if (!(t->entry[t->n].name = bl__strdup(name)))
        return -ENOMEM;
    t->entry[t->n++].reps = reps;
    return 0;
}

unsigned long long bl__tune_get(const struct bl__tune *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->entry[i].name, name) == 0)
            return t->entry[i].reps;
    return 0;
}

int bl__tune_set(struct bl__tune *t, const char *name, unsigned long long reps)
{
    if (reps == 0 || reps > MAX_REPS)
        return -EINVAL;
    /* a name the file cannot hold as one "name<TAB>reps" line that reads
     * back (the reader's lines are shorter than 4096 bytes, '#' starts a
     * comment) is not remembered: that benchmark is tuned every run */
    if (!name[0] || name[0] == '#' || strpbrk(name, "\t\n\r") || strlen(name) > 4000)
        return -EINVAL;
    t->changed = true;
    return add(t, name, reps);
}

int bl__tune_load(struct bl__tune *t, const char *path, double batch_ms, char *err, size_t err_size)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->batch_ms = batch_ms;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0; /* made at the end of the run */
        int e = -errno;
        snprintf(err, err_size, "--tune-file %s: %s", path, strerror(errno));
        return e;
    }
    char fp[BL__TUNE_NKEYS][256], have[BL__TUNE_NKEYS][256];
    fingerprint(fp, batch_ms);
    memset(have, 0, sizeof have);
    char line[4096];
    size_t lineno = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        else if (!feof(f)) {
            snprintf(err, err_size, "--tune-file %s:%zu: line too long", path, lineno);
            rc = BL_EFORMAT;
            break;
        }
        if (lineno == 1) {
            if (strcmp(line, "benchlab-tune 1") != 0) {
                snprintf(err, err_size,
                         "--tune-file %s is not a benchlab tune file (its first line is not "
                         "\"benchlab-tune 1\"); it is left as it is",
                         path);
                rc = BL_EFORMAT;
                break;
            }
            continue;
        }
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *tab = strchr(line, '\t');
        if (!tab) {
            char *colon = strstr(line, ": ");
            int k = -1;
            for (int i = 0; colon && i < BL__TUNE_NKEYS; i++)
                if ((size_t)(colon - line) == strlen(keys[i]) &&
                    strncmp(line, keys[i], strlen(keys[i])) == 0)
                    k = i;
            if (k < 0) {
                snprintf(err, err_size,
                         "--tune-file %s:%zu: neither \"key: value\" (cpu, host, "
                         "benchlab-version, batch-ms) nor \"name<TAB>repetitions\": %.80s",
                         path, lineno, line);
                rc = BL_EFORMAT;
                break;
            }
            snprintf(have[k], sizeof have[k], "%s", colon + 2);
            continue;
        }
        *tab = '\0';
        char *end;
        errno = 0;
        unsigned long long reps = strtoull(tab + 1, &end, 10);
        if (!*line || tab[1] < '0' || tab[1] > '9' || *end || errno || reps == 0 ||
            reps > MAX_REPS) {
            snprintf(err, err_size,
                     "--tune-file %s:%zu: \"%.80s\": repetitions must be a whole number from 1 "
                     "to 10^12",
                     path, lineno, tab + 1);
            rc = BL_EFORMAT;
            break;
        }
        if ((rc = add(t, line, reps)) != 0)
            break;
    }
    if (!rc && lineno == 0) {
        snprintf(err, err_size,
                 "--tune-file %s is empty, not a benchlab tune file; it is left as it is", path);
        rc = BL_EFORMAT;
    }
    fclose(f);
    if (rc) {
        bl__tune_fini(t);
        return rc;
    }
    t->existed = true;
    for (int k = 0; k < BL__TUNE_NKEYS; k++) {
        if (strcmp(have[k], fp[k]) != 0) {
            /* foreign or stale: its repetitions are not this machine's */
            struct bl__buf b = {0};
            bl__buf_printf(&b,
                           "%s was tuned with %s \"%s\", this run has \"%s\": every benchmark is "
                           "tuned again and the file rewritten",
                           path, keys[k], have[k], fp[k]);
            t->note = b.data;
            drop_entries(t);
            t->changed = true;
            break;
        }
    }
    t->n_loaded = t->n;
    return 0;
}

int bl__tune_save(struct bl__tune *t, char *err, size_t err_size)
{
    if (!t->path || !t->changed)
        return 0;
    bl_output *out = NULL;
    int rc = bl_output_open(t->path, &out);
    if (rc) {
        snprintf(err, err_size, "--tune-file %s: %s", t->path, bl_strerror(rc));
        return rc;
    }
    FILE *f = bl_output_file(out);
    char fp[BL__TUNE_NKEYS][256];
    fingerprint(fp, t->batch_ms);
    fprintf(f, "benchlab-tune 1\n"
               "# Repetitions per batch that benchlab's pilot and warmup chose, per benchmark.\n"
               "# Valid on this machine and benchlab version only (docs/engine.md).\n");
    for (int k = 0; k < BL__TUNE_NKEYS; k++)
        fprintf(f, "%s: %s\n", keys[k], fp[k]);
    for (size_t i = 0; i < t->n; i++)
        fprintf(f, "%s\t%llu\n", t->entry[i].name, t->entry[i].reps);
    rc = bl_output_close(out);
    if (rc)
        snprintf(err, err_size, "--tune-file %s: %s", t->path, bl_strerror(rc));
    return rc;
}
