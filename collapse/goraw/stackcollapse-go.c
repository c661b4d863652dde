/* stackcollapse-go: go tool pprof -raw text to collapsed stacks.  Exit 0 when every input
 * was read, 1 when one could not be or held no stack, 2 on a usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-go",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns the text of go tool pprof -raw (a Go profile printed sample by sample) into "
		"collapsed stacks for flamegraph, as stackcollapse-go.pl does:\n"
		"  go tool pprof -raw ./bin cpu.pprof > raw.txt\n"
		"Functions inlined into a location are frames of their own (the script drops "
		"them).\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "go", argc, argv);
}
