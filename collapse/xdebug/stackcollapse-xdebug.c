/* stackcollapse-xdebug: Xdebug function traces to collapsed stacks.  Exit
 * 0 when every input was read, 1 when one could not be or held no call, 2
 * on a usage error.  -t and -c are the script's spellings of --time and
 * --count. */
#include "ctool.h"
#include "xalloc.h"
#include "xdebug.h"

#include <stdlib.h>
#include <string.h>

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-xdebug",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns PHP Xdebug function traces (xdebug.trace_format=1) into collapsed stacks "
		"for flamegraph, as stackcollapse-xdebug.php does: each stack weighs the "
		"microseconds it was running (-t, the default) or, with -c, the calls that "
		"returned without calling another.  The input file is not changed (the script "
		"rewrites it).\n",
	.shorts = "o:qvn:", .family = &xdebug_cli_family, .own = ctool_opts
};

static char time_opt[] = "--time", count_opt[] = "--count";

int main(int argc, char **argv)
{
	char **args = xcalloc((size_t)argc + 1, sizeof(*args));
	int i, rc, opts = 1;

	for (i = 0; i < argc; i++) {
		args[i] = argv[i];
		if (strcmp(argv[i], "--") == 0)
			opts = 0;
		else if (opts && strcmp(argv[i], "-t") == 0)
			args[i] = time_opt;
		else if (opts && strcmp(argv[i], "-c") == 0)
			args[i] = count_opt;
	}
	rc = ctool_main(&tool, "xdebug", argc, args);
	free(args);
	return rc;
}
