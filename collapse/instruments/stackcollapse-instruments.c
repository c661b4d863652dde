/* stackcollapse-instruments: Instruments' call tree text export to
 * collapsed stacks.  Exit 0 when every input was read (rows that could
 * not be are named and skipped), 1 when one could not be or had no rows,
 * 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-instruments",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns the call tree of Xcode Instruments' Time Profiler, exported as text "
		"(header line, then \"TOTAL ms  PERCENT%  SELF ms\\t \\tFUNCTION\" rows indented by "
		"depth), into collapsed stacks for flamegraph, as stackcollapse-instruments.pl "
		"does: each row is a stack weighing its self time in milliseconds. For xctrace's "
		"XML export, use stackcollapse-xctrace.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "instruments", argc, argv);
}
