/* perfdata: perf.data recordings (`perf record`, files or pipe mode,
 * either byte order, zstd-compressed records) read natively and fed to
 * the perf collapser, so the stacks are those of `perf script |
 * stackcollapse-perf` with the same options, without perf script.
 *
 * Records are applied in time order (FINISHED_ROUND) to the processes'
 * maps and names, each sample resolved against those valid at its time;
 * frames are named through perfsym.h. */
#ifndef FLAME_PERFDATA_H
#define FLAME_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

struct perf;
struct perfsym;
struct lread;

/* A message about the input: file, and msg starting "byte N: " when it
 * is about a place in it (no program name, no newline). */
typedef void perfdata_warn_fn(void *ctx, const char *file, const char *msg);

struct perfdata_stats {
	uint64_t records;	/* records read */
	uint64_t samples;	/* samples turned into stacks */
	uint64_t lost;		/* samples the kernel lost (LOST, LOST_SAMPLES) */
	uint64_t unknown;	/* records of types not known here, skipped */
	uint64_t bad;		/* records or sections that could not be read */
	uint64_t compressed;	/* COMPRESSED records */
	uint64_t bytes;		/* bytes of the input read */
};

/* Reads the perf.data on lr (from its first byte; name for messages:
 * when name is a regular file that is not compressed it is mapped
 * instead) into p, naming frames with sym.  Returns 0; 1 when the input
 * broke off part way (what came before is kept, the fault reported
 * through warn); -1 with a message in err when it is no perf.data this
 * reader takes (a v1 "PERFFILE", a header that cannot be read).
 * threads 1 keeps all the work on the calling thread; otherwise, for a
 * file on a machine of several cores, a second thread feeds p while this
 * one reads and names frames (the output is the same); pass 1 when p
 * drops samples by a filter of its own, or keeps the event named "". */
int perfdata_run(const char *name, struct lread *lr, struct perf *p, struct perfsym *sym,
		 const char *symfs, int threads, struct perfdata_stats *st, perfdata_warn_fn *warn,
		 void *ctx, char *err, size_t errlen);

#endif
