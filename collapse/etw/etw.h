/* etw: Windows ETW CPU sampling exports to collapsed stacks.
 *
 * wpaexporter CSV (a CPU Usage (Sampled) preset such as UIforETW's
 * ExportCPUUsageSampled.wpaProfile): one row per sample; columns found by
 * header name (Process or Process Name, Thread ID, the last column naming
 * Stack, optional TimeStamp, Count, Weight, DPC/ISR).  Stack frames are
 * "module!function", root first, separated by '/'; "[Root]" is dropped
 * and "n/a" means no stack.  A stack becomes "PROCESS (PID);TID N;frames".
 *
 * xperf -i trace.etl -symbols -a dumper [-stacktimeshifting] text: the
 * BeginHeader block names each event's columns; SampledProfile events
 * (and SampledProfileNmi with nmi) are samples keyed by (TimeStamp,
 * ThreadID); each run of Stack lines (No. 1 = leaf) with a sample's key is
 * its kernel or user fragment, told apart by address, in any order; the
 * kernel part goes on the leaf side.  Stacks of other events are dropped.
 * Samples are emitted at the end of the input. */
#ifndef FLAME_ETW_H
#define FLAME_ETW_H

#include <stddef.h>
#include <stdint.h>

#include "filter.h"

struct strtab;
struct etw;

struct fseq;

struct etw_opts {
	int no_process;			/* no PROCESS (PID) root */
	int no_thread;			/* no thread frame */
	int collapse_threads;		/* thread frame "TID:N" (one graph per process) */
	struct filter filter;		/* samples to keep (names: any case,
					   .exe optional; times: seconds) */
	const char *grep;		/* keep stacks with a frame containing this */
	int include_idle;		/* keep Idle (0) and DPC/ISR rows */
	const char *weight;		/* weight column name, NULL: 1 per row */
	int nmi;			/* dumper: SampledProfileNmi are samples too */
	int addrs;			/* dumper: keep module!0xADDR (else <PDB_not_found>) */
	struct fseq *seq;		/* samples in arrival order too, or NULL */
	const char *symbols;		/* .etl: --symbols PATH, or NULL */
};

typedef void etw_warn_fn(void *ctx, const char *file, unsigned long line, const char *msg);

struct etw_stats {
	uint64_t rows;			/* sample rows read */
	uint64_t kept;			/* rows turned into stacks */
	uint64_t malformed;		/* rows that could not be read */
	uint64_t unmatched;		/* dumper: stack fragments of no sample */
	int bad_input;			/* an input was not a recognised export */
};

/* Returns a collapser adding to out (values: struct fcount).  With split,
 * stacks always start with their process and thread roots, and per group
 * (thread, or process with collapse_threads) totals are kept for
 * etw_split.  Free with etw_free. */
struct etw *etw_new(const struct etw_opts *o, struct strtab *out, int split,
		    etw_warn_fn *warn, void *ctx);

void etw_free(struct etw *e);
void etw_begin(struct etw *e, const char *name);
/* Returns 0, or -1 when the input is not an export this reads. */
int etw_line(struct etw *e, const char *line, size_t len, unsigned long lineno);
void etw_end(struct etw *e);
const struct etw_stats *etw_stats(const struct etw *e);

/* One sample read elsewhere (the .etl reader): process proc (plen
 * bytes) pid, thread tid, at t seconds from the start, frames root
 * first, ';'-joined (flen bytes, no ';' inside a frame), weighing 1;
 * filtered and rooted as the exports' rows are. */
void etw_emit(struct etw *e, const char *proc, size_t plen, long pid, long tid, double t,
	      const char *frames, size_t flen);


#endif
