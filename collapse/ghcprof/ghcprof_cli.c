/* ghcprof_cli: options of stackcollapse-ghcprof. */
#include "ghcprof_cli.h"
#include "ctool.h"
#include "ghcprof.h"

enum { O_TIME = 1300, O_TICKS, O_BYTES };

static const struct cliopt format_opts[] = {
	{ "time", O_TIME, NULL, "weigh by the individual %time column, in tenths\nof a percent (the default)" },
	{ "ticks", O_TICKS, NULL, "weigh by the ticks column (+RTS -P)" },
	{ "bytes", O_BYTES, NULL, "weigh by the bytes allocated column (+RTS -P)" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct ghcprof_opts *o = ctx;

	(void)err, (void)errlen;
	switch (key) {
	case O_TIME: o->source = GHCPROF_TIME; return 0;
	case O_TICKS: o->source = GHCPROF_TICKS; return 0;
	case O_BYTES: o->source = GHCPROF_BYTES; return 0;
	default: return ctool_set(&o->common, key, arg);
	}
}

const struct cliopt_family ghcprof_cli_family = {
	"GHC .prof reports (as stackcollapse-ghcprof)", format_opts, set,
	sizeof(struct ghcprof_opts), NULL, NULL, NULL
};

const struct cliopt_tool ghcprof_cli_tool = {
	.prog = "stackcollapse-ghcprof",
	.usage = "[options] [FILE.prof...] > out.folded",
	.about = "Turns the cost-centre tree of a GHC profiling report (+RTS -p, or -P for "
		"ticks and bytes) into collapsed stacks for flamegraph, as "
		"inferno-collapse-ghcprof does: each cost centre is a stack of Module.centre "
		"frames weighing its own cost.\n",
	.shorts = "o:qvn:", .family = &ghcprof_cli_family, .own = ctool_opts
};
