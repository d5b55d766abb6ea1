/*
 * benchlab/output.h - how every benchlab writer opens the file it writes:
 * whole or not at all, and never by replacing what is not a regular file.
 */
#ifndef BENCHLAB_OUTPUT_H
#define BENCHLAB_OUTPUT_H
#include <stdio.h>

#include "benchlab/common.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Opaque. Open with bl_output_open(), end with bl_output_close() or bl_output_discard(). */
typedef struct bl_output bl_output;

/*
 * Open `path` for writing (docs/formats.md, "Output files"):
 * - NULL or "-" is stdout (bl_output_file() returns stdout itself);
 * - a regular file, or a name that does not exist yet, is written to an
 *   unnamed temporary file in the same directory (O_TMPFILE; where the file
 *   system lacks it, "PATH.tmp.PID") and renamed onto it by
 *   bl_output_close(), so the file is replaced whole or not at all and keeps
 *   its permissions; a process killed meanwhile leaves no file behind (a
 *   named temporary left by a killed process is removed by the next open of
 *   the same path);
 * - anything else (a character device such as /dev/null, a FIFO, a
 *   terminal) is written in place, never replaced; /dev/stdout, /dev/stderr
 *   and /dev/fd/N write to the descriptor itself (its offset and O_APPEND
 *   kept);
 * - symbolic links are followed: the file they lead to is replaced, not
 *   the link.
 * Returns 0 and *out, or -errno (-EISDIR for a directory). Nothing is
 * created or changed on error.
 */
BL_API int bl_output_open(const char *path, bl_output **out);

/* The stream to write to; borrowed until the output is closed or discarded. */
BL_API FILE *bl_output_file(const bl_output *out);

/* The name for messages: the path as given, or "stdout". Borrowed, like the stream. */
BL_API const char *bl_output_name(const bl_output *out);

/*
 * Flush and finish: rename the temporary file onto the path (regular
 * files), or close the device. Every write is checked here: a write that
 * failed on the way, the flush or the close makes it return that -errno
 * (-ENOSPC for a full disk, -EFBIG past `ulimit -f`), and then the previous
 * file is left untouched. Frees `out` either way (NULL is fine, returns 0).
 */
BL_API int bl_output_close(bl_output *out);

/*
 * End an output after its writer returned `err`: 0 closes it as above; an
 * error discards it (the previous file stays) and is returned, with a
 * writer's -EIO (stdio's error flag) replaced by the failed write's own
 * errno. The one call most writers need after writing.
 */
BL_API int bl_output_end(bl_output *out, int err);

/* Give up: the temporary file is removed and the path left as it was. Frees out. */
BL_API void bl_output_discard(bl_output *out);

/*
 * Make `stdout` a stream that remembers why a write to descriptor 1 failed,
 * so that bl_output_flush_stdout() can say "No space left on device" where
 * stdio alone only knows that some write failed. Call it first thing in
 * main(); calling it again does nothing. fileno(stdout) is -1 afterwards:
 * use 1 (STDOUT_FILENO).
 */
BL_API void bl_output_watch_stdout(void);

/*
 * Flush stdout and report whether everything written to it arrived: 0, or
 * the -errno of the failed write (-ENOSPC for `>/dev/full`). For the end of
 * a program that writes its results to stdout; stdout stays open. A failure
 * is reported once: the next call speaks of the writes after this one.
 */
BL_API int bl_output_flush_stdout(void);

/*
 * Text for a terminal: s with control characters (ESC, DEL, C1) and bytes
 * that are not UTF-8 shown as \xNN (C1 as \u00NN), so that a name or
 * message from a benchmark or a file cannot retitle, clear or write the
 * clipboard of the terminal it is printed on. Written to out (NUL-terminated,
 * cut at size); returns out.
 */
BL_API const char *bl_terminal_text(char *out, size_t size, const char *s);

#ifdef __cplusplus
}
#endif
#endif /* BENCHLAB_OUTPUT_H */
