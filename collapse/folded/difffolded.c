/* difffolded: two collapsed-stack files to flamegraph's differential input,
 * "stack count_before count_after" per stack, a drop-in for difffolded.pl
 * (-n scales the first profile to the second's total, -s replaces hex
 * numbers with 0x...).  Output is sorted.  Exit 0, 1 unreadable input,
 * 2 usage error. */
#include "cliopt.h"
#include "folded.h"
#include "stackdiff.h"
#include "strtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "difffolded"

/* Loads path, hex numbers stripped when strip: the stacks read (all of
 * them, or those before a fault, when *failed is set after saying why). */
static struct strtab *load(const char *path, int strip, int *failed)
{
	struct strtab *t = strtab_new(sizeof(struct fcount)), *bare;
	unsigned long bad = 0, first = 0;
	char err[512];

	if (folded_load(path, t, &bad, &first, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		*failed = 1;
	} else if (bad) {
		fprintf(stderr, PROG ": %s:%lu: ignored %lu lines that are not collapsed stacks\n",
			path, first, bad);
	}
	if (!strip)
		return t;
	bare = stackdiff_strip_hex(t);
	strtab_free(t);
	return bare;
}

static const struct cliopt options[] = {
	{ "normalize", 'n', NULL, "scale BEFORE to AFTER's total" },
	{ "strip-hex", 's', NULL, "replace hex numbers (addresses) with 0x..." },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	int *flags = ctx;

	(void)arg;
	(void)err;
	(void)errlen;
	flags[key == 's'] = 1;
	return 0;
}

static const struct cliopt_family family = {
	NULL, options, set, 2 * sizeof(int), NULL, NULL, NULL
};

static const struct cliopt_tool tool = {
	.prog = PROG,
	.usage = "[-n] [-s] BEFORE.folded AFTER.folded | flamegraph > diff.svg",
	.about = "Writes \"stack BEFORE_COUNT AFTER_COUNT\" for every stack of either file.\n",
	.shorts = "nso:", .family = &family
};

/* Parses argv into flags (-n, -s) and io; returns -1 to run, or the exit
 * status. */
static int parse(int argc, char **argv, int *flags, struct cliopt_files *io)
{
	int rc = cliopt_tool_parse(&tool, flags, argc, argv, io);

	if (rc >= 0)
		return rc;
	if (io->ninputs != 2 || strcmp(io->inputs[0], "-") == 0)
		return cliopt_usage(PROG, "needs two files, BEFORE and AFTER");
	return -1;
}

int main(int argc, char **argv)
{
	struct strtab *a, *b, *u;
	int flags[2] = { 0, 0 }, rc;
	struct cliopt_files io;
	char err[512];

	if ((rc = parse(argc, argv, flags, &io)) >= 0)
		return rc;
	rc = 0;
	a = load(io.inputs[0], flags[1], &rc);
	b = load(io.inputs[1], flags[1], &rc);
	u = stackdiff_union(a, b);
	if (flags[0])	/* int(), as Perl */
		stackdiff_normalize(u, stackdiff_total(a), stackdiff_total(b), 1);
	if (folded_save_pairs(u, io.output, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		rc = 1;
	}
	strtab_free(u);
	strtab_free(a);
	strtab_free(b);
	return rc;
}
