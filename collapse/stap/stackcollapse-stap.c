/* stackcollapse-stap: SystemTap stack counts to collapsed stacks.  Exit 0
 * when every input was read, 1 when one could not be or held no stack, 2
 * on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-stap",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns stacks counted by a SystemTap script (print_stack or print_ustack of "
		"each key, then its count on a line of its own) into collapsed stacks for "
		"flamegraph, as stackcollapse-stap.pl does.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "stap", argc, argv);
}
