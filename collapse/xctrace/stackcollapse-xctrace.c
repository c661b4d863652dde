/* stackcollapse-xctrace: xctrace export XML (Instruments' Time Profiler)
 * to collapsed stacks.  Exit 0 when every input was read (elements that
 * could not be used are named), 1 when one could not be, was not xctrace's
 * XML or broke off (the rows before are written), 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-xctrace",
	.usage = "[options] [FILE.xml...] > out.folded",
	.about = "Turns the time profile of an Instruments trace, exported as XML, into "
		"collapsed stacks for flamegraph, as inferno-collapse-xctrace does:\n"
		"  xctrace export --input run.trace --xpath "
		"'/trace-toc/run[@number=\"1\"]/data/table[@schema=\"time-profile\"]' > out.xml\n"
		"Each row is a sample of its backtrace.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "xctrace", argc, argv);
}
