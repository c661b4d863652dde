/* perf_frame: the parts of a frame line of perf script text, "addr
 * symbol+0xoff (dso)", found without tidying anything. */
#ifndef FLAME_PERF_FRAME_H
#define FLAME_PERF_FRAME_H

#include <stddef.h>

/* Splits the n bytes at s, "addr symbol (dso)" (leading blanks allowed),
 * into the address, the symbol (" " when empty) and the DSO, pointers
 * into s (the symbol may be a static " ").  The DSO is the last balanced
 * "(...)", so "(x (deleted))" and paths with spaces stay whole.  Returns
 * 0, or -1 when it is not a frame. */
int perf_frame_split(const char *s, size_t n, const char **pc, size_t *pclen,
		     const char **fn, size_t *fnlen, const char **dso, size_t *dlen);

/* The length of the symbol f (n bytes) without a trailing "+0x1f". */
size_t perf_frame_strip_offset(const char *f, size_t n);

/* The length of s (n bytes) without its parameter list: up to the first
 * '(' outside <> {} [] that does not open a Go receiver ".(" or
 * "(anonymous namespace)".  *semi is set when the kept part has a ';'. */
size_t perf_frame_params(const char *s, size_t n, int *semi);

/* The first "->" in [s, end), or NULL. */
const char *perf_frame_arrow(const char *s, const char *end);

#endif
