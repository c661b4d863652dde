/* perf_run: runs the perf collapser over whole inputs, on one thread or
 * several.  With several, the text is cut into chunks at blank lines
 * (event boundaries), each worker sums its chunks into a table of its
 * own, and the tables are merged: the output, the counters and the
 * messages are the same for any thread count. */
#ifndef FLAME_PERF_RUN_H
#define FLAME_PERF_RUN_H

#include "perf.h"

struct lread;

struct perf_run_opts {
	int threads;		/* workers; 1 runs on the calling thread */
	size_t chunk;		/* text per job, 0: 8 MiB, or $FLAME_CHUNK (tests) */
};

/* Collapses the inputs ("-" is stdin) into out (values: struct fcount).
 * Malformed lines are reported through warn in input order, the first
 * few of each input.  Returns 0; 1 with a message in err when reading an
 * input broke off (cut short, corrupt, a read error): the text before
 * the fault, up to its last complete line, is collapsed as if the input
 * ended there, and no more inputs are read; -1 with a message in err
 * when an input cannot be opened.  *st gets the counters either way. */
int perf_run(const struct perf_opts *o, const char *const *inputs, int ninputs,
	     const struct perf_run_opts *ro, struct strtab *out, struct perf_stats *st,
	     perf_warn_fn *warn, void *ctx, char *err, size_t errlen);

/* perf_run for a caller that only writes the stacks: they stay in the
 * collapser handed over in *kept (write them with perf_save, free it with
 * perf_free; the caller owns it, also when rc is not 0), never all
 * spelled out at once. */
int perf_run_kept(const struct perf_opts *o, const char *const *inputs, int ninputs,
		  const struct perf_run_opts *ro, struct perf **kept, struct perf_stats *st,
		  perf_warn_fn *warn, void *ctx, char *err, size_t errlen);

/* perf_run over one reader already open (flame's stdin, whose first
 * bytes were read to tell its format); name is used in messages. */
int perf_run_reader(const struct perf_opts *o, struct lread *lr, const char *name,
		    const struct perf_run_opts *ro, struct strtab *out, struct perf_stats *st,
		    perf_warn_fn *warn, void *ctx, char *err, size_t errlen);

/* perf_run_reader for a caller that takes the stacks from the collapser
 * handed over in *kept (perf_emit, perf_save; free it with perf_free),
 * as perf_run_kept. */
int perf_run_reader_kept(const struct perf_opts *o, struct lread *lr, const char *name,
			 const struct perf_run_opts *ro, struct perf **kept, struct perf_stats *st,
			 perf_warn_fn *warn, void *ctx, char *err, size_t errlen);

#endif
