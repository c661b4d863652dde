/* stackcollapse-pmc: FreeBSD pmcstat -G callgraphs to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-pmc",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns a FreeBSD pmcstat callgraph (pmcstat -R out.pmc -G out.txt) into collapsed "
		"stacks for flamegraph, as stackcollapse-pmc.pl does.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "pmc", argc, argv);
}
