/* stackcollapse-chrome-tracing: Chrome trace-event JSON to collapsed stacks.
 * Exit 0 when every input was read, 1 when one could not be, was not
 * JSON or broke off (what was read is written), 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-chrome-tracing",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns Chrome trace-event JSON (chrome://tracing, DevTools' performance panel, "
		"Perfetto's JSON export) into collapsed stacks for flamegraph, as "
		"stackcollapse-chrome-tracing.py does: events nest by time within each thread, each "
		"frame weighs its own microseconds, the threads are merged.  Besides complete (X) "
		"events it reads begin/end (B/E) pairs, the bare event array, and sampled profiles "
		"(ProfileChunk events), which then stand for the whole trace.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "chrome-trace", argc, argv);
}
