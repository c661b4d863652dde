/* xctrace: the XML of "xctrace export --xpath '.../table[@schema=
 * "time-profile"]'" (Xcode Instruments' Time Profiler) to collapsed
 * stacks, as inferno-collapse-xctrace does.  Each <row> of the
 * <trace-query-result> is a sample of its <backtrace>, whose <frame>s
 * (leaf first) are given once with id and name and later by ref. */
#ifndef FLAME_XCTRACE_H
#define FLAME_XCTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "ctool.h"
#include "format.h"

struct xctrace_stats {
	uint64_t rows;			/* samples read */
	uint64_t bad;			/* elements that could not be used */
};

struct fseq;
struct strtab;
struct xctrace;

/* Returns a reader adding to t (values: struct fcount), and to seq in
 * row order when not NULL; messages go to warn, about name.  Free with
 * xctrace_free. */
struct xctrace *xctrace_new(struct strtab *t, struct fseq *seq, collect_warn_fn *warn, void *ctx,
			    const char *name);

/* Frees x.  xctrace_free(NULL) does nothing. */
void xctrace_free(struct xctrace *x);

/* Reads the next n bytes of the document.  Returns 0, or -1 once the
 * result has ended (the rest is not needed). */
int xctrace_feed(struct xctrace *x, const char *s, size_t n);

/* Ends the document and adds the stacks: returns 0, or 1 when it had no
 * result or broke off inside it (the rows read are kept; said through
 * warn). */
int xctrace_end(struct xctrace *x);

const struct xctrace_stats *xctrace_stats(const struct xctrace *x);

int xctrace_sniff(const char *head, size_t len);
int xctrace_collect(const struct format_job *j);

#endif
