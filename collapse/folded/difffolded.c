/* difffolded: two collapsed-stack files to flamegraph's differential input,
 * "stack count_before count_after" per stack, a drop-in for difffolded.pl
 * (-n scales the first profile to the second's total, -s replaces hex
 * numbers with 0x...).  Output is sorted.  Exit 0, 1 unreadable input,
 * 2 usage error. */
#include "cliopt.h"
#include "folded.h"
#include "stackdiff.h"
#include "strtab.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "difffolded"

/* Loads path into t, hex numbers stripped when strip; returns 0 or -1. */
static int load(const char *path, struct strtab *t, int strip)
{
	struct strtab *raw = strip ? strtab_new(sizeof(struct fcount)) : t;
	unsigned long bad = 0, first = 0;
	char err[512];
	size_t i;
	int rc = folded_load(path, raw, &bad, &first, err, sizeof(err));

	if (rc < 0)
		fprintf(stderr, PROG ": %s\n", err);
	else if (bad)
		fprintf(stderr, PROG ": %s:%lu: ignored %lu lines that are not collapsed stacks\n",
			path, first, bad);
	for (i = 0; strip && i < strtab_count(raw); i++) {
		size_t len, o = 0, k = 0;
		const char *s = strtab_str(raw, (uint32_t)i, &len);
		char *d = xmalloc(len * 3 + 8);

		while (k < len) {
			if (s[k] == '0' && k + 2 < len && s[k + 1] == 'x' && isxdigit((unsigned char)s[k + 2])) {
				for (k += 2; k < len && isxdigit((unsigned char)s[k]); k++)
					;
				memcpy(d + o, "0x...", 5);
				o += 5;
				continue;
			}
			d[o++] = s[k++];
		}
		fcount_add(strtab_val(t, strtab_intern(t, d, o, NULL)), strtab_val(raw, (uint32_t)i));
		free(d);
	}
	if (strip)
		strtab_free(raw);
	return rc;
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
	double ta, tb;
	size_t i;
	char err[512];

	if ((rc = parse(argc, argv, flags, &io)) >= 0)
		return rc;
	a = strtab_new(sizeof(struct fcount));
	b = strtab_new(sizeof(struct fcount));
	rc = load(io.inputs[0], a, flags[1]) < 0;
	rc = (load(io.inputs[1], b, flags[1]) < 0) || rc;
	u = stackdiff_union(a, b);
	ta = stackdiff_total(a);
	tb = stackdiff_total(b);
	for (i = 0; flags[0] && ta != tb && ta > 0 && i < strtab_count(u); i++) {
		struct fcount *v = strtab_val(u, (uint32_t)i);

		v[0].n = (uint64_t)(fcount_value(&v[0]) * tb / ta);	/* int(), as Perl */
		v[0].frac = 0;
	}
	if (folded_save_pairs(u, io.output, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		rc = 1;
	}
	strtab_free(u);
	strtab_free(a);
	strtab_free(b);
	return rc;
}
