/* stackcollapse-perf: perf script text to collapsed stacks, a faster
 * drop-in for stackcollapse-perf.pl.  Exit 0 when the input was read
 * (even with no stacks), 1 when a file cannot be read or written, 2 on a
 * usage error. */
#include "folded.h"
#include "outfile.h"
#include "perf_run.h"
#include "perf_cli.h"
#include "strtab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "stackcollapse-perf"

static void warn(void *ctx, const char *file, unsigned long line, const char *msg)
{
	(void)ctx;
	fprintf(stderr, PROG ": %s:%lu: %s\n", file, line, msg);
}

static int write_stacks(const struct strtab *t, const char *path)
{
	struct outfile *o = outfile_open(path);
	uint32_t *ids;
	size_t i, n = strtab_count(t);

	if (!o) {
		fprintf(stderr, PROG ": cannot write '%s': %s\n", path, strerror(errno));
		return 1;
	}
	ids = strtab_sorted(t);
	for (i = 0; i < n; i++) {
		size_t len;
		const char *s = strtab_str(t, ids[i], &len);

		folded_write(outfile_stream(o), s, len, strtab_val(t, ids[i]));
	}
	free(ids);
	if (outfile_commit(o) < 0) {
		fprintf(stderr, PROG ": write error on '%s': %s\n", path ? path : "<stdout>",
			strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct perf_cli cli;
	struct perf_stats st;
	struct strtab *t;
	char err[512];
	int rc;

	rc = perf_cli_parse(&cli, argc, argv, err, sizeof(err));
	if (rc != PERF_CLI_RUN)
		return perf_cli_exit(&cli, rc, PROG, err);
	t = strtab_new(sizeof(struct fcount));
	rc = perf_run(&cli.opts, cli.inputs, cli.ninputs, &cli.run, t, &st, warn, NULL,
		      err, sizeof(err)) < 0;
	if (rc)
		fprintf(stderr, PROG ": %s\n", err);
	perf_cli_report(&cli, &st, PROG);
	if (rc == 0)
		rc = write_stacks(t, cli.output);
	strtab_free(t);
	perf_cli_release(&cli);
	return rc;
}
