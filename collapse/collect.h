/* collect: any supported profile, its format detected (over the format
 * table) or given, collapsed in-process into a table of stacks (values:
 * struct fcount), for flame.  stdin is read once: the bytes read to tell
 * its format are kept and read again (a redirected file is rewound). */
#ifndef FLAME_COLLECT_H
#define FLAME_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "filter.h"
#include "format.h"

struct strtab;
struct fseq;
struct stack_sink;

struct collect_opts {
	const struct format *format;	/* NULL: detect each input's */
	struct filter filter;		/* --pid, --tid, --process, --begin, --end */
	void *const *fopts;		/* each family's options by its index in
					   format_families, or NULL: defaults */
	int split_roots;		/* roots name process and thread ids
					   (for splitting by them) */
	uint64_t max_inflate;		/* zip member cap, 0: default */
	struct strtab *before;		/* differential collapsed input
					   ("stack N M"): the N, or NULL */
	struct fseq *seq;		/* for a flame chart: the samples in
					   time (or input) order too, or NULL */
	/* Collapsed-stack input only: each line goes to folded_sink (which
	 * returns -1 for a line that is no stack) instead of into the table,
	 * so a graph can be drawn without a table in between; or NULL. */
	int (*folded_sink)(void *ctx, const char *line, size_t len);
	void *sink_ctx;			/* for folded_sink */
	/* Formats whose collapser keeps stacks as frame ids (perf text, pprof,
	 * sample reports) hand each input's stacks to stack_sink, if not
	 * NULL, instead of adding them to the table: no stack spelled out
	 * (see stacksink.h).  Not with seq. */
	const struct stack_sink *stack_sink;
	/* What the weights count when the input says ("ns", "cycles"): set
	 * by the first format that knows, into unit (unitcap bytes), if not
	 * NULL and still empty. */
	char *unit;
	size_t unitcap;
};

/* For formats: offers u as the unit of o's weights (see unit above). */
void collect_unit(const struct collect_opts *o, const char *u);

/* Collapses path ("-": stdin) into t.  *fmt gets the format used (NULL
 * for an empty input, which adds nothing, is named through warn and is
 * no error).
 * Returns 0 (skipped rows or samples are only reported through warn); 1
 * when the input broke off part way (what came before is kept, and the
 * fault named through warn); -1 with a message in err when it could not
 * be read at all or its format not told. */
int collect(const char *path, const struct collect_opts *o, struct strtab *t,
	    const struct format **fmt, collect_warn_fn *warn, void *ctx, char *err, size_t errlen);

/* collect over len bytes in memory (named "<stdin>" in messages). */
int collect_mem(const char *data, size_t len, const struct collect_opts *o, struct strtab *t,
		const struct format **fmt, collect_warn_fn *warn, void *ctx, char *err,
		size_t errlen);

#endif
