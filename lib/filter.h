/* filter: the samples to keep, by process id, thread id, process name
 * and time, as flame's --pid, --tid, --process, --begin and --end (and
 * stackcollapse-etw's) give them.  Every reader whose samples carry such
 * fields applies the one struct with these functions. */
#ifndef FLAME_FILTER_H
#define FLAME_FILTER_H

#include <stddef.h>

struct filter {
	const long *pid;		/* keep these process ids... */
	size_t npid;			/* ...when there are any */
	const long *tid;		/* keep these thread ids */
	size_t ntid;			/* entries in tid */
	const char *const *process;	/* keep these process names */
	size_t nprocess;		/* entries in process */
	int has_begin, has_end;		/* the bounds set... */
	double begin, end;		/* ...keep begin <= time < end, in the
					   input's unit (perf, ETW: s; PerfView: ms) */
};

/* Whether f (may be NULL) asks for ids or names, or for a time window. */
int filter_has_ids(const struct filter *f);
int filter_has_time(const struct filter *f);

/* Whether f keeps a sample of this process id, thread id, or time in
 * seconds (each true when f does not ask for it). */
int filter_pid(const struct filter *f, long pid);
int filter_tid(const struct filter *f, long tid);
int filter_time(const struct filter *f, double t);

/* Whether f keeps process name s (n bytes): the same name, or with
 * windows the same in any case with or without ".exe" (as Windows names
 * executables). */
int filter_process(const struct filter *f, const char *s, size_t n, int windows);

#endif
