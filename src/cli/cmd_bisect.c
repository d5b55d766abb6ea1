/*
 * cmd_bisect.c - `benchlab bisect GOOD BAD --build CMD --run SUITE`: parse,
 * call the library's bisection (benchlab/bisect.h), write its result.
 * Progress goes to stderr, the result to stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlab/ab.h"
#include "benchlab/bisect.h"
#include "benchlab/output.h"
#include "benchlab/run.h"
#include "cli.h"
#include "front.h"

static void progress(void *ctx, const char *line)
{
    (void)ctx;
    char safe[700];
    fprintf(stderr, "benchlab: bisect: %s\n", bl_terminal_text(safe, sizeof safe, line));
}

int cmd_bisect(int argc, char **argv)
{
    bl_bisect_options o;
    bl_bisect_options_init(&o);
    int json = 0;
    struct bl__args args;
    int first_pos = cli_parse("bisect", argc, argv, &args);
    if (first_pos < 0)
        return first_pos == -1 ? 0 : 2;
    for (size_t k = 0; k < args.n_hits; k++) {
        const struct bl__hit *h = &args.hits[k];
        const char *v = h->value;
        char *end;
        switch (h->opt->id) {
        case BL__ID_BUILD:
            o.build = v;
            break;
        case BL__ID_RUN_SUITE:
            o.suite = v;
            break;
        case BL__ID_FILTER:
            o.filter = v;
            break;
        case BL__ID_THRESHOLD:
            errno = 0;
            o.threshold = strtod(v, &end);
            if (*end == '%')
                end++;
            if (errno || end == v || *end || !(o.threshold > 0) || o.threshold >= 100)
                return cli_error("bisect: --threshold: '%s' is not a percentage such as 0.5%% or "
                                 "2",
                                 v);
            o.threshold /= 100;
            break;
        case BL__ID_TIME:
            o.time_s = h->num;
            break;
        case BL__ID_RERUNS:
            o.max_reruns = (int)h->num;
            break;
        case BL__ID_METRIC:
            o.metric = strncmp(v, "ref-cycles", 10) == 0     ? BL_AB_METRIC_REF_CYCLES
                       : strncmp(v, "instructions", 12) == 0 ? BL_AB_METRIC_INSTRUCTIONS
                                                             : BL_AB_METRIC_TIME;
            break;
        case BL__ID_REPO:
            o.repo = v;
            break;
        case BL__ID_FORMAT:
            json = strcmp(v, "json") == 0;
            break;
        }
    }
    if (argc - first_pos != 2)
        return cli_error("bisect: give GOOD and BAD, two revisions (see --help)");
    o.good = argv[first_pos];
    o.bad = argv[first_pos + 1];
    if (!o.build)
        return cli_error("bisect: --build CMD is needed: how to build the suite in a checkout");
    if (!o.suite)
        return cli_error("bisect: --run SUITE is needed: the suite's path in a checkout");
    bl_run_install_signal_handlers();
    bl_bisect_result *r = NULL;
    char err[1200];
    int rc = bl_bisect_run(&o, progress, NULL, &r, err, sizeof err);
    int status = rc == BL_EINTR ? 130 : rc ? 2 : r->first_bad[0] ? 0 : 1;
    if (rc && rc != BL_EINTR)
        cli_error("bisect: %s", err);
    if (r && (r->n_steps || rc == 0 || rc == BL_EINTR) &&
        (json ? bl_bisect_write_json(stdout, r) : bl_bisect_write_text(stdout, r)) != 0)
        status = 2;
    if (fflush(stdout) != 0)
        status = 2;
    bl_bisect_result_destroy(r);
    return status;
}
