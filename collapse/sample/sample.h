/* sample: macOS sample(1) reports to collapsed stacks, as
 * inferno-collapse-sample does.  The "Call graph:" section is a tree, one
 * node a line, its depth told by pairs of indent characters ("+ ", "| ",
 * ": ", "! "): "    + 825 main  (in rg) + 41  [0x10384b549]".  Each leaf
 * node is a stack weighing its sample count ("module`function", or just
 * the function with --no-modules); stacks ending in a wait (mach_msg_trap,
 * __psynch_cvwait, kevent, ...) are dropped, as they are idle threads. */
#ifndef FLAME_SAMPLE_H
#define FLAME_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "ctool.h"
#include "format.h"

struct sample_opts {
	struct ctool_common common;	/* -q */
	int no_modules;			/* function names without their module */
	struct sample_tree *tree;	/* stackcollapse-sample's: the stacks go
					   here, not to the table (NULL: there) */
};

struct sample_stats {
	uint64_t stacks;		/* stacks added */
	uint64_t bad;			/* lines that could not be read, skipped */
};

struct fseq;
struct strtab;
struct sample;
struct sample_tree;

/* Returns a collapser adding to t (values: struct fcount), and to seq in
 * input order when not NULL; or, o->tree set and seq NULL, to o->tree
 * (sample_tree.h) instead of t.  Messages go to warn, about name.  Free
 * with sample_free. */
struct sample *sample_new(const struct sample_opts *o, struct strtab *t, struct fseq *seq,
			  collect_warn_fn *warn, void *ctx, const char *name);

/* Frees s.  sample_free(NULL) does nothing. */
void sample_free(struct sample *s);

/* Reads one line (no line end).  Returns 0, or -1 after the call graph
 * (the rest of the report is not needed). */
int sample_line(struct sample *s, const char *line, size_t n, unsigned long lineno);

/* Reads the whole lines in text (each ending in '\n', the last one may
 * lack it), *lineno being the number of lines before them; adds the
 * lines read to *lineno.  Returns as sample_line (an lblock_fn). */
int sample_text(struct sample *s, const char *text, size_t len, unsigned long *lineno);

/* Ends the input: returns 0, or 1 when it ended before the call graph did
 * (the stacks read are kept) or had none; said through warn. */
int sample_end(struct sample *s);

const struct sample_stats *sample_stats(const struct sample *s);

int sample_sniff(const char *head, size_t len);
int sample_collect(const struct format_job *j);

#endif
