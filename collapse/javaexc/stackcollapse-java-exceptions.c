/* stackcollapse-java-exceptions: Java exception stack traces to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"
#include "javaexc.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-java-exceptions",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns Java exception stack traces (as a program logs them) into collapsed stacks "
		"for flamegraph, as stackcollapse-java-exceptions.pl does: each trace is one "
		"sample, so the graph shows where exceptions are thrown from.\n",
	.shorts = "o:qvn:", .family = &javaexc_cli_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "java-exceptions", argc, argv);
}
