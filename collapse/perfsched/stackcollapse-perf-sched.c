/* stackcollapse-perf-sched: perf scheduler events (off-CPU time) to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"
#include "perfsched.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-perf-sched",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns perf script text of scheduler events into collapsed stacks of off-CPU time "
		"for flamegraph, as stackcollapse-perf-sched.awk does:\n"
		"  perf record -e sched:sched_switch -e sched:sched_stat_sleep -e "
		"sched:sched_stat_blocked -g -a -- sleep 10; perf script > out.txt\n"
		"Each stack where a task went to sleep weighs the microseconds it slept.\n",
	.shorts = "o:qvn:", .family = &perfsched_cli_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "perf-sched", argc, argv);
}
