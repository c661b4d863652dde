/* vsp_cli: options of stackcollapse-vsp. */
#include "vsp_cli.h"

#include <stdio.h>
#include <string.h>

enum { O_METRIC = 'm', O_NO_PROCESS = 'P', O_EXCLUDE_WAITS = 'x', O_MARK_WAITS = 'w',
       O_ROOT = 'r', O_OUTPUT = 'o' };

/* What flame offers for Visual Studio reports too. */
const struct cliopt vsp_cli_format[] = {
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

static const struct cliopt tool_only[] = {
	{ "output", O_OUTPUT, "FILE", "write FILE atomically instead of stdout" },
	{ NULL, 0, NULL, NULL }
};

int vsp_cli_set(void *ctx, int key, const char *arg, char *err, size_t errlen)
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
	case O_OUTPUT: cli->output = arg; break;
	default: return -1;
	}
	return 0;
}

int vsp_cli_parse(struct vsp_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const dash[] = { "-" };
	const struct cliopt_group g[] = {
		{ NULL, vsp_cli_format, vsp_cli_set, cli }, { NULL, tool_only, vsp_cli_set, cli },
	};
	int first, rc;

	memset(cli, 0, sizeof(*cli));
	rc = cliopt_parse(g, 2, "o:", 0, argc, argv, &first, err, errlen);
	if (rc != CLIOPT_RUN)
		return rc;
	cli->inputs = first < argc ? (const char **)(void *)(argv + first) : (const char **)(size_t)dash;
	cli->ninputs = first < argc ? argc - first : 1;
	return CLIOPT_RUN;
}

int vsp_cli_exit(int result, const char *prog, const char *err)
{
	struct vsp_cli cli;
	const struct cliopt_group g[] = {
		{ NULL, vsp_cli_format, vsp_cli_set, &cli }, { NULL, tool_only, vsp_cli_set, &cli },
	};

	if (result == CLIOPT_SHOW_VERSION)
		return cliopt_version(prog);
	if (result != CLIOPT_SHOW_HELP)
		return cliopt_usage(prog, err);
	printf("Usage: %s [options] [REPORT.csv...] > out.folded\n"
"Turns Visual Studio profiler reports (vsperfreport /summary:all CSV, also\n"
"UTF-16 as /U writes them) into collapsed stacks for flamegraph.\n"
"\n"
"CallTreeSummary: each row is the stack from the process down to it,\n"
"weighted by the function's exclusive value (self time is kept).\n"
"CallerCalleeSummary: a call graph, not stacks.  Stacks are an\n"
"APPROXIMATION: from each entry point, callees get the share of their\n"
"caller's weight in proportion to the caller's inclusive value; recursion\n"
"is cut.  Prefer CallTreeSummary when you have both.\n"
"\n"
, prog);
	cliopt_help(stdout, g, 2, "o:");
	printf("\n"
"Exit status: 0 every input read (unreadable rows are named, counted and\n"
"skipped); 1 an input could not be read or was not such a report; 2 usage\n"
"error.\n");
	return cliopt_stdout_status();
}
