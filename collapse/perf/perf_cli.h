/* perf_cli: stackcollapse-perf's command line (the options of
 * stackcollapse-perf.pl plus --skip-after, --threads, -o) and its
 * end-of-run report. */
#ifndef FLAME_PERF_CLI_H
#define FLAME_PERF_CLI_H

#include <stddef.h>

#include "cliopt.h"
#include "perf_run.h"

/* perf_cli_parse's results are cliopt's. */
enum { PERF_CLI_RUN = CLIOPT_RUN };

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

/* The options a perf input takes in flame as well (a cliopt table for
 * perf_cli_set). */
extern const struct cliopt perf_cli_format[];

/* cliopt's setter for a struct perf_cli (ctx). */
int perf_cli_set(void *ctx, int key, const char *arg, char *err, size_t errlen);

/* Empties cli, for setting options one by one; then perf_cli_ready. */
void perf_cli_init(struct perf_cli *cli);

/* After the options: the default thread count, the addr2line helper for
 * --inline, the --skip-after list into opts. */
void perf_cli_ready(struct perf_cli *cli);

/* Parses argv into cli.  Returns CLIOPT_RUN, or another of cliopt_parse's
 * results (with a message in err for CLIOPT_USAGE).  Release with
 * perf_cli_release. */
int perf_cli_parse(struct perf_cli *cli, int argc, char **argv, char *err, size_t errlen);

/* For a result other than PERF_CLI_RUN: prints help, the version or the
 * usage error and returns the exit status. */
int perf_cli_exit(struct perf_cli *cli, int result, const char *prog, const char *err);

/* Prints what the run skipped (other events, malformed lines) to stderr. */
void perf_cli_report(const struct perf_cli *cli, const struct perf_stats *st, const char *prog);

/* Frees what perf_cli_parse allocated. */
void perf_cli_release(struct perf_cli *cli);

#endif
