/* stackcollapse-perf: perf script text to collapsed stacks, a faster
 * drop-in for stackcollapse-perf.pl.  Exit 0 when the input was read
 * (even with no stacks), 1 when a file cannot be read through (what came
 * before a fault is still written) or written, 2 on a usage error. */
#include "folded.h"
#include "perf_run.h"
#include "perf_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "stackcollapse-perf"

static void warn(void *ctx, const char *file, unsigned long line, const char *msg)
{
	(void)ctx;
	if (line)
		fprintf(stderr, PROG ": %s:%lu: %s\n", file, line, msg);
	else
		fprintf(stderr, PROG ": %s: %s\n", file, msg);
}

int main(int argc, char **argv)
{
	struct perf_cli cli;
	struct perf_stats st;
	struct perf *p;
	char err[512];
	int rc;

	if ((rc = cliopt_tool_parse(&perf_cli_tool, &cli, argc, argv, &cli.io)) >= 0)
		return rc;
	rc = perf_run_kept(&cli.opts, cli.io.inputs, cli.io.ninputs, &cli.run, &p, &st, warn, NULL,
			   err, sizeof(err));
	if (rc)
		fprintf(stderr, PROG ": %s\n", err);
	perf_cli_report(&cli, &st, PROG);
	/* An input that broke off part way still gives what came before. */
	if (rc >= 0 && perf_save(p, cli.io.output, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		rc = 1;
	}
	perf_free(p);
	perf_cli_release(&cli);
	return rc != 0;
}
