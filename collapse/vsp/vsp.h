/* vsp: Visual Studio profiler reports (vsperfreport /summary:all CSV) to
 * collapsed stacks.  The report kind is read from the header line:
 *
 *   CallTreeSummary ("Level,Function Name,...") is a pre-order dump of the
 *   call tree: each row becomes the stack from the process down to it,
 *   weighted by the function's exclusive value, so self time of inner
 *   functions is kept.
 *
 *   CallerCalleeSummary ("Type,Function Name,...", rows Root, Caller and
 *   Callee) is a call graph, not stacks: from each entry point (a function
 *   no row names a caller of) callees are expanded, each taking the share
 *   of its caller's weight that the caller's inclusive value gives it, and
 *   each function keeps the exclusive share.  Recursion is cut where a
 *   function is already on the path; as a recursive function's exclusive
 *   and callee values count some samples twice, a frame's parts are
 *   scaled down to its weight, and the stacks through a function never
 *   weigh more than its inclusive value.  The result is an approximation. */
#ifndef FLAME_VSP_H
#define FLAME_VSP_H

#include <stddef.h>
#include <stdint.h>

struct strtab;
struct vsp;

enum vsp_metric {
	VSP_AUTO,		/* exclusive samples, else elapsed exclusive time */
	VSP_INCL_SAMPLES,	/* "Inclusive Samples" */
	VSP_EXCL_SAMPLES,	/* "Exclusive Samples" */
	VSP_ELAPSED_INCL,	/* "Elapsed Inclusive Time" */
	VSP_ELAPSED_EXCL,	/* "Elapsed Exclusive Time" */
	VSP_APP_INCL,		/* "Application Inclusive Time" */
	VSP_APP_EXCL,		/* "Application Exclusive Time" */
	VSP_CALLS,		/* "Number of Calls" */
	VSP_CALLS_INFERNO	/* inferno's collapse-vsprof weighting, for comparison */
};

struct vsp_opts {
	enum vsp_metric metric;		/* what a stack weighs */
	int no_process;			/* no process root frame */
	int exclude_waits;		/* drop stacks whose leaf is a wait function */
	int mark_waits;			/* suffix wait functions with _[w] */
	const char *root;		/* CallerCallee: expand from this function only */
};

/* Receives one message: file and line (0 when not about a line). */
typedef void vsp_warn_fn(void *ctx, const char *file, unsigned long line, const char *msg);

struct vsp_stats {
	uint64_t rows;		/* rows read */
	uint64_t malformed;	/* rows skipped */
	uint64_t stacks;	/* stacks emitted */
	int bad_input;		/* an input was not a recognised report */
};

/* Returns a collapser adding to out (values: struct fcount).  Free with
 * vsp_free. */
struct vsp *vsp_new(const struct vsp_opts *o, struct strtab *out, vsp_warn_fn *warn, void *ctx);

/* Frees v (not the table).  vsp_free(NULL) does nothing. */
void vsp_free(struct vsp *v);

/* Starts an input; its first line must be a report header. */
void vsp_begin(struct vsp *v, const char *name);

/* Feeds one line (no newline).  Returns 0, or -1 when the input is not a
 * report this reads (the rest of it is then ignored). */
int vsp_line(struct vsp *v, const char *line, size_t len, unsigned long lineno);

/* Ends the input: the last stacks are emitted, a call graph expanded. */
void vsp_end(struct vsp *v);

/* Counters so far. */
const struct vsp_stats *vsp_stats(const struct vsp *v);

/* Parses a --metric name ("exclusive-samples", "calls", ...).  Returns 0,
 * or -1 when unknown. */
int vsp_metric_parse(const char *s, enum vsp_metric *m);

#endif
