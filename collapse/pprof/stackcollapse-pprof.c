/* stackcollapse-pprof: pprof profiles (profile.proto) to collapsed
 * stacks.  Exit 0 when every input was read (samples that could not be
 * are named and counted), 1 when one could not be or broke off, 2 on a
 * usage error.  The stacks are kept as frame ids (pprof_set), not
 * spelled out and interned, when the profile allows (pprof_fast). */
#include "ctool.h"
#include "pprof_cli.h"
#include "pprof_set.h"

static void attach(void *obj)
{
	struct pprof_opts *o = obj;

	o->set = pprof_set_new();
	pprof_set_threads(o->set, pprof_threads(o));
}

static int save(void *obj, struct strtab *t, const char *path, char *err, size_t errlen)
{
	return pprof_set_save(((struct pprof_opts *)obj)->set, t, path, err, errlen);
}

int main(int argc, char **argv)
{
	static const struct ctool_keep keep = { attach, save };

	return ctool_main_keep(&pprof_cli_tool, "pprof", argc, argv, &keep);
}
