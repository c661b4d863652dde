/* stackcollapse-vtune-mc: VTune memory-consumption CSV to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"
#include "vtunemc.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-vtune-mc",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns a VTune memory-consumption top-down report in CSV into collapsed stacks for "
		"flamegraph, as stackcollapse-vtune-mc.pl does:\n"
		"  amplxe-cl -R top-down -call-stack-mode all -column=\"Allocations:Self\",\"Allocation "
		"Size:Self\",\"Module\" -report-out allocations.csv -format csv -csv-delimiter comma "
		"-r mc_result\n"
		"Each row with allocations is a stack weighing them (with --size, their bytes).\n",
	.shorts = "o:qvn:", .family = &vtunemc_cli_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "vtune-mc", argc, argv);
}
