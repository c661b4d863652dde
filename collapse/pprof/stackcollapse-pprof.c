/* stackcollapse-pprof: pprof profiles (profile.proto) to collapsed
 * stacks.  Exit 0 when every input was read (samples that could not be
 * are named and counted), 1 when one could not be or broke off, 2 on a
 * usage error. */
#include "ctool.h"
#include "pprof_cli.h"

int main(int argc, char **argv)
{
	return ctool_main(&pprof_cli_tool, "pprof", argc, argv);
}
