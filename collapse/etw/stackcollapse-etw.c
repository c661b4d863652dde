/* stackcollapse-etw: Windows ETW CPU sampling exports to collapsed stacks.
 * Exit 0 when every input was read, 1 when one could not be read or is
 * not such an export, 2 on a usage error. */
#include "etl.h"
#include "etw.h"
#include "etw_cli.h"
#include "folded.h"
#include "lread.h"
#include "split.h"
#include "strtab.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PROG "stackcollapse-etw"

static void warn(void *ctx, const char *file, unsigned long line, const char *msg)
{
	(void)ctx;
	if (line)
		fprintf(stderr, PROG ": %s:%lu: %s\n", file, line, msg);
	else	/* a binary input: msg names the byte */
		fprintf(stderr, PROG ": %s: %s\n", file, msg);
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

/* Opens path ("-": stdin, read once: the bytes looked at are read
 * again), *etl telling an .etl trace from an export by its first bytes. */
static struct lread *open_input(const char *path, int *etl)
{
	int in = strcmp(path, "-") == 0;
	struct lread *lr = in ? lread_stdin_tee() : lread_open(path);
	unsigned char *prefix;
	char head[4096];
	ssize_t n;
	size_t len;

	if (!lr)
		return NULL;
	n = lread_read(lr, head, sizeof(head));
	*etl = n > 0 && etl_sniff(head, (size_t)n) > 0;
	if (in) {
		prefix = lread_take_record(lr, &len);
		lread_free(lr);
		return lread_resume_stdin(prefix, len);
	}
	lread_free(lr);
	return lread_open(path);
}

static ssize_t from_lread(void *ctx, void *buf, size_t n)
{
	return lread_read(ctx, buf, n);
}

/* An .etl trace; returns 0, or 1 when it broke off (named). */
static int read_etl(struct etw *e, const struct etw_opts *o, struct lread *lr, const char *name)
{
	struct etl *x = etl_new(e, o, warn, NULL, name);
	char msg[256];
	int rc = etl_read(x, from_lread, lr);

	if (rc && *lread_error(lr))
		fprintf(stderr, PROG ": %s: %s\n", name, lread_error(lr));
	if (etl_summary(x, msg, sizeof(msg)))
		fprintf(stderr, PROG ": %s: %s\n", name, msg);
	etl_free(x);
	return rc;
}

/* Feeds one input; returns 0, or -1 after reporting a read error. */
static int read_input(struct etw *e, const struct etw_opts *o, const char *path)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct lread *lr;
	char err[512];
	int rc, etl = 0;

	if (!(lr = open_input(path, &etl))) {
		fprintf(stderr, PROG ": cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	etw_begin(e, name);
	if (etl)
		rc = -read_etl(e, o, lr, name);
	else if ((rc = lread_feed(lr, feed, e, err, sizeof(err))) < 0)
		fprintf(stderr, PROG ": %s\n", err);
	etw_end(e);
	lread_free(lr);
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
		rc |= read_input(e, &cli.opts, cli.io.inputs[i]) < 0;
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
