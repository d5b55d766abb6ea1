/*
 * exec_argv.c - the command lines of `benchlab exec`: a command split into
 * words as sh(1) would for the quoting it supports (single and double
 * quotes, backslash; no expansion), for running without a shell (-N), and
 * the {name} parameters of a template substituted. Called by the CLI
 * (cmd_exec.c) and by exec.c; calls only base/'s buffers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "benchlab/exec.h"

void bl_exec_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **p = argv; *p; p++)
        free(*p);
    free(argv);
}

int bl_exec_split(const char *s, char ***out)
{
    *out = NULL;
    char **argv = NULL;
    size_t n = 0, cap = 0;
    struct bl__buf word = {0};
    int err = 0;
    while (!err) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        if (!*s)
            break;
        word.len = 0;
        err = bl__buf_reserve(&word, 1);
        if (err)
            break;
        word.data[0] = '\0';
        while (!err && *s && *s != ' ' && *s != '\t' && *s != '\n') {
            if (*s == '\'') {
                const char *end = strchr(s + 1, '\'');
                if (!end) {
                    err = BL_EUSAGE;
                    break;
                }
                err = bl__buf_append(&word, s + 1, (size_t)(end - s - 1));
                s = end + 1;
            } else if (*s == '"') {
                s++;
                while (!err && *s && *s != '"') {
                    if (*s == '\\' && s[1] && strchr("\"\\$`\n", s[1]))
                        s++;
                    err = bl__buf_append(&word, s, 1);
                    s++;
                }
                if (!err && *s != '"')
                    err = BL_EUSAGE;
                else
                    s++;
            } else if (*s == '\\' && s[1]) {
                err = bl__buf_append(&word, s + 1, 1);
                s += 2;
            } else {
                err = bl__buf_append(&word, s, 1);
                s++;
            }
        }
        if (err)
            break;
        err = bl__grow((void **)&argv, &cap, n + 2, sizeof *argv);
        if (!err) {
            argv[n] = bl__strdup(word.data ? word.data : "");
            err = argv[n] ? 0 : -ENOMEM;
            if (!err)
                argv[++n] = NULL;
        }
    }
    bl__buf_fini(&word);
    if (!err && n == 0)
        err = BL_EUSAGE;
    if (err) {
        bl_exec_argv_free(argv);
        return err;
    }
    *out = argv;
    return 0;
}

char *bl_exec_substitute(const char *tmpl, const bl_exec_param *params, size_t n_params)
{
    struct bl__buf b = {0};
    int err = bl__buf_puts(&b, "");
    for (const char *s = tmpl; !err && *s;) {
        size_t i = n_params;
        if (*s == '{')
            for (i = 0; i < n_params; i++) {
                size_t len = strlen(params[i].name);
                if (strncmp(s + 1, params[i].name, len) == 0 && s[1 + len] == '}')
                    break;
            }
        if (i < n_params) {
            err = bl__buf_puts(&b, params[i].value);
            s += strlen(params[i].name) + 2;
        } else {
            err = bl__buf_append(&b, s, 1);
            s++;
        }
    }
    if (err) {
        bl__buf_fini(&b);
        return NULL;
    }
    return b.data;
}
