/* collect: any supported profile, its format detected or given, collapsed
 * in-process into a table of stacks (values: struct fcount), for flame.
 * stdin is read once: the bytes read to tell its format are kept and read
 * again (a redirected file is rewound instead). */
#ifndef FLAME_COLLECT_H
#define FLAME_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "detect.h"
#include "etw.h"
#include "perf.h"

struct strtab;
struct fseq;

struct collect_opts {
	enum detect_fmt format;		/* FMT_UNKNOWN: detect each input's */
	struct perf_opts perf;		/* perf script options */
	int threads;			/* perf workers (0: all cores) */
	struct etw_opts etw;		/* ETW options and filters */
	int has_begin, has_end;		/* --begin/--end given... */
	double begin, end;		/* ...in the input's time unit */
	uint64_t max_inflate;		/* zip member cap, 0: default */
	struct strtab *before;		/* differential collapsed input
					   ("stack N M"): the N, or NULL */
	struct fseq *seq;		/* for a flame chart: the samples in
					   time (or input) order too, or NULL */
};

/* Messages: file (may be NULL), line (0: none) and text. */
typedef void collect_warn_fn(void *ctx, const char *file, unsigned long line, const char *msg);

/* Collapses path ("-": stdin) into t.  *fmt gets the format used.
 * Returns 0 (skipped rows or samples are only reported through warn); 1
 * when the input broke off part way (what came before is kept, and the
 * fault named through warn); -1 with a message in err when it could not
 * be read at all or its format not told. */
int collect(const char *path, const struct collect_opts *o, struct strtab *t,
	    enum detect_fmt *fmt, collect_warn_fn *warn, void *ctx, char *err, size_t errlen);

/* collect over len bytes in memory (named "<stdin>" in messages). */
int collect_mem(const char *data, size_t len, const struct collect_opts *o, struct strtab *t,
		enum detect_fmt *fmt, collect_warn_fn *warn, void *ctx, char *err, size_t errlen);

#endif
