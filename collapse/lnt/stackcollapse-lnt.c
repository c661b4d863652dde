/* stackcollapse-lnt: LLVM LNT profiles to collapsed stacks (flat: a
 * function under its counter), or with --table to a table of every
 * counter.  Exit 0 when every input was read (entries that could not be
 * are named, counted and skipped), 1 when one could not be read, 2 on a
 * usage error. */
#include "folded.h"
#include "lnt_format.h"
#include "lread.h"
#include "outfile.h"
#include "strtab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "stackcollapse-lnt"

static void warn(void *ctx, const char *file, unsigned long line, const char *msg)
{
	(void)ctx;
	(void)line;
	fprintf(stderr, PROG ": %s: %s\n", file, msg);
}

/* Writes t sorted, each count exactly as the profile stores it. */
static void write_stacks(FILE *f, const struct strtab *t)
{
	uint32_t *ids = strtab_sorted(t);
	char num[LNT_NUM];
	size_t i, len;

	for (i = 0; i < strtab_count(t); i++) {
		const char *s = strtab_str(t, ids[i], &len);

		lnt_number(fcount_value(strtab_val(t, ids[i])), num);
		fprintf(f, "%.*s %s\n", (int)len, s, num);
	}
	free(ids);
}

/* One input: its stacks into t, or its table onto out.  Returns 0 or 1. */
static int one(const struct lnt_cli *cli, const char *path, struct strtab *t, FILE *out)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct lread *lr = lread_open(path);
	struct lnt_prof *p;
	char err[600];
	int c;

	if (!lr) {
		fprintf(stderr, PROG ": cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	p = lnt_load(lr, err, sizeof(err));
	lread_free(lr);
	if (!p) {
		fprintf(stderr, PROG ": %s: %s\n", name, err);
		return 1;
	}
	lnt_report(p, name, err, warn, NULL);
	if ((c = lnt_pick(p, &cli->opts, name, warn, NULL, err, sizeof(err))) < 0)
		fprintf(stderr, PROG ": %s: %s\n", name, err);
	else if (cli->table && cli->io.ninputs > 1)
		fprintf(out, "# %s\n", name);
	if (c >= 0 && cli->table)
		lnt_table(out, p, c);
	else if (c >= 0)
		lnt_add_stacks(p, c, &cli->opts, name, t, NULL);
	c = c < 0 || p->partial;
	lnt_free(p);
	return c;
}

/* --write-v2: the one input rewritten as a v2 profile.  Returns the
 * exit status. */
static int write_v2(const struct lnt_cli *cli)
{
	struct lread *lr = cli->io.ninputs == 1 ? lread_open(cli->io.inputs[0]) : NULL;
	struct lnt_prof *p = NULL;
	struct outfile *out = NULL;
	unsigned char *b;
	char err[600];
	size_t len;

	if (cli->io.ninputs != 1)
		return cliopt_usage(PROG, "--write-v2 takes one input");
	if (!lr || !(p = lnt_load(lr, err, sizeof(err))) || p->partial)
		fprintf(stderr, PROG ": %s: %s\n", cli->io.inputs[0], lr ? err : strerror(errno));
	else if (!(out = outfile_open(cli->write_v2)))
		fprintf(stderr, PROG ": cannot write '%s': %s\n", cli->write_v2, strerror(errno));
	else {
		lnt_report(p, cli->io.inputs[0], err, warn, NULL);
		b = lnt_write_v2(p, &len);
		fwrite(b, 1, len, outfile_stream(out));
		free(b);
		if (outfile_commit(out) < 0)
			fprintf(stderr, PROG ": write error on '%s': %s\n", cli->write_v2, strerror(errno));
		else
			len = 0;
	}
	lread_free(lr);
	lnt_free(p);
	return out && len == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct lnt_cli cli;
	struct outfile *out;
	struct strtab *t;
	int i, rc;

	if ((rc = cliopt_tool_parse(&lnt_cli_tool, &cli, argc, argv, &cli.io)) >= 0)
		return rc;
	if (cli.write_v2)
		return write_v2(&cli);
	if (!(out = outfile_open(cli.io.output))) {
		fprintf(stderr, PROG ": cannot write '%s': %s\n", cli.io.output, strerror(errno));
		return 1;
	}
	t = strtab_new(sizeof(struct fcount));
	for (i = 0, rc = 0; i < cli.io.ninputs; i++)
		rc |= one(&cli, cli.io.inputs[i], t, outfile_stream(out));
	write_stacks(outfile_stream(out), t);
	if (outfile_commit(out) < 0) {
		fprintf(stderr, PROG ": write error on '%s': %s\n",
			cli.io.output ? cli.io.output : "<stdout>", strerror(errno));
		rc = 1;
	}
	strtab_free(t);
	return rc;
}
