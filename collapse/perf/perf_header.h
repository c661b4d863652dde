/* perf_header: the header line of a perf script event, read by its
 * fields: "comm [pid/]tid [cpu] [time:] [period] event:[mods:] [rest]",
 * where the command name may hold spaces, colons and digits. */
#ifndef FLAME_PERF_HEADER_H
#define FLAME_PERF_HEADER_H

#include <stddef.h>
#include <stdint.h>

struct perf_header {
	const char *comm;	/* process name */
	size_t commlen;		/* its length */
	const char *pid;	/* "?" when only a TID is printed */
	size_t pidlen;		/* its length */
	const char *tid;	/* thread id */
	size_t tidlen;		/* its length */
	const char *event;	/* event name, NULL when absent */
	size_t eventlen;	/* its length */
	uint64_t period;	/* 0 when absent */
	double time;		/* seconds, when has_time */
	int has_time;		/* a time stamp was printed */
	const char *rest;	/* text after the event (a frame, or a tracepoint's payload) */
	size_t restlen;		/* its length */
};

/* Finds the command name and the ids of header line s (n bytes) into h;
 * *after gets where the rest of the header starts.  Returns 0, or -1
 * when s is no event header. */
int perf_header_ids(const char *s, size_t n, struct perf_header *h, size_t *after);

/* Reads the rest of a header (s, n: from *after on) into h: time stamp,
 * period, event and what follows the event. */
void perf_header_event(const char *s, size_t n, struct perf_header *h);

#endif
