/* stackcollapse-wcp: wcp (wall-clock profiler) reports to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-wcp",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns the \"Full stacks\" part of a wcp (wall-clock profiler) report into collapsed "
		"stacks for flamegraph, as stackcollapse-wcp.pl does: each stack weighs its "
		"samples.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "wcp", argc, argv);
}
