/* etw_cli: options of stackcollapse-etw. */
#include "etw_cli.h"
#include "xalloc.h"
#include "cliopt.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_PROCESS = 256, O_PID, O_TID, O_BEGIN, O_END, O_GREP, O_WEIGHT, O_SPLIT, O_TOP };

static const struct option longopts[] = {
	{ "no-process", no_argument, NULL, 'P' },
	{ "no-thread", no_argument, NULL, 'T' },
	{ "collapse-threads", no_argument, NULL, 'c' },
	{ "include-idle", no_argument, NULL, 'i' },
	{ "exclude-idle", no_argument, NULL, 'e' },
	{ "nmi", no_argument, NULL, 'N' },
	{ "addrs", no_argument, NULL, 'A' },
	{ "process", required_argument, NULL, O_PROCESS },
	{ "pid", required_argument, NULL, O_PID },
	{ "tid", required_argument, NULL, O_TID },
	{ "begin", required_argument, NULL, O_BEGIN },
	{ "end", required_argument, NULL, O_END },
	{ "grep", required_argument, NULL, O_GREP },
	{ "weight", required_argument, NULL, O_WEIGHT },
	{ "split", required_argument, NULL, O_SPLIT },
	{ "top", required_argument, NULL, O_TOP },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};


static int seconds(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return *s && !*end && isfinite(*v) ? 0 : -1;
}

static int value(struct etw_cli *cli, int c, const char *arg, char *err, size_t errlen)
{
	struct etw_opts *o = &cli->opts;
	char *end;
	int bad = 0;

	switch (c) {
	case O_PROCESS: cliopt_names(arg, &cli->procs, &cli->opts.nprocess); break;
	case O_PID: bad = cliopt_numbers(arg, &cli->pids, &o->npid); break;
	case O_TID: bad = cliopt_numbers(arg, &cli->tids, &o->ntid); break;
	case O_BEGIN: bad = seconds(arg, &o->begin); o->has_begin = 1; break;
	case O_END: bad = seconds(arg, &o->end); o->has_end = 1; break;
	case O_GREP: o->grep = arg; break;
	case O_WEIGHT: o->weight = arg; break;
	case O_SPLIT: cli->split = arg; break;
	case O_TOP:
		cli->top = (size_t)strtoul(arg, &end, 10);
		bad = !*arg || *end || cli->top == 0;
		break;
	default: bad = 1; break;
	}
	if (bad)
		snprintf(err, errlen, "invalid value '%s' for --%s", arg, cliopt_name(longopts, c));
	return bad ? -1 : 0;
}

int etw_cli_parse(struct etw_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const dash[] = { "-" };
	int c;

	memset(cli, 0, sizeof(*cli));
	cli->top = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'P': cli->opts.no_process = 1; break;
		case 'T': cli->opts.no_thread = 1; break;
		case 'c': cli->opts.collapse_threads = 1; break;
		case 'i': cli->opts.include_idle = 1; break;
		case 'e': cli->opts.include_idle = 0; break;
		case 'N': cli->opts.nmi = 1; break;
		case 'A': cli->opts.addrs = 1; break;
		case 'o': cli->output = optarg; break;
		case 'h': return ETW_CLI_HELP;
		case 'V': return ETW_CLI_VERSION;
		case '?':
		case ':':
			snprintf(err, errlen, c == ':' ? "option '%s' needs a value"
				 : "unknown or ambiguous option '%s'", argv[optind - 1]);
			return ETW_CLI_USAGE;
		default:
			if (value(cli, c, optarg, err, errlen) < 0)
				return ETW_CLI_USAGE;
		}
	}
	cli->opts.process = (const char *const *)(void *)cli->procs;
	cli->opts.pid = cli->pids;
	cli->opts.tid = cli->tids;
	cli->inputs = optind < argc ? (const char **)(void *)(argv + optind) : (const char **)(size_t)dash;
	cli->ninputs = optind < argc ? argc - optind : 1;
	return ETW_CLI_RUN;
}

void etw_cli_release(struct etw_cli *cli)
{
	size_t i;

	for (i = 0; i < cli->opts.nprocess; i++)
		free(cli->procs[i]);
	free(cli->procs);
	free(cli->pids);
	free(cli->tids);
	memset(cli, 0, sizeof(*cli));
}

int etw_cli_exit(struct etw_cli *cli, int result, const char *prog, const char *err)
{
	int rc = 2;

	if (result == ETW_CLI_VERSION) {
		printf("%s (flame) %s\n", prog, FLAME_VERSION);
		rc = 0;
	} else if (result == ETW_CLI_HELP) {
		printf("Usage: %s [options] [EXPORT.csv...] > out.folded\n"
"Turns Windows ETW CPU sampling exports into collapsed stacks, the format\n"
"read from the content: wpaexporter CSV from a CPU Usage (Sampled) preset\n"
"(e.g. UIforETW's ExportCPUUsageSampled.wpaProfile), one row per sample;\n"
"or 'xperf -i trace.etl -symbols -a dumper [-stacktimeshifting]' text,\n"
"where kernel and user stack fragments are joined to their samples.\n"
"Stacks start with PROCESS (PID) and TID N.\n"
"\n"
"  --no-process, --no-thread   drop those root frames\n"
"  --collapse-threads          one graph per process: the thread as TID:N\n"
"  --process NAME[,NAME]       keep these processes (any case, .exe optional)\n"
"  --pid N[,N], --tid N[,N]    keep these processes or threads\n"
"  --begin SEC, --end SEC      keep samples in [begin, end) (TimeStamp column)\n"
"  --grep TEXT                 keep stacks with a frame containing TEXT\n"
"  --exclude-idle              drop Idle (0) and DPC/ISR samples (the default)\n"
"  --include-idle              keep them\n"
"  --weight COLUMN             CSV: weigh rows by COLUMN (Count, Weight), not 1\n"
"  --nmi                       dumper: SampledProfileNmi events are samples too\n"
"  --addrs                     dumper: unresolved frames as module!0xADDR\n"
"                              (default module!<PDB_not_found>, as WPA)\n"
"  --split DIR --top N         write DIR/PROCESS_PID_TID.folded for the N busiest\n"
"                              threads (processes with --collapse-threads) and\n"
"                              list them on stdout (default N: 1)\n"
"  -o, --output FILE           write FILE atomically instead of stdout\n"
"  --help, --version\n"
"\n"
"Names are kept as they are (only ';' becomes ':').  Exit status: 0 read,\n"
"1 an input could not be read or is not such an export, 2 usage error.\n", prog);
		rc = 0;
	} else {
		fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, err, prog);
	}
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
		rc = 1;
	etw_cli_release(cli);
	return rc;
}
