/* stackcollapse-faulthandler: Python faulthandler dumps to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-faulthandler",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns Python faulthandler tracebacks, dumped again and again "
		"(faulthandler.dump_traceback_later(0.01, repeat=True)), into collapsed stacks for "
		"flamegraph, as stackcollapse-faulthandler.pl does: each thread of each dump is one "
		"sample; frames are FILE:LINE:FUNCTION.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "faulthandler", argc, argv);
}
