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
 * does.  A trace holding sampled profiles (what DevTools' performance
 * panel records: a "Profile" event, then "ProfileChunk" events with
 * args.data.cpuProfile nodes and samples and args.data.timeDeltas, tied
 * by pid and id; or Chrome 65-66's one "CpuProfile" event) is drawn from
 * those samples alone, each profile as a .cpuprofile (frames named
 * alike, each sample weighing the microseconds to the next), and its
 * duration events are left out, since they cover the same time. */
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

/* A .cpuprofile read in pieces, for the sampled profiles of a trace
 * (Profile/ProfileChunk events, and the older CpuProfile one): each
 * piece is read into a profile of its own (cpuprofile_object: a
 * cpuProfile object, the token tok starting it; cpuprofile_deltas: a
 * timeDeltas array beside it) and then appended to its profile, whose
 * samples refer to nodes of earlier pieces.  Each returns 0, -1 at a
 * JSON fault.  cpuprofile_emit draws a whole profile into its opts' t as
 * cpuprofile_read would (returns 1 when it has no nodes). */
struct cpuprofile;
struct cpuprofile *cpuprofile_new(struct json *j, struct chrome_opts *o);
void cpuprofile_free(struct cpuprofile *c);
void cpuprofile_clear(struct cpuprofile *c);
int cpuprofile_object(struct cpuprofile *c, int tok);
int cpuprofile_deltas(struct cpuprofile *c, int tok);
/* Whether c holds nodes or samples; how many nodes. */
int cpuprofile_has(const struct cpuprofile *c);
size_t cpuprofile_nodes(const struct cpuprofile *c);
/* Appends piece src to dst: its nodes, its samples with one time delta
 * each (zeros where the piece has fewer). */
void cpuprofile_append(struct cpuprofile *dst, const struct cpuprofile *src);
int cpuprofile_emit(struct cpuprofile *c);

int cpuprofile_sniff(const char *head, size_t len);
int cpuprofile_collect(const struct format_job *j);
int trace_sniff(const char *head, size_t len);
int trace_collect(const struct format_job *j);

#endif
