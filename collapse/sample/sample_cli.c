/* sample_cli: options of stackcollapse-sample. */
#include "sample_cli.h"
#include "ctool.h"
#include "sample.h"
#include "sample_tree.h"

enum { O_NO_MODULES = 1200 };

static const struct cliopt format_opts[] = {
	{ "no-modules", O_NO_MODULES, NULL, "function names without their module (\"rg`main\"\nbecomes \"main\")" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct sample_opts *o = ctx;

	(void)err, (void)errlen;
	if (key == O_NO_MODULES) {
		o->no_modules = 1;
		return 0;
	}
	return ctool_set(&o->common, key, arg);
}

/* Frees stackcollapse-sample's tree. */
static void release(void *obj)
{
	sample_tree_free(((struct sample_opts *)obj)->tree);
}

const struct cliopt_family sample_cli_family = {
	"macOS sample reports (as stackcollapse-sample)", format_opts, set,
	sizeof(struct sample_opts), NULL, NULL, release
};

const struct cliopt_tool sample_cli_tool = {
	.prog = "stackcollapse-sample",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns macOS sample(1) reports (sample PID -file out.txt) into collapsed stacks for "
		"flamegraph, as inferno-collapse-sample does: each leaf of the call graph is a stack "
		"weighing its sample count, \"module`function\" frames; stacks ending in a wait "
		"(mach_msg_trap, __psynch_cvwait, kevent, read, ...) are left out.\n",
	.shorts = "o:qvn:", .family = &sample_cli_family, .own = ctool_opts
};
