/* stackcollapse-bpftrace: bpftrace's printed maps of stacks to collapsed
 * stacks.  Exit 0 when every input was read, 1 when one could not be, had
 * no stacks or ended inside a key (the stacks before are written), 2 on a
 * usage error. */
#include "ctool.h"

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-bpftrace",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns the maps of stacks bpftrace prints into collapsed stacks for flamegraph, "
		"as stackcollapse-bpftrace.pl does, for output such as:\n"
		"  bpftrace -e 'profile:hz:99 { @[kstack] = count(); }' > out.bt\n"
		"  bpftrace -e 'profile:hz:99 { @[ustack, comm] = count(); }' > out.bt\n"
		"A second key (comm) becomes the root frame.\n",
	.shorts = "o:qvn:", .family = &ctool_plain_family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "bpftrace", argc, argv);
}
