/*
 * suggest.c - "did you mean": edit distances between what was typed and
 * what exists, for unknown options and commands (front/) and for a
 * --filter that matches no benchmark (engine/).
 */
#include <stdint.h>
#include <string.h>

#include "base.h"

size_t bl__edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64)
        return SIZE_MAX;
    size_t d[65][65];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *bl__closest(const char *word, const char *const *names, size_t n)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    size_t len = strlen(word);
    for (size_t i = 0; i < n && names[i]; i++) {
        size_t d = bl__edit_distance(word, names[i]);
        /* a prefix of a longer name ("--fo" for "--format") is close too */
        if (len >= 2 && strncmp(word, names[i], len) == 0 && d > 1)
            d = 1;
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    /* one edit in short words, a third of the letters in longer ones */
    size_t allowed = len <= 4 ? 1 : (len + 2) / 3;
    return best && best_d <= allowed && best_d < strlen(best) ? best : NULL;
}

size_t bl__substring_distance(const char *pattern, const char *text)
{
    size_t n = strlen(pattern), m = strlen(text);
    if (n > 64 || m > 1024)
        return SIZE_MAX;
    /* Sellers: edit distance to the best-matching substring of text (a
     * free start and end in text) */
    size_t prev[1025], cur[1025];
    for (size_t j = 0; j <= m; j++)
        prev[j] = 0;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t best = prev[j - 1] + (pattern[i - 1] != text[j - 1]);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            cur[j] = best;
        }
        memcpy(prev, cur, (m + 1) * sizeof *prev);
    }
    size_t best = SIZE_MAX;
    for (size_t j = 0; j <= m; j++)
        if (prev[j] < best)
            best = prev[j];
    return best;
}
