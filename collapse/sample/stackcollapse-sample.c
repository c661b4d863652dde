/* stackcollapse-sample: macOS sample(1) reports to collapsed stacks.
 * Exit 0 when every input was read (lines that could not be are named and
 * skipped), 1 when one could not be, had no call graph or broke off (the
 * stacks before are written), 2 on a usage error.  The stacks are kept as
 * the call tree they come as (sample_tree), never joined into strings. */
#include "ctool.h"
#include "sample.h"
#include "sample_cli.h"
#include "sample_tree.h"

static void attach(void *obj)
{
	((struct sample_opts *)obj)->tree = sample_tree_new();
}

static int save(void *obj, struct strtab *t, const char *path, char *err, size_t errlen)
{
	return sample_tree_save(((struct sample_opts *)obj)->tree, t, path, err, errlen);
}

int main(int argc, char **argv)
{
	static const struct ctool_keep keep = { attach, save };

	return ctool_main_keep(&sample_cli_tool, "sample", argc, argv, &keep);
}
