/* dtrace: DTrace aggregations of stack() or ustack() ("@[ustack()] =
 * count()") to collapsed stacks, as stackcollapse.pl and
 * inferno-collapse-dtrace do.  The header is everything up to the first
 * blank line; then each stack is its frames, leaf first, one a line
 * ("module`function+0x1f"), and a line holding its count.  Offsets are
 * dropped (or kept but on the leaf), C++ arguments cut, Java inlined
 * frames ("a->b") split with "_[i]" marks, Rust symbols finished. */
#ifndef FLAME_DTRACE_H
#define FLAME_DTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "ctool.h"
#include "format.h"

struct dtrace_opts {
	struct ctool_common common;	/* -q */
	int includeoffset;		/* keep "+0x1f" on all but the leaf */
};

struct dtrace_stats {
	uint64_t stacks;		/* stacks added */
	uint64_t empty;			/* counts without a stack, skipped */
};

struct fseq;
struct strtab;
struct dtrace;

/* Returns a collapser adding to t (values: struct fcount) and, when seq
 * is not NULL, appending each stack to it in input order.  Messages go to
 * warn with name.  Free with dtrace_free. */
struct dtrace *dtrace_new(const struct dtrace_opts *o, struct strtab *t, struct fseq *seq,
			  collect_warn_fn *warn, void *ctx, const char *name);

/* Frees d.  dtrace_free(NULL) does nothing. */
void dtrace_free(struct dtrace *d);

/* Reads one line (no line end: it stops at a '\n').  Always returns 0. */
int dtrace_line(struct dtrace *d, const char *s, size_t n, unsigned long lineno);

/* Reads the whole lines in text (each ending in '\n', the last one may
 * lack it), *lineno being the number of lines before them; adds the
 * lines read to *lineno.  Always returns 0 (an lblock_fn). */
int dtrace_text(struct dtrace *d, const char *text, size_t len, unsigned long *lineno);

/* Ends the input; returns 0, or 1 when it ended in its header or in the
 * middle of a stack (said through warn; the stacks before are kept). */
int dtrace_end(struct dtrace *d);

const struct dtrace_stats *dtrace_stats(const struct dtrace *d);

/* How sure (0-100) that head starts DTrace stack output. */
int dtrace_sniff(const char *head, size_t len);

/* The format table's run. */
int dtrace_collect(const struct format_job *j);

#endif
