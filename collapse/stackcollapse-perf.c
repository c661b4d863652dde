/* stackcollapse-perf: perf script text to collapsed stacks, a faster
 * drop-in for stackcollapse-perf.pl.  Exit 0 when the input was read
 * (even with no stacks), 1 when a file cannot be read or written, 2 on a
 * usage error. */
#include "folded.h"
#include "lread.h"
#include "outfile.h"
#include "perf.h"
#include "perf_cli.h"
#include "strtab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "stackcollapse-perf"

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, PROG ": %s\n", msg);
}

struct feed {
	struct perf *p;		/* the collapser */
	unsigned long lineno;	/* lines so far in this input */
};

static void feed_line(void *ctx, const char *line, size_t len)
{
	struct feed *fd = ctx;

	perf_line(fd->p, line, len, ++fd->lineno);
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
	struct strtab *t;
	struct feed fd;
	char err[512];
	int i, rc;

	rc = perf_cli_parse(&cli, argc, argv, err, sizeof(err));
	if (rc != PERF_CLI_RUN)
		return perf_cli_exit(&cli, rc, PROG, err);
	t = strtab_new(sizeof(struct fcount));
	fd.p = perf_new(&cli.opts, t, warn, NULL);
	for (i = 0, rc = 0; i < cli.ninputs && rc == 0; i++) {
		fd.lineno = 0;
		perf_begin(fd.p, strcmp(cli.inputs[i], "-") ? cli.inputs[i] : "<stdin>");
		rc = lread_each(cli.inputs[i], feed_line, &fd, err, sizeof(err)) < 0;
		if (rc)
			fprintf(stderr, PROG ": %s\n", err);
	}
	perf_end(fd.p);
	perf_cli_report(&cli, perf_stats(fd.p), PROG);
	if (rc == 0)
		rc = write_stacks(t, cli.output);
	perf_free(fd.p);
	strtab_free(t);
	perf_cli_release(&cli);
	return rc;
}
