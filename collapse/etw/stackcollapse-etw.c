/* stackcollapse-etw: Windows ETW CPU sampling exports to collapsed stacks.
 * Exit 0 when every input was read, 1 when one could not be read or is
 * not such an export, 2 on a usage error. */
#include "etw.h"
#include "etw_cli.h"
#include "folded.h"
#include "lread.h"
#include "split.h"
#include "strtab.h"

#include <stdio.h>
#include <string.h>

#define PROG "stackcollapse-etw"

static void warn(void *ctx, const char *file, unsigned long line, const char *msg)
{
	(void)ctx;
	fprintf(stderr, PROG ": %s:%lu: %s\n", file, line, msg);
}

/* --split: a file per busiest thread (process with --collapse-threads),
 * each listed on stdout with its weight, share and group. */
static int save_split(const struct etw_cli *cli, const struct strtab *t, char *err, size_t errlen)
{
	struct split *sp = split_new(t, cli->opts.collapse_threads ? SPLIT_PROCESS : SPLIT_THREAD,
				     cli->top);
	size_t i;
	int rc = 0;

	for (i = 0; i < split_count(sp) && rc == 0; i++) {
		const struct split_group *g = split_group(sp, i);
		char path[4096];

		snprintf(path, sizeof(path), "%s" SPLIT_DIR_SEP "%s.folded", cli->split, g->name);
		if ((rc = split_save_folded(sp, i, t, path, err, errlen)) == 0)
			printf("%s\t%.15g\t%.1f%%\t%s\n", path, g->weight, 100 * g->share, g->label);
	}
	split_free(sp);
	return rc;
}
static int feed(void *e, const char *line, size_t len, unsigned long lineno)
{
	return etw_line(e, line, len, lineno);
}

/* Feeds one input; returns 0, or -1 after reporting a read error. */
static int read_input(struct etw *e, const char *path)
{
	char err[512];
	int rc;

	etw_begin(e, strcmp(path, "-") ? path : "<stdin>");
	rc = lread_each(path, feed, e, NULL, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, PROG ": %s\n", err);
	etw_end(e);
	return rc;
}

int main(int argc, char **argv)
{
	struct etw_cli cli;
	struct strtab *t;
	struct etw *e;
	char err[512];
	int i, rc;

	if ((rc = cliopt_tool_parse(&etw_cli_tool, &cli, argc, argv, &cli.io)) >= 0)
		return rc;
	t = strtab_new(sizeof(struct fcount));
	e = etw_new(&cli.opts, t, cli.split != NULL, warn, NULL);
	for (i = 0, rc = 0; i < cli.io.ninputs; i++)
		rc |= read_input(e, cli.io.inputs[i]) < 0;
	if (etw_stats(e)->malformed)
		fprintf(stderr, PROG ": skipped %llu rows that could not be read\n",
			(unsigned long long)etw_stats(e)->malformed);
	rc |= etw_stats(e)->bad_input;
	if (cli.split ? save_split(&cli, t, err, sizeof(err)) < 0
		      : folded_save(t, cli.io.output, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		rc = 1;
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = 1;
	etw_free(e);
	strtab_free(t);
	etw_cli_release(&cli);
	return rc;
}
