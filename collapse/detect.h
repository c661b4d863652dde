/* detect: tells a profile's format from the start of its text (already
 * inflated and decoded), for flame. */
#ifndef FLAME_DETECT_H
#define FLAME_DETECT_H

#include <stddef.h>

enum detect_fmt {
	FMT_UNKNOWN,
	FMT_PERF,		/* perf script text */
	FMT_WPA,		/* wpaexporter CSV */
	FMT_DUMPER,		/* xperf -a dumper text */
	FMT_VSP_TREE,		/* VS CallTreeSummary CSV */
	FMT_VSP_CALLER,		/* VS CallerCalleeSummary CSV */
	FMT_PV_JSON,		/* PerfView JSON */
	FMT_PV_XML,		/* PerfView XML */
	FMT_FOLDED,		/* collapsed stacks */
	FMT_COUNT
};

/* The format of the text starting with the len bytes at head (its first
 * few KB are enough), or FMT_UNKNOWN. */
enum detect_fmt detect_format(const char *head, size_t len);

/* For an input of no known format: what it looks like instead and what
 * to do ("a perf.data file: ..."), or NULL. */
const char *detect_hint(const char *head, size_t len);

/* The name --format uses for f ("perf", "wpa-csv", ...). */
const char *detect_name(enum detect_fmt f);

/* The format named s, or FMT_UNKNOWN. */
enum detect_fmt detect_parse(const char *s);

/* "perf, wpa-csv, ...": every name, for messages. */
const char *detect_names(void);

#endif
