/* stackcollapse-aix: AIX procstack output to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-aix",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns AIX procstack output, taken again and again, into collapsed stacks for "
		"flamegraph, as stackcollapse-aix.pl does: each thread of each dump is one sample, "
		"under its process.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "aix", argc, argv);
}
