/* stackcollapse-dtrace: DTrace stack aggregations to collapsed stacks.
 * Exit 0 when every input was read, 1 when one could not be or broke off
 * (the stacks before are written), 2 on a usage error. */
#include "ctool.h"
#include "dtrace_cli.h"

int main(int argc, char **argv)
{
	return ctool_main(&dtrace_cli_tool, "dtrace", argc, argv);
}
