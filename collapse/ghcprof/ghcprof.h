/* ghcprof: GHC's profiling report (a .prof file of +RTS -p) to collapsed
 * stacks, as inferno-collapse-ghcprof does.  Its cost-centre tree follows
 * the header "COST CENTRE MODULE SRC no. entries %time %alloc %time
 * %alloc ...": one cost centre a line, its depth its count of leading
 * spaces, each a stack of "Module.centre" frames weighing its individual
 * %time (in tenths of a percent), ticks or bytes, columns found under
 * their headings. */
#ifndef FLAME_GHCPROF_H
#define FLAME_GHCPROF_H

#include <stddef.h>
#include <stdint.h>

#include "ctool.h"
#include "format.h"

enum ghcprof_source {
	GHCPROF_TIME,			/* individual %time, times 10 */
	GHCPROF_TICKS,			/* individual ticks */
	GHCPROF_BYTES			/* individual bytes allocated */
};

struct ghcprof_opts {
	struct ctool_common common;	/* -q */
	enum ghcprof_source source;	/* what a stack weighs */
};

struct ghcprof_stats {
	uint64_t stacks;		/* stacks added */
	uint64_t bad;			/* lines that could not be read */
};

struct fseq;
struct strtab;
struct ghcprof;

/* Returns a collapser adding to t (values: struct fcount), and to seq in
 * input order when not NULL; messages go to warn, about name.  Free with
 * ghcprof_free. */
struct ghcprof *ghcprof_new(const struct ghcprof_opts *o, struct strtab *t, struct fseq *seq,
			    collect_warn_fn *warn, void *ctx, const char *name);

/* Frees g.  ghcprof_free(NULL) does nothing. */
void ghcprof_free(struct ghcprof *g);

/* Reads one line (no line end).  Returns 0, or -1 after the tree. */
int ghcprof_line(struct ghcprof *g, const char *line, size_t n, unsigned long lineno);

/* Ends the input: returns 0, or 1 when it had no cost-centre tree or no
 * column to weigh by (said through warn). */
int ghcprof_end(struct ghcprof *g);

const struct ghcprof_stats *ghcprof_stats(const struct ghcprof *g);

int ghcprof_sniff(const char *head, size_t len);
int ghcprof_collect(const struct format_job *j);

/* Whether the n bytes at s are the tree's header line. */
int ghcprof_header(const char *s, size_t n);

#endif
