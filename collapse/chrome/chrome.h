/* chrome: Chrome DevTools profiles to collapsed stacks.
 *
 * cpuprofile: a .cpuprofile (DevTools' JavaScript profiler, node
 * --cpu-prof): nodes with a callFrame and their children (or parent),
 * and the samples naming a node each.  A sample's weight is the time to
 * the next sample (microseconds: its timeDeltas, as speedscope weighs
 * them; the last sample, with no next, weighs nothing), or 1 a sample
 * when the profile has no times.  The old tree form (v8-profiler's
 * "head" with nested children and absolute "timestamps") is read too.
 * (root) and (idle) are no frames; a nameless function is
 * "(anonymous FILE:LINE)" or "(anonymous)", as speedscope names it.
 *
 * trace: trace-event JSON (chrome://tracing, Perfetto's JSON, the input
 * of FlameGraph's stackcollapse-chrome-tracing.py): complete events
 * ("X", ts and dur) and begin/end pairs ("B"/"E") of each thread nest by
 * time; each frame weighs its own time, its duration less its children's
 * (microseconds).  Threads are merged, as stackcollapse-chrome-tracing.py
 * does. */
#ifndef FLAME_CHROME_H
#define FLAME_CHROME_H

#include <stddef.h>

#include "format.h"

struct fseq;
struct strtab;
struct json;

struct chrome_opts {
	struct strtab *t;		/* stacks out (values: struct fcount) */
	struct fseq *seq;		/* input order too, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input, for messages */
	int timed;			/* out: the weights are microseconds */
};

/* Read the document of j into o->t.  Each returns 0; 1 when the JSON was
 * malformed or held nothing of the format (what came before is kept;
 * the fault named through warn). */
int cpuprofile_read(struct json *j, struct chrome_opts *o);
int trace_read(struct json *j, struct chrome_opts *o);

int cpuprofile_sniff(const char *head, size_t len);
int cpuprofile_collect(const struct format_job *j);
int trace_sniff(const char *head, size_t len);
int trace_collect(const struct format_job *j);

#endif
