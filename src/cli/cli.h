/* cli.h - the subcommands of the benchlab command. Each returns the exit status. */
#ifndef BENCHLAB_CLI_H
#define BENCHLAB_CLI_H

int cmd_run(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* Print "benchlab: <message>" to stderr; returns 2 for `return cli_error(...)`. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* BENCHLAB_CLI_H */
