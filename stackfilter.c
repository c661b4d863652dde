/* stackfilter: collapsed stacks in, the same reshaped by stack operators
 * out (--group, --fold, --fold-pct, --include, --exclude, --focus,
 * --callers, --callees, in the order given: see lib/stackops.h).  What a
 * filter drops is said on stderr.  Output is sorted.  Exit 0, 1 an input
 * or the output could not be read or written, 2 usage error. */
#include "cliopt.h"
#include "folded.h"
#include "stackops.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>

#define PROG "stackfilter"

static const struct cliopt_tool tool = {
	.prog = PROG,
	.usage = "[operators] [FILE...] [-o OUT.folded]",
	.about = "Reshapes collapsed stacks with PerfView's stack operators, applied in the\n"
		 "order given, and writes them collapsed again, sorted.  Patterns are POSIX\n"
		 "extended regular expressions matched anywhere in a frame name.  With no\n"
		 "FILE, or -, reads stdin; several files are merged.\n",
	.after = "What --include, --exclude, --focus, --callers and --callees drop is said\n"
		 "on stderr; the other operators keep the sum of counts.\n",
	.shorts = "o:", .family = &stackops_family
};

static void say(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, PROG ": %s\n", msg);
}

/* Adds the inputs' stacks to t; returns 0, or 1 when one was unreadable. */
static int load(const struct cliopt_files *io, struct strtab *t)
{
	unsigned long bad, first;
	char err[512];
	int i, rc = 0;

	for (i = 0; i < io->ninputs; i++) {
		bad = first = 0;
		if (folded_load(io->inputs[i], t, &bad, &first, err, sizeof(err)) < 0) {
			fprintf(stderr, PROG ": %s\n", err);
			rc = 1;
		} else if (bad) {
			fprintf(stderr, PROG ": %s:%lu: ignored %lu lines that are not collapsed stacks\n",
				io->inputs[i], first, bad);
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	void *ops = xcalloc(1, stackops_family.size);
	struct strtab *in, *out;
	struct cliopt_files io;
	char err[512];
	int rc;

	if ((rc = cliopt_tool_parse(&tool, ops, argc, argv, &io)) >= 0) {
		free(ops);
		return rc;
	}
	in = strtab_new(sizeof(struct fcount));
	rc = load(&io, in);
	out = stackops_apply(ops, in, say, NULL);
	if (folded_save(out, io.output, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		rc = 1;
	}
	strtab_free(out);
	strtab_free(in);
	stackops_family.release(ops);
	free(ops);
	return rc;
}
