/* stackcollapse-gdb: gdb backtraces to collapsed stacks.  Exit 0 when
 * every input was read, 1 when one could not be or held no backtrace, 2 on
 * a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-gdb",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns backtraces printed by gdb, taken again and again (the poor man's "
		"profiler), into collapsed stacks for flamegraph, as stackcollapse-gdb.pl does:\n"
		"  for i in $(seq 100); do gdb -p PID -batch -ex 'thread apply all bt'; sleep 0.1; "
		"done > out.txt\n"
		"Each backtrace is one sample of its thread.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "gdb", argc, argv);
}
