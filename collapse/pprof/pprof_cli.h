/* pprof_cli: stackcollapse-pprof's command line. */
#ifndef FLAME_PPROF_CLI_H
#define FLAME_PPROF_CLI_H

#include "cliopt.h"
#include "ctool.h"

struct pprof_set;

/* How a pprof profile is drawn. */
struct pprof_opts {
	struct ctool_common common;	/* -q and friends (first: ctool's) */
	const char *sample_type;	/* --sample-type, NULL: the default */
	int labels;			/* --labels: labels root the stacks */
	int threads;			/* --threads: workers reading the
					   samples, 0: as many as cores */
	struct pprof_set *set;		/* stackcollapse-pprof's stacks: the
					   profiles' go here when they can
					   (pprof_fast), not to the table;
					   NULL (flame): to the table */
};

/* The threads to read and write o's profiles on (--threads, else one
 * per core, up to 8; o may be NULL). */
int pprof_threads(const struct pprof_opts *o);

/* The options pprof profiles take in flame too, over a struct pprof_opts. */
extern const struct cliopt_family pprof_cli_family;

/* The tool's command line (ctool_main's). */
extern const struct cliopt_tool pprof_cli_tool;

#endif
