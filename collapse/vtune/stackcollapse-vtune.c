/* stackcollapse-vtune: VTune top-down CSV to collapsed stacks.  Exit 0
 * when every input was read (rows that could not be are named and
 * skipped), 1 when one could not be or had no header, 2 on a usage
 * error. */
#include "ctool.h"
#include "vtune_cli.h"

int main(int argc, char **argv)
{
	return ctool_main(&vtune_cli_tool, "vtune", argc, argv);
}
