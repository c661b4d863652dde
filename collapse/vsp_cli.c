/* vsp_cli: options of stackcollapse-vsp. */
#include "vsp_cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const struct option longopts[] = {
	{ "metric", required_argument, NULL, 'm' },
	{ "no-process", no_argument, NULL, 'P' },
	{ "exclude-waits", no_argument, NULL, 'x' },
	{ "mark-waits", no_argument, NULL, 'w' },
	{ "root", required_argument, NULL, 'r' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

int vsp_cli_parse(struct vsp_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const dash[] = { "-" };
	int c;

	memset(cli, 0, sizeof(*cli));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (vsp_metric_parse(optarg, &cli->opts.metric) < 0) {
				snprintf(err, errlen, "unknown --metric '%s'", optarg);
				return VSP_CLI_USAGE;
			}
			break;
		case 'P': cli->opts.no_process = 1; break;
		case 'x': cli->opts.exclude_waits = 1; break;
		case 'w': cli->opts.mark_waits = 1; break;
		case 'r': cli->opts.root = optarg; break;
		case 'o': cli->output = optarg; break;
		case 'h': return VSP_CLI_HELP;
		case 'V': return VSP_CLI_VERSION;
		default:
			snprintf(err, errlen, c == ':' ? "option '%s' needs a value"
				 : "unknown or ambiguous option '%s'", argv[optind - 1]);
			return VSP_CLI_USAGE;
		}
	}
	cli->inputs = optind < argc ? (const char **)(void *)(argv + optind) : (const char **)(size_t)dash;
	cli->ninputs = optind < argc ? argc - optind : 1;
	return VSP_CLI_RUN;
}

int vsp_cli_exit(int result, const char *prog, const char *err)
{
	if (result == VSP_CLI_VERSION) {
		printf("%s (flame) %s\n", prog, FLAME_VERSION);
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	}
	if (result != VSP_CLI_HELP) {
		fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, err, prog);
		return 2;
	}
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
"  --metric NAME      exclusive-samples or inclusive-samples (sampling),\n"
"                     elapsed-exclusive, elapsed-inclusive,\n"
"                     application-exclusive, application-inclusive\n"
"                     (instrumentation), calls (number of calls), or\n"
"                     calls-inferno (inferno's weighting, to compare);\n"
"                     default: exclusive samples, else elapsed exclusive time\n"
"  --no-process       no process root frame\n"
"  --exclude-waits    drop stacks ending in a wait function (WaitFor*,\n"
"                     Sleep, SleepEx, NtWaitFor*, ZwWaitFor*)\n"
"  --mark-waits       suffix wait functions with _[w] (grey in flamegraph)\n"
"  --root NAME        CallerCallee: expand from NAME only\n"
"  -o, --output FILE  write FILE atomically instead of stdout\n"
"  --help, --version\n"
"\n"
"Exit status: 0 every input read (unreadable rows are named, counted and\n"
"skipped); 1 an input could not be read or was not such a report; 2 usage\n"
"error.\n", prog);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
