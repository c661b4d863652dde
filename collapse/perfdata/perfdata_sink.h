/* perfdata_sink: the samples of a perf.data one by one, for writers that
 * need the recording itself rather than stacks (LNT profiles count
 * periods per event and instruction address).  Same reader, same time
 * order and maps as perfdata.h; no symbols, no stacks. */
#ifndef FLAME_PERFDATA_SINK_H
#define FLAME_PERFDATA_SINK_H

#include "perfdata.h"

#include <stddef.h>
#include <stdint.h>

/* One sample, as the reader met it.  Strings stay valid only during the
 * call. */
struct perfdata_hit {
	size_t event;		/* its event's index, in the recording's order */
	const char *event_name;	/* that event's name ("cycles", "cpu-clock:u") */
	uint64_t period;	/* PERIOD (1 when the event records none) */
	uint64_t ip;		/* the sampled address */
	uint32_t pid, tid;	/* its process and thread */
	const char *path;	/* the file mapped at ip as perf names it, or
				   NULL: ip lies in no known map */
	size_t pathlen;		/* bytes of path */
	uint64_t start, end;	/* that mapping: [start, end) */
	uint64_t pgoff;		/* file offset mapped at start */
	int kernel;		/* ip is a kernel address */
};

/* Receives a sample; returns 0, or -1 to ignore the rest of the input. */
typedef int perfdata_hit_fn(void *ctx, const struct perfdata_hit *h);

/* Reads the perf.data on lr (name for messages, and mapped when it is a
 * regular file) and calls fn for each sample, in time order.  Returns as
 * perfdata_run: 0, 1 when the input broke off (the fault through warn),
 * -1 with a message in err when it is no perf.data this reader takes.
 * st counts records and samples as there. */
int perfdata_samples(const char *name, struct lread *lr, perfdata_hit_fn *fn, void *ctx,
		     struct perfdata_stats *st, perfdata_warn_fn *warn, void *wctx, char *err,
		     size_t errlen);

#endif
