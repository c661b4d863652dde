/* stackcollapse-sample: macOS sample(1) reports to collapsed stacks.
 * Exit 0 when every input was read (lines that could not be are named and
 * skipped), 1 when one could not be, had no call graph or broke off (the
 * stacks before are written), 2 on a usage error. */
#include "ctool.h"
#include "sample_cli.h"

int main(int argc, char **argv)
{
	return ctool_main(&sample_cli_tool, "sample", argc, argv);
}
