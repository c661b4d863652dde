/* vsp_cli: options of stackcollapse-vsp. */
#include "vsp_cli.h"

#include <stdio.h>
#include <string.h>

enum { O_METRIC = 'm', O_NO_PROCESS = 'P', O_EXCLUDE_WAITS = 'x', O_MARK_WAITS = 'w',
       O_ROOT = 'r' };

/* What flame offers for Visual Studio reports too. */
static const struct cliopt format_opts[] = {
	{ "metric", O_METRIC, "NAME", "exclusive-samples or inclusive-samples (sampling),\n"
	  "elapsed-exclusive, elapsed-inclusive,\napplication-exclusive, application-inclusive\n"
	  "(instrumentation), calls (number of calls), or\ncalls-inferno (inferno's weighting, to compare);\n"
	  "default: exclusive samples, else elapsed exclusive time" },
	{ "no-process", O_NO_PROCESS, NULL, "no process root frame" },
	{ "exclude-waits", O_EXCLUDE_WAITS, NULL, "drop stacks ending in a wait function (WaitFor*,\n"
	  "Sleep, SleepEx, NtWaitFor*, ZwWaitFor*)" },
	{ "mark-waits", O_MARK_WAITS, NULL, "suffix wait functions with _[w] (grey in flamegraph)" },
	{ "root", O_ROOT, "NAME", "CallerCallee: expand from NAME only" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct vsp_cli *cli = ctx;

	switch (key) {
	case O_METRIC:
		if (vsp_metric_parse(arg, &cli->opts.metric) < 0) {
			snprintf(err, errlen, "unknown --metric '%s'", arg);
			return -1;
		}
		break;
	case O_NO_PROCESS: cli->opts.no_process = 1; break;
	case O_EXCLUDE_WAITS: cli->opts.exclude_waits = 1; break;
	case O_MARK_WAITS: cli->opts.mark_waits = 1; break;
	case O_ROOT: cli->opts.root = arg; break;
	default: return -1;
	}
	return 0;
}

const struct cliopt_family vsp_cli_family = {
	"Visual Studio reports (as stackcollapse-vsp)", format_opts, set, sizeof(struct vsp_cli),
	NULL, NULL, NULL
};

const struct cliopt_tool vsp_cli_tool = {
	.prog = "stackcollapse-vsp",
	.usage = "[options] [REPORT.csv...] > out.folded",
	.about = "Turns Visual Studio profiler reports (vsperfreport /summary:all CSV, also UTF-16 as /U writes them) into collapsed stacks for flamegraph.\n"
		"CallTreeSummary: each row is the stack from the process down to it, weighted by the function's exclusive value (self time is kept).\n"
		"CallerCalleeSummary: a call graph, not stacks. Stacks are an APPROXIMATION: from each entry point, callees get the share of their caller's weight in proportion to the caller's inclusive value; recursion is cut. Prefer CallTreeSummary when you have both.\n",
	.shorts = "o:", .family = &vsp_cli_family
};
