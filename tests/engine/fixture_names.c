/*
 * fixture_names.c - parameter values that hold a newline, an OSC 52
 * clipboard write and a byte that is not UTF-8: a listing shows each
 * name on one line, its control bytes as text, never raw to a terminal.
 */
#include <benchlab.h>

BENCHLAB(Names,
         .params = BL_PARAMS(BL_STRS("v", "plain", "a\nb", "c\033]52;c;cHduZWQ=\007d", "e\377f")))
{
    while (bl_loop(st)) {
    }
}

BENCHLAB_MAIN()
