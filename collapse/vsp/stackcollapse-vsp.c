/* stackcollapse-vsp: Visual Studio profiler CSV reports (CallTreeSummary,
 * CallerCalleeSummary) to collapsed stacks.  Exit 0 when every input was
 * read (rows that could not be are named, counted and skipped), 1 when one
 * could not be read or was not such a report, 2 on a usage error. */
#include "folded.h"
#include "lread.h"
#include "strtab.h"
#include "vsp.h"
#include "vsp_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "stackcollapse-vsp"

static void warn(void *ctx, const char *file, unsigned long line, const char *msg)
{
	(void)ctx;
	if (line)
		fprintf(stderr, PROG ": %s:%lu: %s\n", file, line, msg);
	else
		fprintf(stderr, PROG ": %s: %s\n", file, msg);
}

static int feed(void *v, const char *line, size_t len, unsigned long lineno)
{
	return vsp_line(v, line, len, lineno);
}

/* Feeds one input; returns 0, or -1 after reporting a read error. */
static int read_input(struct vsp *v, const char *path)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	unsigned long lines = 0;
	char err[512];
	int rc;

	vsp_begin(v, name);
	rc = lread_each(path, feed, v, &lines, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, PROG ": %s\n", err);
	else if (lines == 0)
		fprintf(stderr, PROG ": %s: empty input\n", name);
	vsp_end(v);
	return rc;
}

int main(int argc, char **argv)
{
	struct vsp_cli cli;
	struct strtab *t;
	struct vsp *v;
	char err[512];
	int i, rc;

	if ((rc = cliopt_tool_parse(&vsp_cli_tool, &cli, argc, argv, &cli.io)) >= 0)
		return rc;
	t = strtab_new(sizeof(struct fcount));
	v = vsp_new(&cli.opts, t, warn, NULL);
	for (i = 0, rc = 0; i < cli.io.ninputs; i++)
		rc |= read_input(v, cli.io.inputs[i]) < 0;
	if (vsp_stats(v)->malformed)
		fprintf(stderr, PROG ": skipped %llu rows that could not be read\n",
			(unsigned long long)vsp_stats(v)->malformed);
	if (folded_save(t, cli.io.output, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		rc = 1;
	}
	rc = rc || vsp_stats(v)->bad_input;
	vsp_free(v);
	strtab_free(t);
	return rc;
}
