/* stackcollapse-elfutils: eu-stack backtraces to collapsed stacks.  Exit
 * 0 when every input was read, 1 when one could not be or held no
 * backtrace, 2 on a usage error. */
#include "ctool.h"
#include "elfutils.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-elfutils",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns backtraces printed by eu-stack (elfutils), taken again and again, into "
		"collapsed stacks for flamegraph, as stackcollapse-elfutils.pl does:\n"
		"  for i in $(seq 100); do eu-stack -p PID; sleep 0.1; done > out.txt\n"
		"Each thread's backtrace is one sample.\n",
	.shorts = "o:qvn:", .family = &elfutils_cli_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "elfutils", argc, argv);
}
