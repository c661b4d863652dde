/* a2l: un-inlining with binutils' addr2line, as stackcollapse-perf.pl
 * --inline does: "addr2line -a PC -e DSO -i -f -s -C" gives the inlined
 * call chain at an address; when it knows nothing and the symbol is
 * "func+0xoff", func's address from "nm DSO" plus the offset is tried.
 * Programs run without a shell (paths come from the profile) and every
 * answer is cached per (DSO, address). */
#ifndef FLAME_A2L_H
#define FLAME_A2L_H

#include <stddef.h>

struct a2l;

/* Whether this build can run addr2line at all (not on Windows). */
#ifdef _WIN32
#define A2L_AVAILABLE 0
#else
#define A2L_AVAILABLE 1
#endif

/* Returns an un-inliner, or NULL when addr2line is not on PATH (or not
 * A2L_AVAILABLE).  With
 * context, frames carry ":file:line".  Free with a2l_free. */
struct a2l *a2l_new(int context);

/* Frees a.  a2l_free(NULL) does nothing. */
void a2l_free(struct a2l *a);

/* The frames at pc (hex, as perf prints it) in dso, root first and joined
 * by ';', in *len bytes owned by a; or NULL when addr2line knows nothing.
 * rawfunc is perf's symbol ("func+0x1f") for the nm fallback. */
const char *a2l_frames(struct a2l *a, const char *pc, size_t pclen, const char *dso,
		       size_t dlen, const char *rawfunc, size_t rawlen, size_t *len);

#endif
