/* stackcollapse-ljp: lightweight-java-profiler traces to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-ljp",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns lightweight-java-profiler's traces.txt into collapsed stacks for flamegraph, "
		"as stackcollapse-ljp.awk does: each trace weighs its count.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "ljp", argc, argv);
}
