/*
 * help.c - --help written from a command's option table (front.h), so the
 * text always lists what the parser accepts. GNU-style commands get
 * "  -o, --out FILE   help" columns; Go-style ones (compare) get the layout
 * of Go's flag package, as benchstat's own help has.
 *
 * Calls: nothing outside this module; writes only to the FILE it is given.
 */
#include <stdio.h>
#include <string.h>

#include "front.h"

/* Text wrapped at `width` columns, every line indented by `indent`;
 * '\n' in the text starts a new line (a blank line between paragraphs). */
static void wrap(FILE *f, const char *text, int indent, int first_col, int width)
{
    int col = first_col;
    const char *p = text;
    int at_line_start = 1;
    while (*p) {
        if (*p == '\n') {
            fputc('\n', f);
            p++;
            col = 0;
            at_line_start = 1;
            continue;
        }
        if (*p == ' ' && !at_line_start) {
            p++;
            continue;
        }
        /* leading spaces of a line are kept (indented sub-lists) */
        int lead = 0;
        if (at_line_start)
            while (p[lead] == ' ')
                lead++;
        size_t n = strcspn(p + lead, " \n");
        if (col < indent) {
            fprintf(f, "%*s", indent - col, "");
            col = indent;
        } else if (!at_line_start && col + 1 + (int)n > width) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (!at_line_start) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%*s%.*s", lead, "", (int)n, p + lead);
        col += lead + (int)n;
        p += lead + n;
        at_line_start = 0;
    }
    if (col > 0)
        fputc('\n', f);
}

/* "-o, --out FILE", "--profile[=MODE]" into buf. */
static void left_column(const struct bl__opt *o, char *buf, size_t size)
{
    size_t used = 0;
    if (o->short_name)
        used += (size_t)snprintf(buf, size, "-%c, ", o->short_name);
    else
        used += (size_t)snprintf(buf, size, "    ");
    if (used >= size)
        return;
    if (!o->name) { /* short only: "-N", "-x VALUE" */
        if (o->arg == BL__ARG_NONE)
            snprintf(buf, size, "-%c", o->short_name);
        else
            snprintf(buf, size, "-%c %s", o->short_name, o->meta);
        return;
    }
    if (o->arg == BL__ARG_NONE)
        snprintf(buf + used, size - used, "--%s", o->name);
    else if (o->flags & BL__OPT_OPTIONAL)
        snprintf(buf + used, size - used, "--%s[=%s]", o->name, o->meta);
    else
        snprintf(buf + used, size - used, "--%s %s", o->name, o->meta);
}

static void choices_and_default(const struct bl__opt *o, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    if (o->choices && !strstr(o->help, o->choices[0])) {
        used += (size_t)snprintf(buf, size, " (");
        for (size_t i = 0; o->choices[i] && used < size; i++)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", o->choices[i]);
        if (used < size)
            used += (size_t)snprintf(buf + used, size - used, ")");
    }
    if (o->def && used < size)
        snprintf(buf + used, size - used, " (default %s)", o->def);
}

static void usage_lines(FILE *f, const struct bl__command *cmd, const char *prog)
{
    const char *p = cmd->usage;
    int first = 1;
    do {
        size_t n = strcspn(p, "\n");
        /* a command without operands or options (env): no trailing space */
        fprintf(f, "%s %s%s%.*s\n", first ? "usage:" : "      ", prog, n ? " " : "", (int)n, p);
        p += n + (p[n] == '\n');
        first = 0;
    } while (*p);
}

static void help_go(FILE *f, const struct bl__command *cmd)
{
    for (size_t i = 0; i < cmd->n_opts; i++) {
        const struct bl__opt *o = &cmd->opts[i];
        if (o->flags & BL__OPT_HIDDEN)
            continue;
        if (o->arg == BL__ARG_NONE)
            fprintf(f, "  -%s\n", o->name);
        else if (o->flags & BL__OPT_OPTIONAL)
            fprintf(f, "  -%s[=%s]\n", o->name, o->meta);
        else
            fprintf(f, "  -%s %s\n", o->name, o->meta);
        const char *h = o->help;
        while (*h) {
            size_t n = strcspn(h, "\n");
            fprintf(f, "    \t%.*s", (int)n, h);
            h += n;
            if (*h == '\n') {
                fputc('\n', f);
                h++;
            }
        }
        if (o->def)
            fprintf(f, "%s(default %s)", strchr(o->help, '\n') ? "\n    \t " : " ", o->def);
        fputc('\n', f);
    }
}

void bl__help_write(FILE *f, const struct bl__command *cmd, const char *prog)
{
    usage_lines(f, cmd, prog);
    if (cmd->about) {
        fputc('\n', f);
        wrap(f, cmd->about, 0, 0, 78);
    }
    if (cmd->n_opts) {
        fprintf(f, "\n%s:\n", cmd->style & BL__STYLE_GO ? "flags" : "options");
        if (cmd->style & BL__STYLE_GO) {
            help_go(f, cmd);
        } else {
            for (size_t i = 0; i < cmd->n_opts; i++) {
                const struct bl__opt *o = &cmd->opts[i];
                if (o->flags & BL__OPT_HIDDEN)
                    continue;
                char left[96], tail[256], text[1024];
                left_column(o, left, sizeof left);
                choices_and_default(o, tail, sizeof tail);
                snprintf(text, sizeof text, "%s%s", o->help, tail);
                int w = fprintf(f, "  %s", left);
                if (w > 26) {
                    fputc('\n', f);
                    w = 0;
                }
                wrap(f, text, 28, w, 78);
            }
        }
    }
    if (cmd->footer) {
        fputc('\n', f);
        wrap(f, cmd->footer, 0, 0, 78);
    }
}

void bl__help_write_commands(FILE *f)
{
    fprintf(f, "usage: benchlab COMMAND [options]\n\ncommands:\n");
    for (size_t i = 0; i < bl__n_commands; i++)
        fprintf(f, "  %-10s %s\n", bl__commands[i]->name, bl__commands[i]->summary);
    fprintf(f, "\nbenchlab COMMAND --help shows a command's options; man benchlab-COMMAND "
               "tells more.\n");
}
