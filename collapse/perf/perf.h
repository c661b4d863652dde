/* perf: `perf script` text to collapsed stacks, as stackcollapse-perf.pl
 * does it, with its known bugs fixed (C++ names with spaces and
 * parentheses stay whole, a last stack without a blank line counts,
 * versioned vmlinux and .ko DSOs are kernel, jitdump DSOs are JIT).
 *
 * Feed lines with perf_line; stacks are summed into a call tree of the
 * collapser's own and written at perf_end into a table of struct fcount
 * values keyed by "comm;root;...;leaf" (with o->seq: into the table as
 * each event ends, since the sequence needs its ids). */
#ifndef FLAME_PERF_H
#define FLAME_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "filter.h"

struct strtab;
struct perf;
struct a2l;

struct fseq;

struct perf_opts {
	int pid;			/* root "comm-PID" */
	int tid;			/* root "comm-PID/TID" */
	int kernel;			/* annotate kernel frames _[k] */
	int jit;			/* annotate JIT frames _[j] */
	int addrs;			/* "[dso <addr>]" for unknown symbols */
	int srcline;			/* input from perf script -F+srcline */
	const char *event_filter;	/* event to keep; NULL: the first seen */
	const char *const *skip_after;	/* drop frames above these functions */
	size_t nskip_after;		/* entries in skip_after */
	struct a2l *inline_frames;	/* --inline: un-inline with addr2line, or NULL */
	const struct filter *filter;	/* events to keep (names: exact;
					   times: seconds), NULL: all */
	struct fseq *seq;		/* events in order too (ids of out), or
					   NULL; not with perf_run's workers */
	/* perf.data only: where its files are found, as perf script's
	 * options of the same names say. */
	const char *symfs;		/* --symfs DIR, or NULL */
	const char *kallsyms;		/* --kallsyms FILE, or NULL: /proc/kallsyms */
	int no_demangle;		/* --no-demangle */
	int threads;			/* --threads: 1 reads a perf.data on one
					   thread (0: as many as help) */
};

/* A message sink for a line that could not be read: file and line name
 * it, msg says what (no program name, no newline). */
typedef void perf_warn_fn(void *ctx, const char *file, unsigned long line, const char *msg);

struct perf_stats {
	uint64_t samples;		/* events turned into stacks */
	uint64_t filtered;		/* events of other types, skipped */
	uint64_t malformed;		/* lines that could not be read */
	uint64_t outside;		/* events the filter dropped... */
	uint64_t weighted;		/* events kept with a period printed */
	uint64_t unknown;		/* ...of which it could not tell: no PID
					   or time printed */
	char event[64];			/* the event kept ("" when none) */
	char other[64];			/* the smallest other event name seen */
};

/* Returns a collapser adding to out (values: struct fcount); o and out
 * must outlive it.  The first few malformed lines of each input (each
 * perf_begin) are reported through warn.  Free with perf_free. */
struct perf *perf_new(const struct perf_opts *o, struct strtab *out,
		      perf_warn_fn *warn, void *ctx);

/* Frees p (not the table).  perf_free(NULL) does nothing. */
void perf_free(struct perf *p);

/* Names the input the following lines come from, for messages; ends any
 * event left open by the previous input. */
void perf_begin(struct perf *p, const char *name);

/* Feeds one line (no newline) and its 1-based number. */
void perf_line(struct perf *p, const char *line, size_t len, unsigned long lineno);

/* Feeds the complete lines of text (len bytes), and the rest too when
 * final, as perf_line does, numbering them after *lineno (which ends at
 * the last line fed); returns the bytes used.  Faster than a perf_line a
 * line: each line's work is begun while the one before is worked on. */
size_t perf_lines(struct perf *p, const char *text, size_t len, int final, unsigned long *lineno);

/* The structured way in, for readers of binary recordings (perf.data):
 * perf_event_begin starts an event from its header fields (comm, pid,
 * tid, event, period, time; rest unused), perf_event_frame adds one frame
 * as perf script prints it ("pc sym+0xoff (dso)", leaf first; pc as a
 * number, printed in hex when a name needs it), and
 * perf_event_end adds the stack.  The text path goes through the same
 * calls, so both tidy frames alike.  perf_event_begin returns 1 when the
 * event is kept, 0 when its frames would be dropped (another event, the
 * filters): then they need not be looked up.  perf_event_frame remembers
 * frames by the addresses of sym and dso: the same text must come at the
 * same address each time, and stay there unchanged until the next
 * perf_begin (or perf_free).  hint is NULL, or a word the caller keeps
 * beside its own cache entry of this (sym, dso) pair, zeroed when new:
 * the collapser may note there what the frame came to, and then finds
 * it there with no lookup.  The caller zeroes it when the entry goes to
 * another pair, and keeps none past the next perf_begin. */
struct perf_header;
int perf_event_begin(struct perf *p, const struct perf_header *h);
/* perf_event_begin for a reader whose comm texts stay at one address, as
 * perf_event_frame's sym and dso do: the root frame is then remembered
 * by it. */
int perf_event_begin_kept(struct perf *p, const struct perf_header *h);
void perf_event_frame(struct perf *p, uint64_t pc, const char *sym, size_t symlen, const char *dso,
		      size_t dlen, uint32_t *hint);
void perf_event_end(struct perf *p);

/* Ends the input: a last stack without a blank line still counts; the
 * stacks so far are added to the table (out of perf_new). */
void perf_end(struct perf *p);

/* perf_end to a sink instead of the table (see stacksink.h): the stacks
 * so far handed over as frame ids, in the table's sorted order. */
struct stack_sink;
void perf_emit(struct perf *p, const struct stack_sink *sink);

/* Moves the stacks from has collapsed (an event left open ends first)
 * into p's, to reach p's table at its perf_end: workers' collapsers
 * merged without spelling a stack out twice.  Both were made with the
 * same options; from is only fit for perf_free after (when p had seen
 * no frame, it takes from's table whole). */
void perf_absorb(struct perf *p, struct perf *from);

/* Ends the input and writes p's stacks (not those already added to its
 * table) as folded_save would write them from the table, to path (NULL
 * or "-": stdout), without spelling them all out at once.  Returns 0, or
 * -1 with a message in err when the output cannot be written. */
int perf_save(struct perf *p, const char *path, char *err, size_t errlen);

/* Counters so far. */
const struct perf_stats *perf_stats(const struct perf *p);

/* What the weights of st's stacks count, for a graph's tooltips: "ns"
 * for perf's clock events (their period is nanoseconds), the event's name
 * when periods were printed ("cycles"), NULL for plain samples. */
const char *perf_count_unit(const struct perf_stats *st);

/* The event of the first event header in text (NUL-terminated into out),
 * as perf_new would pick it without --event-filter.  Returns 0, or -1
 * when text has no header with an event. */
int perf_first_event(const char *text, size_t len, char *out, size_t outlen);

#endif
