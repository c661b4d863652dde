/* vtune: Intel VTune Profiler's top-down tree as CSV (amplxe-cl/vtune
 * -report top-down -call-stack-mode all -column="CPU Time:Self,Module"
 * -report-output out.csv -format csv -csv-delimiter comma) to collapsed
 * stacks, as inferno-collapse-vtune does.  After the header line
 * "Function Stack,CPU Time:Self,Module" each row is a node, its depth its
 * count of leading spaces; a node with self time is a stack weighing it in
 * milliseconds, its frames "module`function". */
#ifndef FLAME_VTUNE_H
#define FLAME_VTUNE_H

#include <stddef.h>
#include <stdint.h>

#include "ctool.h"
#include "format.h"

struct vtune_opts {
	struct ctool_common common;	/* -q */
	int no_modules;			/* function names without their module */
};

struct vtune_stats {
	uint64_t stacks;		/* stacks added */
	uint64_t bad;			/* rows that could not be read, skipped */
};

struct fseq;
struct strtab;
struct vtune;

/* Returns a collapser adding to t (values: struct fcount), and to seq in
 * input order when not NULL; messages go to warn, about name.  Free with
 * vtune_free. */
struct vtune *vtune_new(const struct vtune_opts *o, struct strtab *t, struct fseq *seq,
			collect_warn_fn *warn, void *ctx, const char *name);

/* Frees v.  vtune_free(NULL) does nothing. */
void vtune_free(struct vtune *v);

/* Reads one line (no line end).  Always returns 0. */
int vtune_line(struct vtune *v, const char *line, size_t n, unsigned long lineno);

/* Ends the input: returns 0, or 1 when it had no header (said through
 * warn). */
int vtune_end(struct vtune *v);

const struct vtune_stats *vtune_stats(const struct vtune *v);

int vtune_sniff(const char *head, size_t len);
int vtune_collect(const struct format_job *j);

#endif
