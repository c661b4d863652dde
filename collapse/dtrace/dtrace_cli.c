/* dtrace_cli: options of stackcollapse-dtrace. */
#include "dtrace_cli.h"
#include "ctool.h"
#include "dtrace.h"

enum { O_INCLUDEOFFSET = 1100 };

static const struct cliopt format_opts[] = {
	{ "includeoffset", O_INCLUDEOFFSET, NULL, "keep the \"+0x1f\" offsets of all frames but\nthe leaf" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct dtrace_opts *o = ctx;

	(void)err, (void)errlen;
	if (key == O_INCLUDEOFFSET) {
		o->includeoffset = 1;
		return 0;
	}
	return ctool_set(&o->common, key, arg);
}

const struct cliopt_family dtrace_cli_family = {
	"DTrace stacks (as stackcollapse-dtrace)", format_opts, set, sizeof(struct dtrace_opts),
	NULL, NULL, NULL
};

const struct cliopt_tool dtrace_cli_tool = {
	.prog = "stackcollapse-dtrace",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns DTrace stack aggregations into collapsed stacks for flamegraph, as "
		"stackcollapse.pl and inferno-collapse-dtrace do, for output such as:\n"
		"  dtrace -x ustackframes=100 -n 'profile-97 /pid == PID/ { @[ustack()] = count(); } "
		"tick-60s { exit(0); }' -o out.stacks\n"
		"Everything up to the first blank line is the header. Offsets are dropped, C++ "
		"arguments cut, Java inlined frames (a->b) split and marked _[i], partly demangled "
		"Rust symbols finished.\n",
	.shorts = "o:qvn:", .family = &dtrace_cli_family, .own = ctool_opts
};
