/* etl: Windows ETW trace files (.etl) read directly, to the collapsed
 * stacks the ETW exports give (collapse/etw): "process.exe (PID);TID N;"
 * then module frames, root first.
 *
 * The file is a run of buffers (WMI_BUFFER_HEADER, 72 bytes: size, bytes
 * used, CPU, flags), each CPU's in order; compressed ones (flag 0x40)
 * hold MS-XCA plain LZ77 or LZ77+Huffman after the header (told apart
 * by xpress_huff_sniff).  Events in a buffer are
 * 8-byte aligned and start with a marker whose third byte is the header
 * kind: SYSTEM_TRACE_HEADER (full or compact), PERFINFO_TRACE_HEADER
 * (kernel events: a hook id, group << 8 | opcode), EVENT_TRACE_HEADER,
 * instance, message and EVENT_HEADER (manifest and TraceLogging
 * providers; skipped).  The first event is the TRACE_LOGFILE_HEADER:
 * pointer size, timer frequency.
 *
 * PerfInfo SampledProfile events are the samples; StackWalk Stack (or,
 * with stack caching, StackKeyKernel/StackKeyUser naming a stack that a
 * KeyDelete or KeyRundown event defines) give their stacks, kernel and
 * user fragments apart, joined by thread and time as TraceEvent joins
 * them: a fragment ending in the kernel waits for the thread's next user
 * fragment.  Image DCStart/Load/Unload events map addresses to modules,
 * Process Start/DCStart name processes, Thread events place threads;
 * the CLR's method events (etl_clr.c) name .NET JIT frames.
 * Samples of the idle thread are dropped unless they ran a DPC or an ISR
 * (as TraceLog does), all kept with --include-idle. */
#ifndef FLAME_ETL_H
#define FLAME_ETL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "etw.h"

struct etl;

struct etl_stats {
	uint64_t bytes;			/* read */
	uint64_t buffers;		/* buffers read */
	uint64_t compressed;		/* of them compressed */
	uint64_t huffman;		/* of those LZ77+Huffman */
	uint64_t events;		/* events walked */
	uint64_t samples;		/* SampledProfile events */
	uint64_t idle;			/* idle samples dropped */
	uint64_t stacks;		/* stack events (and key references) */
	uint64_t orphans;		/* stacks of no sample (other events' too) */
	uint64_t unresolved;		/* key references never defined */
	uint64_t bad_buffers;		/* buffers (partly) skipped */
	uint64_t bad_events;		/* events that could not be read */
	uint64_t messages;		/* faults found (a few named) */
};

/* Reads up to n bytes into buf: the count (fewer only at the end), or -1. */
typedef ssize_t etl_read_fn(void *ctx, void *buf, size_t n);

/* Whether head (len bytes) starts an .etl file: 0 or up to 100. */
int etl_sniff(const char *head, size_t len);

/* A reader of one input called name, adding to out (whose options o
 * are). */
struct etl *etl_new(struct etw *out, const struct etw_opts *o, etw_warn_fn *warn, void *ctx,
		    const char *name);

/* Reads the whole input through rd; returns 0, or 1 when it broke off
 * (a read error, a truncated or unreadable buffer: what came before is
 * kept).  The samples go out here. */
int etl_read(struct etl *x, etl_read_fn *rd, void *ctx);

const struct etl_stats *etl_stats(const struct etl *x);
/* What could not be read, as one line into buf; returns 0 when all was. */
int etl_summary(const struct etl *x, char *buf, size_t cap);
void etl_free(struct etl *x);

#endif
