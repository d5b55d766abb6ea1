/*
 * bisect.c - `benchlab bisect`: a git range searched with a paired A/B
 * comparison (ab.c) at every step (benchlab/bisect.h says the rule).
 *
 * git and the build command run as child processes in temporary
 * worktrees under one mkdtemp directory; the user's checkout and its
 * working tree are never touched. Every worktree is removed on the one
 * way out, after an error or Ctrl-C too, then `git worktree prune`.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlab/ab.h"
#include "benchlab/bisect.h"
#include "engine.h"

void bl_bisect_options_init(bl_bisect_options *o)
{
    memset(o, 0, sizeof *o);
    o->threshold = 0.005;
    o->time_s = 1;
    o->max_reruns = 2;
}

void bl_bisect_result_destroy(bl_bisect_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_steps; i++)
        free(r->steps[i].message);
    free(r->steps);
    free(r->bench);
    free(r->ambiguous);
    free(r);
}

/* git -C repo ARGS...: its output (stdout; with `both` stderr too) into
 * *out (caller frees; NULL: dropped). The status. */
static int git_run(const char *repo, int both, char **out, const char *a1, const char *a2,
                   const char *a3, const char *a4, const char *a5, const char *a6)
{
    char *argv[] = {(char *)"git", (char *)"-C", (char *)repo, (char *)a1, (char *)a2,
                    (char *)a3,    (char *)a4,   (char *)a5,   (char *)a6, NULL};
    return bl__child_run(NULL, argv, both, out, 0);
}

#define git(repo, out, ...) git_run(repo, 0, out, __VA_ARGS__)

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

/* ---- the bisection ---------------------------------------------------------------------- */

struct bisect {
    const bl_bisect_options *o;
    void (*progress)(void *, const char *);
    void *ctx;
    char repo[4096]; /* the work tree's top */
    char tmp[64];    /* the temporary directory of the worktrees */
    char good_exe[4200];
    bl_bisect_result *r;
    char *err;
    size_t err_size;
};

static void say(struct bisect *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct bisect *b, const char *fmt, ...)
{
    if (!b->progress)
        return;
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    b->progress(b->ctx, line);
}

static int fail(struct bisect *b, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct bisect *b, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, b->err_size, fmt, ap);
    va_end(ap);
    return rc;
}

/* The worktree of `commit` at dir, built: 0; 1 when its build failed (the
 * last lines in *why); -errno or BL_EINTR. */
static int checkout_and_build(struct bisect *b, const char *commit, const char *dir, char **why)
{
    *why = NULL;
    char *out = NULL;
    int st = git_run(b->repo, 1, &out, "worktree", "add", "--detach", "--quiet", dir, commit);
    if (st != 0) {
        chomp(out ? out : (char *)"");
        *why = out;
        return st < 0 ? st : -EIO;
    }
    free(out);
    say(b, "building %.7s", commit);
    char *argv[] = {(char *)"sh", (char *)"-c", (char *)b->o->build, NULL};
    st = bl__child_run(dir, argv, 1, &out, 2000);
    b->r->n_builds++;
    if (bl__run_interrupted()) {
        free(out);
        return BL_EINTR;
    }
    if (st != 0) {
        *why = out;
        return st < 0 ? st : 1;
    }
    free(out);
    char exe[4200];
    snprintf(exe, sizeof exe, "%s/%s", dir, b->o->suite);
    if (access(exe, X_OK) != 0) {
        if (asprintf(why, "the build made no %s", b->o->suite) < 0)
            *why = NULL;
        return 1;
    }
    return 0;
}

static void remove_worktree(struct bisect *b, const char *dir)
{
    git(b->repo, NULL, "worktree", "remove", "--force", dir, NULL, NULL);
}

/* NEW/GOOD of the benchmark followed (or, before one is chosen, the most
 * slowed one) with `time_s`: 0, or an error with err set. */
static int compare(struct bisect *b, const char *new_exe, double time_s, double *ratio, double *lo,
                   double *hi)
{
    bl_ab_options ao;
    bl_ab_options_init(&ao);
    ao.old_exe = b->good_exe;
    ao.new_exe = new_exe;
    ao.time_s = time_s;
    ao.metric = b->o->metric;
    ao.threshold = b->o->threshold;
    char exact[600];
    if (b->r->bench) {
        /* the one benchmark followed, by its whole name */
        size_t k = 0;
        exact[k++] = '^';
        for (const char *s = b->r->bench; *s && k + 4 < sizeof exact; s++) {
            if (strchr("\\^$.|?*+()[]{}", *s))
                exact[k++] = '\\';
            exact[k++] = *s;
        }
        exact[k++] = '$';
        exact[k] = '\0';
        ao.filter = exact;
    } else {
        ao.filter = b->o->filter;
    }
    bl_ab_report *rep = NULL;
    char aerr[1024] = "";
    int rc = bl_ab_run(&ao, NULL, &rep, aerr, sizeof aerr);
    if (rc == BL_EINTR || bl__run_interrupted()) {
        bl_ab_report_destroy(rep);
        return BL_EINTR;
    }
    if (rc < 0) {
        bl_ab_report_destroy(rep);
        return fail(b, rc, "ab: %s", aerr[0] ? aerr : bl_strerror(rc));
    }
    const bl_ab_bench *worst = NULL;
    for (size_t i = 0; i < rep->n_benches; i++) {
        const bl_ab_bench *x = &rep->benches[i];
        int has =
            x->verdict == BL_AB_SAME || x->verdict == BL_AB_FASTER || x->verdict == BL_AB_SLOWER;
        if (has && (!worst || x->est.ratio > worst->est.ratio))
            worst = x;
    }
    int missing = 0; /* a benchmark without a verdict: the budget was too small */
    for (size_t i = 0; i < rep->n_benches; i++)
        missing |=
            rep->benches[i].verdict == BL_AB_TOO_FEW || rep->benches[i].verdict == BL_AB_ERROR;
    if (!worst || (missing && !b->r->bench)) {
        /* measured again with more time (the caller's reruns): choosing
         * the followed benchmark among some of them, or deciding on none,
         * would be deciding on what the budget left out */
        const char *why = "no verdict";
        for (size_t i = 0; i < rep->n_benches; i++)
            if (rep->benches[i].message)
                why = rep->benches[i].message;
        fail(b, BL_EPROTO, "ab: no verdict for every benchmark: %s", why);
        bl_ab_report_destroy(rep);
        return 1;
    }
    if (!b->r->bench) {
        /* BAD's comparison: follow the benchmark BAD slowed most surely,
         * by the lower end of its interval */
        for (size_t i = 0; i < rep->n_benches; i++) {
            const bl_ab_bench *x = &rep->benches[i];
            if ((x->verdict == BL_AB_SAME || x->verdict == BL_AB_FASTER ||
                 x->verdict == BL_AB_SLOWER) &&
                x->est.lo > worst->est.lo)
                worst = x;
        }
    }
    if (!b->r->bench && !(b->r->bench = strdup(worst->name))) {
        bl_ab_report_destroy(rep);
        return -ENOMEM;
    }
    *ratio = worst->est.ratio;
    *lo = worst->est.lo;
    *hi = worst->est.hi;
    bl_ab_report_destroy(rep);
    return 0;
}

static bl_bisect_step *add_step(bl_bisect_result *r, const char *commit)
{
    bl_bisect_step *s = realloc(r->steps, (r->n_steps + 1) * sizeof *s);
    if (!s)
        return NULL;
    r->steps = s;
    s = &r->steps[r->n_steps++];
    memset(s, 0, sizeof *s);
    snprintf(s->commit, sizeof s->commit, "%s", commit);
    s->ratio = s->lo = s->hi = NAN;
    return s;
}

/* One step: build `commit`, compare, decide. *verdict; 0 or an error. */
static int step(struct bisect *b, const char *commit, int *verdict)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/c-%.12s", b->tmp, commit);
    bl_bisect_step *s = add_step(b->r, commit);
    if (!s)
        return -ENOMEM;
    char *why = NULL;
    int rc = checkout_and_build(b, commit, dir, &why);
    s = &b->r->steps[b->r->n_steps - 1];
    if (rc == 1) {
        s->verdict = *verdict = BL_BISECT_SKIPPED;
        s->message = why;
        b->r->n_skipped++;
        say(b, "%.7s: skipped, its build failed", commit);
        remove_worktree(b, dir);
        return 0;
    }
    if (rc) {
        remove_worktree(b, dir);
        if (rc != BL_EINTR)
            fail(b, rc, "%.7s: git worktree: %s", commit, why ? why : bl_strerror(rc));
        free(why);
        b->r->n_steps--; /* not measured: no step */
        return rc;
    }
    char exe[4200];
    snprintf(exe, sizeof exe, "%s/%s", dir, b->o->suite);
    double t = b->o->time_s;
    for (int k = 0;; k++) {
        double ratio = NAN, lo = NAN, hi = NAN;
        rc = compare(b, exe, t, &ratio, &lo, &hi);
        if (rc == 1 && k < b->o->max_reruns) { /* no verdict: more time, as for unclear */
            say(b, "%.7s: no verdict in %gs (%s): measuring again for %gs", commit, t, b->err,
                2 * t);
            t *= 2;
            continue;
        }
        if (rc == 1)
            rc = BL_EPROTO; /* still none: b->err says why */
        if (rc)
            break;
        s->measurements++;
        s->ratio = ratio;
        s->lo = lo;
        s->hi = hi;
        if (lo > b->r->boundary || hi < b->r->boundary || k >= b->o->max_reruns) {
            s->unclear = !(lo > b->r->boundary || hi < b->r->boundary);
            s->verdict = *verdict = ratio > b->r->boundary ? BL_BISECT_BAD : BL_BISECT_GOOD;
            break;
        }
        say(b, "%.7s: unclear, %.4f [%.4f, %.4f] straddles %.4f: measuring again for %gs", commit,
            ratio, lo, hi, b->r->boundary, 2 * t);
        t *= 2;
    }
    remove_worktree(b, dir);
    if (rc && !s->measurements)
        b->r->n_steps--; /* interrupted or failed before any measurement */
    if (!rc)
        say(b, "%.7s: %s, %.4f [%.4f, %.4f]%s", commit,
            s->verdict == BL_BISECT_BAD ? "bad" : "good", s->ratio, s->lo, s->hi,
            s->unclear ? " (unclear: decided by the estimate)" : "");
    return rc;
}

/* The commits of GOOD..BAD, first parent, oldest first, into a NULL-ended
 * array of 40-hex strings (one block). */
static int range(struct bisect *b, char ***out, size_t *n)
{
    char *text = NULL;
    char spec[200];
    snprintf(spec, sizeof spec, "%s..%s", b->r->good, b->r->bad);
    int st = git(b->repo, &text, "rev-list", "--first-parent", "--reverse", spec, NULL, NULL);
    if (st != 0) {
        free(text);
        return fail(b, BL_EUSAGE, "git rev-list %s failed", spec);
    }
    size_t k = 0, lines = 0;
    for (char *p = text; *p; p++)
        lines += *p == '\n';
    char **v = calloc(lines + 1, sizeof *v);
    if (!v) {
        free(text);
        return -ENOMEM;
    }
    for (char *p = strtok(text, "\n"); p; p = strtok(NULL, "\n"))
        if (strlen(p) == 40)
            v[k++] = p;
    *out = v;
    *n = k;
    if (!k) {
        free(text);
        free(v);
        *out = NULL;
        return fail(b, BL_EUSAGE, "no commits between %.12s and %.12s", b->r->good, b->r->bad);
    }
    return 0;
}

static int resolve(struct bisect *b, const char *rev, char *sha)
{
    char spec[300], *out = NULL;
    snprintf(spec, sizeof spec, "%s^{commit}", rev);
    int st = git(b->repo, &out, "rev-parse", "--verify", "--quiet", spec, NULL, NULL);
    if (st == 0 && out)
        chomp(out);
    if (st != 0 || !out || strlen(out) != 40) {
        free(out);
        return fail(b, BL_EUSAGE, "git does not know the revision '%s' in %s", rev, b->repo);
    }
    memcpy(sha, out, 41);
    free(out);
    return 0;
}

/* The search itself, once GOOD is built and BAD measured. */
static int search(struct bisect *b, char **commits, size_t n)
{
    /* lo: the last commit known good (-1: GOOD), hi: the first known bad */
    long lo = -1, hi = (long)n - 1;
    unsigned char *skipped = calloc(n, 1);
    if (!skipped)
        return -ENOMEM;
    int rc = 0;
    while (!rc && hi - lo > 1) {
        long mid = lo + (hi - lo) / 2, pick = -1;
        /* the untested commit nearest the middle that is not skipped */
        for (long d = 0; pick < 0 && d < hi - lo; d++) {
            if (mid + d < hi && !skipped[mid + d])
                pick = mid + d;
            else if (mid - d > lo && !skipped[mid - d])
                pick = mid - d;
        }
        if (pick < 0)
            break; /* every commit between is skipped */
        int v;
        rc = step(b, commits[pick], &v);
        if (rc)
            break;
        if (v == BL_BISECT_SKIPPED)
            skipped[pick] = 1;
        else if (v == BL_BISECT_BAD)
            hi = pick;
        else
            lo = pick;
    }
    if (!rc) {
        int hidden = 0;
        for (long i = lo + 1; i < hi; i++)
            hidden |= skipped[i];
        if (hidden && asprintf(&b->r->ambiguous,
                               "the first bad commit is one of %.12s..%.12s: the builds between "
                               "failed",
                               lo >= 0 ? commits[lo + 1] : commits[0], commits[hi]) < 0)
            b->r->ambiguous = NULL;
        if (!hidden) {
            memcpy(b->r->first_bad, commits[hi], 41);
            for (size_t i = 0; i < b->r->n_steps; i++)
                if (strcmp(b->r->steps[i].commit, commits[hi]) == 0) {
                    b->r->ratio = b->r->steps[i].ratio;
                    b->r->lo = b->r->steps[i].lo;
                    b->r->hi = b->r->steps[i].hi;
                }
        }
    }
    free(skipped);
    return rc;
}

static int bisect_in(struct bisect *b)
{
    bl_bisect_result *r = b->r;
    int rc = resolve(b, b->o->good, r->good);
    if (!rc)
        rc = resolve(b, b->o->bad, r->bad);
    if (!rc && git(b->repo, NULL, "merge-base", "--is-ancestor", r->good, r->bad, NULL, NULL) != 0)
        rc = fail(b, BL_EUSAGE, "%s is not an ancestor of %s", b->o->good, b->o->bad);
    char **commits = NULL;
    size_t n = 0;
    if (!rc)
        rc = range(b, &commits, &n);
    if (rc)
        return rc;
    r->n_commits = n;
    char gdir[128];
    snprintf(gdir, sizeof gdir, "%s/good", b->tmp);
    char *why = NULL;
    rc = checkout_and_build(b, r->good, gdir, &why);
    if (rc == 1)
        rc = fail(b, BL_EPROTO, "the build of GOOD (%.12s) failed: %s", r->good, why ? why : "");
    else if (rc && rc != BL_EINTR)
        rc = fail(b, rc, "GOOD (%.12s): %s", r->good, why ? why : bl_strerror(rc));
    free(why);
    snprintf(b->good_exe, sizeof b->good_exe, "%s/%s", gdir, b->o->suite);
    /* BAD first: is there anything to find, and which benchmark shows it */
    if (!rc) {
        r->boundary = 1 + b->o->threshold;
        int v;
        rc = step(b, r->bad, &v);
        bl_bisect_step *s = r->n_steps ? &r->steps[r->n_steps - 1] : NULL;
        if (!rc && v == BL_BISECT_SKIPPED)
            rc = fail(b, BL_EPROTO, "the build of BAD (%.12s) failed: %s", r->bad,
                      s && s->message ? s->message : "");
        else if (!rc && !(s->lo > 1 + b->o->threshold))
            rc = fail(b, BL_ENOTFOUND,
                      "BAD (%.12s) is not slower than GOOD (%.12s) in %s: %.4f [%.4f, %.4f], "
                      "not above %g: nothing to bisect",
                      r->bad, r->good, r->bench ? r->bench : "any benchmark", s->ratio, s->lo,
                      s->hi, 1 + b->o->threshold);
        if (!rc) {
            r->bad_ratio = s->ratio;
            r->bad_lo = s->lo;
            r->bad_hi = s->hi;
            r->boundary = sqrt(s->ratio);
            say(b, "following %s: BAD is %.4f x GOOD; a commit is bad above %.4f", r->bench,
                s->ratio, r->boundary);
            rc = search(b, commits, n);
        }
    }
    remove_worktree(b, gdir);
    if (commits)
        free(commits[0]);
    free(commits);
    return rc;
}

int bl_bisect_run(const bl_bisect_options *opts, void (*progress)(void *ctx, const char *line),
                  void *ctx, bl_bisect_result **out, char *err, size_t err_size)
{
    *out = NULL;
    err[0] = '\0';
    bl_bisect_options o = *opts;
    if (!(o.threshold > 0))
        o.threshold = 0.005;
    if (!(o.time_s > 0))
        o.time_s = 1;
    if (o.max_reruns < 0)
        o.max_reruns = 0;
    if (!o.good || !o.bad || !o.build || !o.suite || !*o.build || !*o.suite) {
        snprintf(err, err_size, "bisect needs GOOD, BAD, a build command and the suite's path");
        return BL_EUSAGE;
    }
    struct bisect b = {.o = &o, .progress = progress, .ctx = ctx, .err = err, .err_size = err_size};
    char *top = NULL;
    char *argv[] = {(char *)"git",
                    (char *)"-C",
                    (char *)(o.repo ? o.repo : "."),
                    (char *)"rev-parse",
                    (char *)"--show-toplevel",
                    NULL};
    if (bl__child_run(NULL, argv, 0, &top, 0) != 0 || !top || !*top) {
        snprintf(err, err_size, "%s is not in a git checkout", o.repo ? o.repo : "this directory");
        free(top);
        return BL_EUSAGE;
    }
    chomp(top);
    snprintf(b.repo, sizeof b.repo, "%s", top);
    free(top);
    b.r = calloc(1, sizeof *b.r);
    if (!b.r)
        return -ENOMEM;
    b.r->ratio = b.r->lo = b.r->hi = NAN;
    b.r->bad_ratio = b.r->bad_lo = b.r->bad_hi = NAN;
    snprintf(b.tmp, sizeof b.tmp, "%s/benchlab-bisect-XXXXXX",
             getenv("TMPDIR") && strlen(getenv("TMPDIR")) < 30 ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(b.tmp)) {
        int e = errno;
        snprintf(err, err_size, "a temporary directory for the worktrees: %s", strerror(e));
        free(b.r);
        return -e;
    }
    int rc = bisect_in(&b);
    /* the one way out: no worktree left behind, whatever happened */
    git(b.repo, NULL, "worktree", "prune", NULL, NULL, NULL, NULL);
    char *rm[] = {(char *)"rm", (char *)"-rf", b.tmp, NULL};
    bl__child_run(NULL, rm, 0, NULL, 0);
    git(b.repo, NULL, "worktree", "prune", NULL, NULL, NULL, NULL);
    if (rc == BL_EINTR || bl__run_interrupted()) {
        b.r->interrupted = 1;
        rc = BL_EINTR;
    }
    *out = b.r;
    return rc;
}
