/* stackcollapse-ghcprof: GHC .prof reports to collapsed stacks.  Exit 0
 * when every input was read (lines that could not be are named), 1 when
 * one could not be, had no cost-centre tree or lacked the column asked
 * for, 2 on a usage error. */
#include "ctool.h"
#include "ghcprof_cli.h"

int main(int argc, char **argv)
{
	return ctool_main(&ghcprof_cli_tool, "ghcprof", argc, argv);
}
