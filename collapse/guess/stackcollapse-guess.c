/* stackcollapse-guess: any input flame reads, its format told from its
 * content (the format table's sniffers, as flame does), collapsed.  Exit 0
 * when every input was read, 1 when one could not be, was of no format
 * flame knows or broke off, 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-guess",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Tells each input's format from its content and collapses it, as "
		"inferno-collapse-guess does, over every format flame reads (flame --help lists "
		"them): perf script, DTrace, sample, xctrace, VTune, ETW, Visual Studio, PerfView, "
		"collapsed stacks... Each format's options take their defaults; use the "
		"stackcollapse-NAME tool or flame to set them.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, NULL, argc, argv);
}
