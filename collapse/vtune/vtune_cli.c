/* vtune_cli: options of stackcollapse-vtune. */
#include "vtune_cli.h"
#include "ctool.h"
#include "vtune.h"

/* The same key as sample's --no-modules: flame gives it to both. */
enum { O_NO_MODULES = 1200 };

static const struct cliopt format_opts[] = {
	{ "no-modules", O_NO_MODULES, NULL, "function names without their module (\"rg`main\"\nbecomes \"main\")" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct vtune_opts *o = ctx;

	(void)err, (void)errlen;
	if (key == O_NO_MODULES) {
		o->no_modules = 1;
		return 0;
	}
	return ctool_set(&o->common, key, arg);
}

const struct cliopt_family vtune_cli_family = {
	"VTune top-down CSV (as stackcollapse-vtune)", format_opts, set,
	sizeof(struct vtune_opts), NULL, NULL, NULL
};

const struct cliopt_tool vtune_cli_tool = {
	.prog = "stackcollapse-vtune",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns an Intel VTune top-down tree exported as CSV into collapsed stacks for "
		"flamegraph, as inferno-collapse-vtune does:\n"
		"  vtune -report top-down -call-stack-mode all -column=\"CPU Time:Self,Module\" "
		"-report-output out.csv -format csv -csv-delimiter comma -r RESULT_DIR\n"
		"Each row with self time is a stack weighing it in milliseconds.\n",
	.shorts = "o:qvn:", .family = &vtune_cli_family, .own = ctool_opts
};
