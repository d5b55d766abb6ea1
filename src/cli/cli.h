/* cli.h - the subcommands of the benchlab command. Each returns the exit status. */
#ifndef BENCHLAB_CLI_H
#define BENCHLAB_CLI_H

#include <stddef.h>
#include <stdio.h>

int cmd_run(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_judge(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* --save, --store, --run-id, --tag, --commit, --branch of exec and profile. */
struct cli_save {
    int on;
    const char *store, *run_uid, *tag;
    const char *commit, *branch; /* NULL: the CI's variables, else git (docs/store.md) */
};
/* Save results (of `kind`: "exec") for command `cmd`; 0, or 2 after the
 * error and a note that the results were written but not saved. */
struct bl_results;
int cli_save_results(const char *cmd, const struct cli_save *save, struct bl_results *r,
                     const char *kind);
/* Save a profile's summary (flat profile, the run's facts). */
struct bl_profile;
struct bl_profile_info;
int cli_save_profile(const struct cli_save *save, const struct bl_profile *p,
                     const struct bl_profile_info *info, char *const *command);

/* Open the results store `spec` (NULL: the default) for command `cmd`;
 * 0, or 2 after printing the error. */
struct bl_store;
int cli_store_open(const char *cmd, const char *spec, unsigned flags, struct bl_store **out);
/* `benchlab compare`'s inputs with stored runs (@refs) replaced by
 * memory files of their Go format; see cmd_store.c. 0, or 2 after an error. */
int cli_compare_refs(char **args, size_t n, const char *spec, char ***out, int **fds,
                     size_t *n_fds);
/* "baseline:main (run 9, 1a2b3c4, 2024-06-11 15:30)" for messages and headings. */
struct bl_store_run;
void cli_run_label(char *out, size_t size, const char *ref, const struct bl_store_run *run);
/* "2024-06-11T15:30:12Z" -> "2024-06-11 15:30" (short ISO forms as they are, NULL "-"). */
void cli_short_date(char *out, size_t size, const char *iso);
/* "3f7ec28" or "3f7ec28+" (uncommitted changes), "-" outside git. */
void cli_short_commit(char *out, size_t size, const struct bl_store_run *run);
/* --commit and --branch into the results' metadata, which --save takes over
 * the CI's variables and git. 0, or 2 after the message. */
int cli_put_commit(const char *cmd, struct bl_results *r, const char *commit, const char *branch);

/* Parse a command's arguments on its option table (src/lib/front); the
 * positionals end up at argv[first..argc-1]. Returns first, or -1 after
 * printing --help (exit 0), or -2 after an error (exit 2). */
struct bl__args;
int cli_parse(const char *name, int argc, char **argv, struct bl__args *args);

/* Exit status of merge, report and compare when they completed but some
 * input records were skipped (each named on stderr): docs/formats.md. */
#define CLI_SKIPPED 3
/* Print the records a reader skipped ("where: message", stderr); `cmd`
 * prefixes the count of those not listed. CLI_SKIPPED when there were
 * any, else 0. */
struct bl_diags;
int cli_print_skipped(const char *cmd, const struct bl_diags *d);

/* The job summary of GitHub Actions: when $GITHUB_STEP_SUMMARY names a
 * file, what `write` gives (Markdown) is appended to it
 * (bl_github_summary_append); a summary that cannot be written is said on
 * stderr as `cmd`'s, and changes no exit status. */
void cli_github_summary(const char *cmd, int (*write)(FILE *f, const void *ctx), const void *ctx);

/* Print "benchlab: <message>" to stderr; returns 2 for `return cli_error(...)`. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* BENCHLAB_CLI_H */
