/* perf_cli: stackcollapse-perf's command line (the options of
 * stackcollapse-perf.pl plus --skip-after, --threads, -o) and its
 * end-of-run report. */
#ifndef FLAME_PERF_CLI_H
#define FLAME_PERF_CLI_H

#include <stddef.h>

#include "perf_run.h"

enum { PERF_CLI_RUN, PERF_CLI_HELP, PERF_CLI_VERSION, PERF_CLI_USAGE };

struct perf_cli {
	struct perf_opts opts;		/* collapser options */
	const char **inputs;		/* files, "-" for stdin */
	int ninputs;			/* how many */
	const char *output;		/* -o FILE, NULL: stdout */
	struct perf_run_opts run;	/* --threads; chunk from $FLAME_CHUNK (tests) */
	int inline_frames;		/* --inline */
	int context;			/* --context */
	const char **skip;		/* --skip-after values (owned array) */
	size_t nskip;			/* how many */
};

/* Parses argv into cli.  Returns PERF_CLI_RUN, PERF_CLI_HELP,
 * PERF_CLI_VERSION, or PERF_CLI_USAGE with a message in err.  Release
 * with perf_cli_release. */
int perf_cli_parse(struct perf_cli *cli, int argc, char **argv, char *err, size_t errlen);

/* For a result other than PERF_CLI_RUN: prints help, the version or the
 * usage error and returns the exit status. */
int perf_cli_exit(struct perf_cli *cli, int result, const char *prog, const char *err);

/* Prints what the run skipped (other events, malformed lines) to stderr. */
void perf_cli_report(const struct perf_cli *cli, const struct perf_stats *st, const char *prog);

/* Frees what perf_cli_parse allocated. */
void perf_cli_release(struct perf_cli *cli);

#endif
