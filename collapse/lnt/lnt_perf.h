/* lnt_perf: an LNT profile from perf.data samples, as LNT's importer
 * (cPerf, then 'lnt profile upgrade') makes one: each event's periods
 * summed per instruction address; per event, the profile's total (every
 * sample in a mapped file); a function for each symbol in .text of a
 * file holding over 1% of some event, when it holds over 0.5% of some
 * event, with its counters as percentages of the totals and its
 * instructions (objdump's disassembly) with theirs as percentages of the
 * function's.  Where it differs from cPerf: a file's samples are counted
 * together whatever process or mapping they came from (cPerf counts each
 * mapping on its own and keeps the last function of a name); aliases at
 * one address make one function; dynamic symbols lose their version. */
#ifndef FLAME_LNT_PERF_H
#define FLAME_LNT_PERF_H

#include "lnt.h"
#include "perfdata_sink.h"

#include <stddef.h>
#include <stdint.h>

#define LNT_PERF_EVENTS 64	/* events kept; samples of more are skipped */

struct lnt_perf;

struct lnt_perf_opts {
	const char *objdump;	/* the program to run, NULL: "objdump" */
	const char *symfs;	/* a directory the recorded paths are under, or NULL */
};

/* What building found. */
struct lnt_perf_stats {
	uint64_t samples;	/* samples added */
	uint64_t unmapped;	/* of them in no known file (not counted) */
	uint64_t other_events;	/* of events past LNT_PERF_EVENTS, skipped */
	size_t files;		/* files asked about */
	size_t unreadable;	/* of them, objdump named no symbols in */
	size_t same_name;	/* functions left out: a kept one has the name */
	char first_unreadable[256];	/* the first of those files */
};

/* An empty collection.  Free with lnt_perf_free. */
struct lnt_perf *lnt_perf_new(void);
void lnt_perf_free(struct lnt_perf *a);

/* Adds a sample (a perfdata_hit_fn; ctx is the lnt_perf).  Returns 0. */
int lnt_perf_add(void *ctx, const struct perfdata_hit *h);

/* The profile of what was added (free with lnt_free), objdump run for
 * each file and function as the header says; st filled.  Never NULL. */
struct lnt_prof *lnt_perf_build(struct lnt_perf *a, const struct lnt_perf_opts *o,
				struct lnt_perf_stats *st);

#endif

/* A message about an input (file, then what), for lnt_perf_convert. */
typedef void lnt_perf_warn_fn(void *ctx, const char *file, const char *msg);

/* perf.data files in[0, n) (their samples together, as LNT merges a
 * recording's parts) written to out ("-" or NULL: stdout) as an LNT v2
 * profile, atomically.  Returns 0; 1 when an input broke off (what came
 * before it written, the fault through warn); -1 with a message in err
 * when an input or the output cannot be read or written, or nothing in
 * the inputs was sampled.  What was left out goes through warn. */
int lnt_perf_convert(const char *const *in, int n, const struct lnt_perf_opts *o, const char *out,
		     lnt_perf_warn_fn *warn, void *ctx, char *err, size_t errlen);
