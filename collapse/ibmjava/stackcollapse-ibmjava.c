/* stackcollapse-ibmjava: IBM Java javacores to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"
#include "jstack_cli.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-ibmjava",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns IBM Java javacore thread dumps (kill -3 PID, again and again) into collapsed "
		"stacks for flamegraph, as stackcollapse-ibmjava.pl does: each thread of each dump "
		"is one sample, under its thread's name.\n",
	.shorts = "o:qvn:", .family = &jstack_cli_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "ibmjava", argc, argv);
}
