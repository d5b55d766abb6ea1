/*
 * cmd_store.c - the verdicts over the results store (include/benchlab/store.h):
 * `benchlab baseline` and `benchlab judge`. Each opens the store (--store,
 * $BENCHLAB_STORE, or the project's default), asks the library, and
 * prints. Reading commands never create a store.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "benchlab/format.h"
#include "benchlab/judge.h"
#include "benchlab/output.h"
#include "benchlab/profile.h"
#include "benchlab/store.h"
#include "cli.h"
#include "front.h"

/* ---- baseline ---------------------------------------------------------------------- */

/* `baseline acks`: one line per acknowledgement. */
static int list_acks(bl_store *s, char *err, size_t err_size)
{
    bl_store_ack *a;
    size_t n;
    int rc = bl_store_ack_list(s, &a, &n, err, err_size);
    if (rc)
        return rc;
    char name[640], reason[640], date[32];
    for (size_t i = 0; i < n; i++) {
        cli_short_date(date, sizeof date, a[i].acked_at);
        printf("%s at %.12s (acknowledged %s)%s%s\n",
               bl_terminal_text(name, sizeof name, a[i].benchmark), a[i].commit, date,
               a[i].reason ? ": " : "",
               a[i].reason ? bl_terminal_text(reason, sizeof reason, a[i].reason) : "");
    }
    if (!n)
        printf("no acknowledgements in %s\n", bl_store_name(s));
    bl_store_acks_free(a, n);
    return 0;
}

int cmd_baseline(int argc, char **argv)
{
    const char *spec = NULL, *reason = NULL;
    struct bl__args args;
    int first_pos = cli_parse("baseline", argc, argv, &args);
    if (first_pos < 0)
        return first_pos == -1 ? 0 : 2;
    for (size_t k = 0; k < args.n_hits; k++) {
        const char *v = args.hits[k].value;
        int c = args.hits[k].opt->id;
        if (c == BL__ID_STORE)
            spec = v;
        else if (c == BL__ID_REASON)
            reason = v;
    }
    int n = argc - first_pos;
    char **a = argv + first_pos;
    const char *word = n ? a[0] : "";
    int set = n >= 2 && n <= 3 && strcmp(word, "set") == 0;
    int list = n == 1 && strcmp(word, "list") == 0;
    int ack = n == 3 && strcmp(word, "ack") == 0;
    int unack = n == 3 && strcmp(word, "unack") == 0;
    int acks = n == 1 && strcmp(word, "acks") == 0;
    if (!set && !list && !ack && !unack && !acks) {
        bl__help_write(stderr, bl__command_find("baseline"), "benchlab baseline");
        return 2;
    }
    if (reason && !ack)
        return cli_error("baseline: --reason goes with ack");
    bl_store *s;
    if (cli_store_open("baseline", spec, ack ? BL_STORE_CREATE : 0, &s))
        return 2;
    char err[1024], d[640];
    int rc = 0;
    if (set) {
        const char *ref = n == 3 ? a[2] : "@latest";
        int64_t id;
        rc = bl_store_resolve(s, ref, &id, err, sizeof err);
        if (!rc)
            rc = bl_store_baseline_set(s, a[1], id, err, sizeof err);
        if (!rc)
            printf("baseline %s = run %lld\n", bl_terminal_text(d, sizeof d, a[1]), (long long)id);
    } else if (ack) {
        rc = bl_store_ack_add(s, a[1], a[2], reason, err, sizeof err);
        if (!rc)
            printf("acknowledged: %s at %s\n", bl_terminal_text(d, sizeof d, a[1]), a[2]);
    } else if (unack) {
        rc = bl_store_ack_remove(s, a[1], a[2], err, sizeof err);
        if (!rc)
            printf("withdrawn: %s at %s\n", bl_terminal_text(d, sizeof d, a[1]), a[2]);
    } else if (acks) {
        rc = list_acks(s, err, sizeof err);
    } else {
        bl_store_baseline *b;
        size_t nb;
        rc = bl_store_baseline_list(s, &b, &nb, err, sizeof err);
        for (size_t i = 0; !rc && i < nb; i++) {
            char date[32];
            cli_short_date(date, sizeof date, b[i].set_at);
            /* a shared store's names are anyone's: shown, not obeyed */
            printf("%s = run %lld (set %s)\n", bl_terminal_text(d, sizeof d, b[i].name),
                   (long long)b[i].run_id, date);
        }
        if (!rc)
            bl_store_baselines_free(b, nb);
    }
    bl_store_close(s);
    return rc ? cli_error("baseline: %s", err) : 0;
}

/* ---- judge ------------------------------------------------------------------------- */

/* s in Markdown as text: its punctuation that Markdown would read escaped
 * with a backslash, control characters dropped (a stored name is anyone's). */
static void markdown_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            continue;
        if (strchr("\\`*_{}[]()<>#+!|~", *s))
            fputc('\\', f);
        fputc(*s, f);
    }
}

/*
 * The first run of a history: no run with benchmarks before it, so there
 * is nothing to judge against yet. That is how every CI history starts,
 * and it passes, with a note saying so (in the Markdown too, for the pull
 * request and the job summary), rather than fail the first pipeline.
 * Returns the exit status.
 */
static int judge_first_run(FILE *f, const char *label, const bl_store_run *run,
                           const bl_results *cur, const char *store_name, int markdown)
{
    char safe[640];
    size_t n = cur->n_benches;
    if (markdown) {
        fprintf(f, "### benchlab judge: :white_check_mark: nothing to judge against yet\n\n"
                   "No earlier run to judge against: ");
        markdown_text(f, label);
        fprintf(f, " is the first of this store's runs with benchmarks (%zu benchmark%s, store ", n,
                n == 1 ? "" : "s");
        markdown_text(f, store_name);
        fprintf(f, "). It passes; the next run is judged against it.\n");
    } else {
        fprintf(f,
                "no earlier run to judge against: run %lld is the first of the runs with "
                "benchmarks in store %s\n",
                (long long)run->id, bl_terminal_text(safe, sizeof safe, store_name));
        fprintf(f,
                "%s: %zu benchmark%s saved, nothing judged: passes (the next run is judged "
                "against it)\n",
                bl_terminal_text(safe, sizeof safe, label), n, n == 1 ? "" : "s");
    }
    return fflush(f) == 0 ? 0 : cli_error("judge: writing: %s", bl_strerror(-EIO));
}

/* judge's exit status when the runs cannot be judged against each other:
 * told apart from a regression (1) and from trouble (2) by a workflow. */
#define JUDGE_NOT_COMPARABLE 3

struct first_run_ctx {
    const char *label, *store;
    const bl_store_run *run;
    const bl_results *cur;
};

static int write_first_run(FILE *f, const void *ctx)
{
    const struct first_run_ctx *c = ctx;
    return judge_first_run(f, c->label, c->run, c->cur, c->store, 1);
}

struct verdicts_ctx {
    const bl_judgement_set *set;
    const char *base_label, *new_label;
    unsigned gate;
};

static int write_verdicts(FILE *f, const void *ctx)
{
    const struct verdicts_ctx *c = ctx;
    return bl_judge_write(f, c->set, c->base_label, c->new_label, c->gate | BL_JUDGE_MARKDOWN);
}

struct judge_args {
    const char *spec, *against, *ref;
    unsigned gate;
    int other_machine, markdown;
    bl_judge_options o;
};

/* judge's options into a: 0, -1 after the help, or 2 after the message. */
static int parse_judge(int argc, char **argv, struct judge_args *a)
{
    memset(a, 0, sizeof *a);
    bl_judge_options_init(&a->o);
    a->o.metric = BL_JUDGE_AUTO; /* the command's default (docs/store.md, "The metric") */
    const char *format = "text";
    struct bl__args args;
    int first_pos = cli_parse("judge", argc, argv, &args);
    if (first_pos < 0)
        return first_pos == -1 ? -1 : 2;
    for (size_t k = 0; k < args.n_hits; k++) {
        const char *v = args.hits[k].value;
        int c = args.hits[k].opt->id;
        char *end;
        switch (c) {
        case BL__ID_AGAINST:
            a->against = v;
            break;
        case BL__ID_THRESHOLD:
            a->o.threshold_pct = strtod(v, &end);
            if (*end == '%')
                end++;
            if (*end || !(a->o.threshold_pct >= 0))
                return cli_error("judge: --threshold: '%s' is not a percentage", v);
            break;
        case BL__ID_FORMAT:
            if (strcmp(v, "text") && strcmp(v, "markdown"))
                return cli_error("judge: --format: '%s' is not text or markdown", v);
            format = v;
            break;
        case BL__ID_CORRECTION:
            if (strcmp(v, "holm") == 0)
                a->o.correction = BL_CORRECTION_HOLM;
            else if (strcmp(v, "bh") == 0)
                a->o.correction = BL_CORRECTION_BH;
            else if (strcmp(v, "none") == 0)
                a->o.correction = BL_CORRECTION_NONE;
            else
                return cli_error("judge: --correction: '%s' is not holm, bh or none", v);
            break;
        case BL__ID_ALPHA:
            a->o.alpha = strtod(v, &end);
            if (*end || !(a->o.alpha > 0 && a->o.alpha < 1))
                return cli_error("judge: --alpha: '%s' is not in (0, 1)", v);
            break;
        case BL__ID_FILTER:
            a->o.filter = v;
            break;
        case BL__ID_METRIC: /* the option table allows only the names and units */
            bl_judge_metric_parse(v, &a->o.metric);
            break;
        case BL__ID_STORE:
            a->spec = v;
            break;
        case BL__ID_ALLOW_MISSING:
            a->gate |= BL_JUDGE_ALLOW_MISSING;
            break;
        case BL__ID_ALLOW_OTHER_MACHINE:
            a->other_machine = 1;
            break;
        }
    }
    a->markdown = strcmp(format, "markdown") == 0;
    if (a->markdown)
        a->gate |= BL_JUDGE_MARKDOWN;
    if (argc - first_pos > 1)
        return cli_error("judge: one run to judge, not %d (see --help)", argc - first_pos);
    a->ref = first_pos < argc ? argv[first_pos] : "@latest";
    return 0;
}

/* Accept the regressions of `set` that an acknowledgement covers: its
 * commit came in between the baseline's and the run's. */
static void acknowledge(bl_judgement_set *set, const bl_store_run *base, const bl_store_run *cur,
                        const bl_store_ack *acks, size_t n_acks)
{
    for (size_t i = 0; i < n_acks && set->n_acknowledged < set->n_slower + set->n_failed; i++)
        if (bl_store_ack_covers(&acks[i], base->commit, cur->commit))
            bl_judge_acknowledge(set, acks[i].benchmark, acks[i].commit);
}

int cmd_judge(int argc, char **argv)
{
    struct judge_args a;
    int st = parse_judge(argc, argv, &a);
    if (st)
        return st == -1 ? 0 : st;
    const char *spec = a.spec, *against = a.against, *ref = a.ref;
    unsigned gate = a.gate;
    int other_machine = a.other_machine, markdown = a.markdown;
    bl_judge_options o = a.o;
    bl_store *s;
    if (cli_store_open("judge", spec, 0, &s))
        return 2;
    char err[1024];
    bl_results *cur = NULL, *base = NULL;
    bl_store_run cur_run = {0}, base_run = {0};
    int rc = bl_store_load_ref(s, ref, &cur, &cur_run, err, sizeof err);
    char base_ref[300] = "";
    int first_run = 0, base_unknown = 0;
    if (!rc) {
        if (!against) /* the run before RUN that has benchmarks */
            snprintf(base_ref, sizeof base_ref, "@before:%lld", (long long)cur_run.id);
        else if (against[0] == '@')
            snprintf(base_ref, sizeof base_ref, "%s", against);
        else
            snprintf(base_ref, sizeof base_ref, "@baseline:%s", against);
        int64_t base_id;
        rc = bl_store_resolve(s, base_ref, &base_id, err, sizeof err);
        /* a baseline named or referred to must exist: only the default has
         * a first run */
        first_run = !against && rc == BL_ENOTFOUND && cur->n_benches > 0;
        base_unknown = against && rc == BL_ENOTFOUND;
        if (!rc)
            rc = bl_store_load_ref(s, base_ref, &base, &base_run, err, sizeof err);
    }
    if (first_run) {
        char nl[400];
        cli_run_label(nl, sizeof nl, ref, &cur_run);
        rc = judge_first_run(stdout, nl, &cur_run, cur, bl_store_name(s), markdown);
        struct first_run_ctx fc = {nl, bl_store_name(s), &cur_run, cur};
        cli_github_summary("judge", write_first_run, &fc);
        bl_store_close(s);
        bl_results_destroy(cur);
        bl_store_run_fini(&cur_run);
        return rc;
    }
    bl_store_ack *acks = NULL;
    size_t n_acks = 0;
    if (!rc)
        rc = bl_store_ack_list(s, &acks, &n_acks, err, sizeof err);
    bl_store_close(s);
    if (rc) {
        bl_results_destroy(cur);
        bl_results_destroy(base);
        bl_store_run_fini(&cur_run);
        bl_store_run_fini(&base_run);
        cli_error("judge: %s", err);
        /* a baseline named that is not there: not comparable, not trouble */
        return base_unknown ? JUDGE_NOT_COMPARABLE : 2;
    }
    const char *cpu_new = bl_results_get_config(cur, "cpu");
    const char *cpu_base = bl_results_get_config(base, "cpu");
    if (!other_machine && cpu_new && cpu_base && strcmp(cpu_new, cpu_base) != 0) {
        char safe_new[300], safe_base[300];
        cli_error("judge: not comparable: %s ran on %s, the baseline on %s (timings of one CPU "
                  "model say nothing of another); --allow-other-machine judges anyway",
                  ref, bl_terminal_text(safe_new, sizeof safe_new, cpu_new),
                  bl_terminal_text(safe_base, sizeof safe_base, cpu_base));
        bl_store_acks_free(acks, n_acks);
        bl_results_destroy(cur);
        bl_results_destroy(base);
        bl_store_run_fini(&cur_run);
        bl_store_run_fini(&base_run);
        return JUDGE_NOT_COMPARABLE;
    }
    bl_judgement_set *set = NULL;
    rc = bl_judge(base, cur, &o, &set, err, sizeof err);
    int status = 2;
    if (rc) {
        cli_error("judge: %s", err);
    } else {
        acknowledge(set, &base_run, &cur_run, acks, n_acks);
        char bl[400], nl[400];
        cli_run_label(bl, sizeof bl, against ? base_ref : NULL, &base_run);
        cli_run_label(nl, sizeof nl, ref, &cur_run);
        rc = bl_judge_write(stdout, set, bl, nl, gate);
        if (bl_github_actions())
            bl_judge_write_github(stderr, set, bl, gate);
        struct verdicts_ctx vc = {set, bl, nl, gate};
        cli_github_summary("judge", write_verdicts, &vc);
        size_t n_compared = set->n_slower + set->n_faster + set->n_unchanged + set->n_failed;
        if (fflush(stdout) != 0 || rc)
            cli_error("judge: writing: %s", bl_strerror(rc ? rc : -EIO));
        else if (!n_compared && set->n_new && set->n_missing)
            /* an exec session judged against a suite's run: a gate that compared
             * nothing must not pass */
            status = JUDGE_NOT_COMPARABLE,
            cli_error("judge: nothing to judge: %s and %s have no benchmark in common (%zu new, "
                      "%zu missing); name a run of the same suite or commands with --against "
                      "@REF",
                      nl, bl, set->n_new, set->n_missing);
        else if (set->n_lacking && !set->n_tested && !set->n_counts && !set->n_failed)
            /* --metric a run does not measure: a gate that could not fire */
            status = JUDGE_NOT_COMPARABLE,
            cli_error("judge: nothing to judge: no benchmark of %s and %s has %s on both sides "
                      "(%s)",
                      nl, bl, bl_judge_metric_unit(set->opts.metric),
                      set->opts.metric == BL_JUDGE_INSTRUCTIONS
                          ? "a run with --counters measures it, where the machine has the counter"
                          : "the runs were saved without it");
        else
            status = bl_judge_gate(set, gate);
    }
    bl_judgement_set_destroy(set);
    bl_store_acks_free(acks, n_acks);
    bl_results_destroy(cur);
    bl_results_destroy(base);
    bl_store_run_fini(&cur_run);
    bl_store_run_fini(&base_run);
    return status;
}
