/* stackcollapse-recursive: collapsed stacks with direct recursion folded
 * ("f;f;f" -> "f").  Exit 0 when every input was read (lines that are not
 * collapsed stacks are counted and skipped), 1 when one could not be, 2 on
 * a usage error. */
#include "ctool.h"
#include "folded.h"
#include "recursive.h"
#include "strtab.h"

#include <stdio.h>

#define PROG "stackcollapse-recursive"

static const struct cliopt_tool tool = {
	.prog = PROG,
	.usage = "[options] [FILE...] > out.folded",
	.about = "Folds direct recursion in collapsed stacks, as inferno-collapse-recursive does: "
		"a run of the same frame (\"main;f;f;f;g\") is kept once (\"main;f;g\"), so a deep "
		"recursion draws one frame high. Counts of stacks that become the same are summed.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

/* Reads the inputs into t; returns 0, or 1 when one could not be read. */
static int load(const struct cliopt_files *io, const struct ctool_common *c, struct strtab *t)
{
	unsigned long bad, first;
	char err[512];
	int i, rc = 0;

	for (i = 0; i < io->ninputs; i++) {
		bad = first = 0;
		if (folded_load(io->inputs[i], t, &bad, &first, err, sizeof(err)) < 0) {
			fprintf(stderr, PROG ": %s\n", err);
			rc = 1;
		}
		if (bad && !c->quiet)
			fprintf(stderr, PROG ": %s:%lu: skipped %lu lines that are not collapsed "
				"stacks\n", io->inputs[i], first, bad);
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct ctool_common c;
	struct cliopt_files io;
	struct strtab *in, *out;
	char err[512];
	int rc;

	if ((rc = cliopt_tool_parse(&tool, &c, argc, argv, &io)) >= 0)
		return rc;
	in = strtab_new(sizeof(struct fcount));
	out = strtab_new(sizeof(struct fcount));
	rc = load(&io, &c, in);
	recursive_table(in, out);
	if (folded_save(out, io.output, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		rc = 1;
	}
	strtab_free(in);
	strtab_free(out);
	return rc;
}
