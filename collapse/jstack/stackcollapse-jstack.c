/* stackcollapse-jstack: Java thread dumps to collapsed stacks.  Exit 0
 * when every input was read (lines that are not part of a dump are named
 * and skipped), 1 when one could not be or held no threads, 2 on a usage
 * error. */
#include "ctool.h"
#include "jstack_cli.h"

int main(int argc, char **argv)
{
	return ctool_main(&jstack_cli_tool, "jstack", argc, argv);
}
