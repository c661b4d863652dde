/* perf_cli: stackcollapse-perf's command line (the options of
 * stackcollapse-perf.pl plus --skip-after, --threads, -o) and its
 * end-of-run report. */
#ifndef FLAME_PERF_CLI_H
#define FLAME_PERF_CLI_H

#include <stddef.h>

#include "cliopt.h"
#include "perf_run.h"


struct perf_cli {
	struct perf_opts opts;		/* collapser options */
	struct cliopt_files io;		/* inputs, -o */
	struct perf_run_opts run;	/* --threads; chunk from $FLAME_CHUNK (tests) */
	int inline_frames;		/* --inline */
	int context;			/* --context */
	const char **skip;		/* --skip-after values (owned array) */
	size_t nskip;			/* how many */
};

/* The options a perf input takes in flame as well, over a struct
 * perf_cli (ready: the default thread count, the addr2line helper for
 * --inline, the --skip-after list). */
extern const struct cliopt_family perf_cli_family;

/* The tool's command line over a struct perf_cli: cliopt_tool_parse(&perf_cli_tool,
 * &cli, argc, argv, &cli.io) returns -1 to run, else the exit status. */
extern const struct cliopt_tool perf_cli_tool;

/* Prints what the run skipped (other events, malformed lines) to stderr. */
void perf_cli_report(const struct perf_cli *cli, const struct perf_stats *st, const char *prog);

/* Frees what perf_cli_parse allocated. */
void perf_cli_release(struct perf_cli *cli);

#endif
